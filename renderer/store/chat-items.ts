// The chat's view model and the pure functions that build it from a persisted transcript and from run
// events. Kept free of React, zustand and the transport so the event handling (seq dedupe, gap detection,
// replay after a reload) is tested on its own.
import type { RunEvent } from '../../shared/channels/chat';
import type { TranscriptItem } from '../../shared/channels/conversations';
import { formatTokens, plural } from '../lib/format';

export type ChatItem =
  | { kind: 'user'; id: string; text: string; pinned: boolean; pending?: boolean }
  | {
      kind: 'assistant';
      id: string;
      text: string;
      pinned: boolean;
      interrupted: boolean;
      streaming: boolean;
    }
  | {
      kind: 'tool';
      id: string;
      toolUseId: string;
      name: string;
      input: unknown;
      result: string | null;
      isError: boolean;
      durationMs: number | null;
      /** For a memory write: the journal entry (known live from memory.changed, else looked up). */
      journalId?: string | undefined;
      reverted?: boolean | undefined;
    }
  /** backfill | cleared | compacted | turn_limit | error (from the transcript) and the same from live runs. */
  | { kind: 'event'; id: string; event: string; text: string; detail?: string | undefined }
  | {
      kind: 'memory';
      id: string;
      journalId: string | undefined;
      path: string;
      newPath: string | undefined;
      command: string;
      reverted: boolean;
    }
  | {
      kind: 'review';
      id: string;
      reviewId: string;
      command: string;
      path: string;
      before: string | null;
      after: string | null;
      outcome: 'approved' | 'edited' | 'rejected' | null;
    }
  | {
      kind: 'error';
      id: string;
      runId: string;
      errorKind: string;
      message: string;
      retryable: boolean;
    };

export type RunStatus = 'running' | 'done' | 'aborted' | 'error' | 'turn_limit';

export interface RunState {
  runId: string;
  conversationId: string;
  /** Highest seq applied; events at or below it are duplicates. */
  lastSeq: number;
  status: RunStatus;
  userMessageId: string | null;
}

export interface ChatModel {
  items: ChatItem[];
  runs: Record<string, RunState>;
  activeRunId: string | null;
  /** Ids of items that came from the persisted transcript: replayed events never change them. */
  settled: ReadonlySet<string>;
}

export function fromTranscript(transcript: readonly TranscriptItem[]): ChatItem[] {
  return transcript.map((t): ChatItem => {
    switch (t.kind) {
      case 'user':
        return { kind: 'user', id: t.id, text: t.text, pinned: t.pinned };
      case 'assistant':
        return {
          kind: 'assistant',
          id: t.id,
          text: t.text,
          pinned: t.pinned,
          interrupted: t.interrupted,
          streaming: false,
        };
      case 'tool':
        return {
          kind: 'tool',
          id: t.id,
          toolUseId: t.toolUseId,
          name: t.name,
          input: t.input,
          result: t.result,
          isError: t.isError,
          durationMs: t.durationMs,
        };
      case 'event':
        return { kind: 'event', id: t.id, event: t.event, text: t.text, detail: t.detail };
    }
  });
}

/** Must read like the backend's transcript label (electron/core/agent/backfill-step.ts). */
export function backfillText(loaded: number, totalFiles: number, tokens: number): string {
  const files =
    loaded === totalFiles ? plural(loaded, 'memory file') : `${loaded} of ${totalFiles} memory files`;
  return `Loaded ${files} · ${formatTokens(tokens)} tokens`;
}
export function clearedText(count: number, tokens: number): string {
  return `Cleared ${plural(count, 'old tool result')} · ${formatTokens(tokens)} tokens`;
}
export function compactedText(messages: number, before: number, after: number): string {
  return `Compacted ${plural(messages, 'earlier message')} · ${formatTokens(before)} → ${formatTokens(after)} tokens`;
}

export interface ApplyResult {
  model: ChatModel;
  /** Runs with a gap before an incoming event: the caller fetches them with chat.attach(afterSeq). */
  gaps: { runId: string; afterSeq: number }[];
  changed: boolean;
}

/**
 * Apply run events in order. Invariants: an event is applied at most once per run (seq dedupe), never out
 * of order (an event after a gap is held back and reported, so the caller re-attaches from the last seq),
 * and never onto an item the persisted transcript already has (a replay after a reload).
 */
export function applyRunEvents(model: ChatModel, events: readonly RunEvent[]): ApplyResult {
  let items = model.items;
  let runs = model.runs;
  let activeRunId = model.activeRunId;
  let changed = false;
  const gaps = new Map<string, number>();
  const index = new Map<string, number>();
  items.forEach((item, i) => index.set(keyOf(item), i));

  const mutate = (i: number, next: ChatItem): void => {
    if (items === model.items) items = items.slice();
    items[i] = next;
  };
  const push = (item: ChatItem): void => {
    if (items === model.items) items = items.slice();
    index.set(keyOf(item), items.length);
    items.push(item);
  };
  const find = (key: string): number => index.get(key) ?? -1;

  for (const ev of events) {
    const prev = runs[ev.runId];
    const lastSeq = prev?.lastSeq ?? 0;
    if (ev.seq <= lastSeq) continue;
    if (ev.seq > lastSeq + 1) {
      if (!gaps.has(ev.runId)) gaps.set(ev.runId, lastSeq);
      continue;
    }
    if (gaps.has(ev.runId)) continue;
    const run: RunState = prev
      ? { ...prev, lastSeq: ev.seq }
      : {
          runId: ev.runId,
          conversationId: ev.conversationId,
          lastSeq: ev.seq,
          status: 'running',
          userMessageId: null,
        };
    runs = { ...runs, [ev.runId]: run };
    changed = true;
    const replayOfSettled = run.userMessageId !== null && model.settled.has(run.userMessageId);

    switch (ev.type) {
      case 'run.started': {
        run.userMessageId = ev.userMessageId;
        if (run.status === 'running') activeRunId = ev.runId;
        if (find(`m:${ev.userMessageId}`) >= 0) break;
        // The optimistic user item gets its real id (send/edit responses may arrive after this event).
        const pending = items.findIndex((it) => it.kind === 'user' && it.pending);
        if (pending >= 0) {
          const it = items[pending] as Extract<ChatItem, { kind: 'user' }>;
          mutate(pending, { ...it, id: ev.userMessageId, pending: false });
          index.set(`m:${ev.userMessageId}`, pending);
        }
        break;
      }
      case 'text.delta': {
        if (model.settled.has(ev.messageId)) break;
        const i = find(`m:${ev.messageId}`);
        if (i < 0) {
          push({
            kind: 'assistant',
            id: ev.messageId,
            text: ev.text,
            pinned: false,
            interrupted: false,
            streaming: true,
          });
        } else {
          const it = items[i];
          if (it?.kind === 'assistant') mutate(i, { ...it, text: it.text + ev.text, streaming: true });
        }
        break;
      }
      case 'message.done': {
        if (model.settled.has(ev.messageId)) break;
        const i = find(`m:${ev.messageId}`);
        const it = items[i];
        if (it?.kind === 'assistant') mutate(i, { ...it, streaming: false, interrupted: ev.interrupted });
        break;
      }
      case 'tool.call': {
        if (find(`t:${ev.toolUseId}`) >= 0) break;
        push({
          kind: 'tool',
          id: `tool:${ev.toolUseId}`,
          toolUseId: ev.toolUseId,
          name: ev.name,
          input: ev.input,
          result: null,
          isError: false,
          durationMs: null,
        });
        break;
      }
      case 'tool.result': {
        const i = find(`t:${ev.toolUseId}`);
        const it = items[i];
        if (it?.kind === 'tool' && !model.settled.has(it.id)) {
          mutate(i, { ...it, result: ev.result, isError: ev.isError, durationMs: ev.durationMs });
        }
        break;
      }
      case 'memory.backfill':
        // Nothing loaded is nothing to report (a new user's first chats).
        if (ev.totalFiles === 0) break;
        if (replayOfSettled && transcriptHasEventAfter(model, run, 'backfill')) break;
        push({
          kind: 'event',
          id: `ev:${ev.runId}:${ev.seq}`,
          event: 'backfill',
          text: backfillText(ev.files.length, ev.totalFiles, ev.tokens),
          detail: ev.files.map((f) => `${f.path} · ${formatTokens(f.tokens)} tokens`).join('\n') || undefined,
        });
        break;
      case 'context.cleared':
        if (replayOfSettled && transcriptHasEventAfter(model, run, 'cleared')) break;
        push({
          kind: 'event',
          id: `ev:${ev.runId}:${ev.seq}`,
          event: 'cleared',
          text: clearedText(ev.clearedToolUses, ev.clearedTokens),
        });
        break;
      case 'context.compacted':
        if (replayOfSettled && transcriptHasEventAfter(model, run, 'compacted')) break;
        push({
          kind: 'event',
          id: `ev:${ev.runId}:${ev.seq}`,
          event: 'compacted',
          text: compactedText(ev.messagesCompacted, ev.tokensBefore, ev.tokensAfter),
          detail: ev.summary,
        });
        break;
      case 'turn.limit':
        if (replayOfSettled && transcriptHasEventAfter(model, run, 'turn_limit')) break;
        push({
          kind: 'event',
          id: `ev:${ev.runId}:${ev.seq}`,
          event: 'turn_limit',
          text: `Stopped after ${plural(ev.turns, 'tool turn')}. Send a message to continue.`,
        });
        break;
      case 'review.request':
        if (find(`r:${ev.reviewId}`) >= 0) break;
        push({
          kind: 'review',
          id: `review:${ev.reviewId}`,
          reviewId: ev.reviewId,
          command: ev.command,
          path: ev.path,
          before: ev.before,
          after: ev.after,
          outcome: null,
        });
        break;
      case 'review.resolved': {
        const i = find(`r:${ev.reviewId}`);
        const it = items[i];
        if (it?.kind === 'review') mutate(i, { ...it, outcome: ev.outcome });
        break;
      }
      case 'run.error':
        if (replayOfSettled && transcriptHasEventAfter(model, run, 'error')) break;
        push({
          kind: 'error',
          id: `error:${ev.runId}:${ev.seq}`,
          runId: ev.runId,
          errorKind: ev.kind,
          message: ev.message,
          retryable: ev.retryable,
        });
        break;
      case 'run.finished': {
        run.status = ev.status;
        if (activeRunId === ev.runId) activeRunId = null;
        // Anything still streaming from this run has ended (an abort may never send message.done).
        items.forEach((it, i) => {
          if (it.kind === 'assistant' && it.streaming) {
            mutate(i, { ...it, streaming: false, interrupted: it.interrupted || ev.status === 'aborted' });
          }
        });
        break;
      }
    }
  }
  return {
    model: { items, runs, activeRunId, settled: model.settled },
    gaps: [...gaps].map(([runId, afterSeq]) => ({ runId, afterSeq })),
    changed,
  };
}

/** The key an item is deduplicated by: message id, tool-use id or review id. */
function keyOf(item: ChatItem): string {
  switch (item.kind) {
    case 'user':
    case 'assistant':
      return `m:${item.id}`;
    case 'tool':
      return `t:${item.toolUseId}`;
    case 'review':
      return `r:${item.reviewId}`;
    default:
      return `i:${item.id}`;
  }
}

/** After a reload, a replayed card is a duplicate when the transcript holds the same card for that turn. */
function transcriptHasEventAfter(model: ChatModel, run: RunState, event: string): boolean {
  const start = model.items.findIndex((it) => it.kind === 'user' && it.id === run.userMessageId);
  if (start < 0) return false;
  return model.items
    .slice(start + 1)
    .some((it) => it.kind === 'event' && it.event === event && model.settled.has(it.id));
}

const WRITE_COMMANDS = new Set(['create', 'str_replace', 'insert', 'delete', 'rename']);

/** The file a memory tool call changes, when it is a write ("view" reads nothing into the journal). */
export function memoryWriteTarget(
  item: ChatItem,
): { command: string; path: string; newPath?: string } | null {
  if (item.kind !== 'tool' || item.name !== 'memory' || !item.input || typeof item.input !== 'object')
    return null;
  const input = item.input as Record<string, unknown>;
  const command = typeof input.command === 'string' ? input.command : '';
  if (!WRITE_COMMANDS.has(command)) return null;
  const path =
    typeof input.path === 'string' ? input.path : typeof input.old_path === 'string' ? input.old_path : null;
  if (!path) return null;
  return typeof input.new_path === 'string' ? { command, path, newPath: input.new_path } : { command, path };
}
