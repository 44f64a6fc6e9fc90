// The Activity tab's slice: every tool call of a conversation, from its transcript (tool items) merged with
// the live `chat.event` stream (tool.call, then tool.result). Keyed by conversation so switching back and
// forth keeps what was seen; calls are keyed by toolUseId so a replayed event (chat.attach) is idempotent.
import { create } from 'zustand';
import type { Api, EventPayload } from '../../shared/contract';
import type { TranscriptItem } from '../../shared/channels/conversations';
import { getApi } from '../api';
import { errorMessage } from '../lib/format';
import { registerBinder } from './bridge';
import { loadTranscript, onTranscriptLoad } from './transcripts';

export interface ToolCall {
  toolUseId: string;
  name: string;
  input: unknown;
  result: string | null;
  isError: boolean;
  durationMs: number | null;
  startedAt: string;
  status: 'running' | 'done' | 'error';
}

export interface ConversationActivity {
  calls: ToolCall[];
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
}

export interface ActivityState {
  byConversation: Record<string, ConversationActivity>;
  /** The tool name the list is filtered by; null shows all. */
  filter: string | null;
}

export const useActivityStore = create<ActivityState>()(() => ({ byConversation: {}, filter: null }));

const set = useActivityStore.setState;
const get = useActivityStore.getState;

const empty: ConversationActivity = { calls: [], status: 'idle', error: null };

function update(
  conversationId: string,
  change: (current: ConversationActivity) => ConversationActivity,
): void {
  const current = get().byConversation[conversationId] ?? empty;
  set({ byConversation: { ...get().byConversation, [conversationId]: change(current) } });
}

function upsert(calls: ToolCall[], call: Partial<ToolCall> & { toolUseId: string }): ToolCall[] {
  const index = calls.findIndex((c) => c.toolUseId === call.toolUseId);
  if (index < 0) {
    const fresh: ToolCall = {
      name: 'tool',
      input: null,
      result: null,
      isError: false,
      durationMs: null,
      startedAt: new Date().toISOString(),
      status: 'running',
      ...call,
    };
    return [...calls, fresh];
  }
  const next = calls.slice();
  next[index] = { ...calls[index]!, ...call };
  return next;
}

export function callsFromTranscript(items: readonly TranscriptItem[]): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const item of items) {
    if (item.kind !== 'tool') continue;
    calls.push({
      toolUseId: item.toolUseId,
      name: item.name,
      input: item.input,
      result: item.result,
      isError: item.isError,
      durationMs: item.durationMs,
      startedAt: item.createdAt,
      status: item.result === null ? 'running' : item.isError ? 'error' : 'done',
    });
  }
  return calls;
}

/** A conversation's tool calls from its transcript, keeping live calls not yet in it. */
function fromTranscriptItems(conversationId: string, items: readonly TranscriptItem[]): void {
  const fromTranscript = callsFromTranscript(items);
  update(conversationId, (c) => {
    let calls = fromTranscript;
    for (const live of c.calls) {
      const known = calls.find((t) => t.toolUseId === live.toolUseId);
      // A live call the transcript has not persisted yet, or has persisted without its result yet.
      if (!known) calls = [...calls, live];
      else if (known.result === null && live.result !== null) calls = upsert(calls, live);
    }
    return { calls, status: 'ready', error: null };
  });
}

/** Take a conversation's tool calls from a transcript being loaded (by the chat, say). */
function fromTranscriptLoad(conversationId: string, items: Promise<readonly TranscriptItem[]>): void {
  update(conversationId, (c) => ({ ...c, status: c.status === 'ready' ? 'ready' : 'loading', error: null }));
  items.then(
    (loaded) => fromTranscriptItems(conversationId, loaded),
    (err: unknown) => update(conversationId, (c) => ({ ...c, status: 'error', error: errorMessage(err) })),
  );
}
onTranscriptLoad(fromTranscriptLoad);

/** Load a conversation's tool calls unless they are loaded or being loaded (when the chat opened it). */
export function ensureActivity(conversationId: string): void {
  const status = get().byConversation[conversationId]?.status ?? 'idle';
  if (status === 'ready' || status === 'loading') return;
  void loadTranscript(conversationId).catch(() => undefined); // the listener above shows the error
}

export function onRunEvent(event: EventPayload<'chat.event'>): void {
  if (event.type === 'tool.call') {
    update(event.conversationId, (c) => ({
      ...c,
      calls: upsert(c.calls, {
        toolUseId: event.toolUseId,
        name: event.name,
        input: event.input,
        ...(c.calls.some((x) => x.toolUseId === event.toolUseId)
          ? {}
          : { startedAt: new Date().toISOString() }),
      }),
    }));
  } else if (event.type === 'tool.result') {
    update(event.conversationId, (c) => ({
      ...c,
      calls: upsert(c.calls, {
        toolUseId: event.toolUseId,
        name: event.name,
        result: event.result,
        isError: event.isError,
        durationMs: event.durationMs,
        status: event.isError ? 'error' : 'done',
      }),
    }));
  } else if (event.type === 'run.finished') {
    // Calls cut off by an abort never get a result: they are no longer running.
    update(event.conversationId, (c) => ({
      ...c,
      calls: c.calls.map((call) =>
        call.status === 'running'
          ? { ...call, status: 'error', isError: true, result: call.result ?? 'Interrupted' }
          : call,
      ),
    }));
  }
}

export function setActivityFilter(filter: string | null): void {
  set({ filter });
}

export function bindActivityEvents(api: Api = getApi()): () => void {
  return api.on('chat.event', onRunEvent);
}

export function resetActivityStore(): void {
  set({ byConversation: {}, filter: null });
}

registerBinder('activity', bindActivityEvents);
