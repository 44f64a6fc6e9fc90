// The chat's view model: the shared projection's items (shared/projection, the same function that builds
// the backend's transcript) plus what only this window knows (whether a memory change was undone, the
// journal entry of one stored before results carried it), and the runs' sequence bookkeeping. Free of React, zustand and the transport.
import type { RunEvent, RunStatus } from '../../shared/channels/chat';
import type { ViewItem, ViewItemOf } from '../../shared/projection/items';
import { memoryWriteTarget as writeTarget } from '../../shared/projection/memory-writes';
import { applyEvents } from '../../shared/projection/project';

export type { RunStatus };

type ToolItem = ViewItemOf<'tool'> & {
  /** For a memory write: undone from this window. */
  reverted?: boolean | undefined;
};

export type ChatItem = Exclude<ViewItem, { kind: 'tool' }> | ToolItem;

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
}

export interface ApplyResult {
  model: ChatModel;
  /** Runs with a gap before an incoming event: the caller fetches them with chat.attach(afterSeq). */
  gaps: { runId: string; afterSeq: number }[];
  changed: boolean;
}

/**
 * Apply run events in order. Each run's events are applied at most once and never out of order (an event
 * after a gap is held back and reported, so the caller re-attaches from the last seq); the items follow
 * from the shared projection, which never duplicates an item the transcript already has.
 */
export function applyRunEvents(model: ChatModel, events: readonly RunEvent[]): ApplyResult {
  let runs = model.runs;
  let activeRunId = model.activeRunId;
  let changed = false;
  const gaps = new Map<string, number>();
  const accepted: RunEvent[] = [];

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
    accepted.push(ev);
    if (ev.type === 'run.started') {
      run.userMessageId = ev.userMessageId;
      if (run.status === 'running') activeRunId = ev.runId;
    } else if (ev.type === 'run.finished') {
      run.status = ev.status;
      if (activeRunId === ev.runId) activeRunId = null;
    }
  }
  const items = accepted.length ? (applyEvents(model.items, accepted) as ChatItem[]) : model.items;
  return {
    model: { items, runs, activeRunId },
    gaps: [...gaps].map(([runId, afterSeq]) => ({ runId, afterSeq })),
    changed,
  };
}

/** The file a memory tool call changes, when it is a write ("view" reads nothing into the journal). */
export function memoryWriteTarget(
  item: ChatItem,
): { command: string; path: string; newPath?: string } | null {
  return item.kind === 'tool' ? writeTarget(item.name, item.input) : null;
}
