// The Activity tab's slice: every tool call of a conversation, the tool items of the shared projection
// (shared/projection) from its transcript and from the live `chat.event` stream, as the chat has them.
// Keyed by conversation so switching back and forth keeps what was seen.
import { create } from 'zustand';
import type { EventPayload } from '../../shared/contract';
import type { TranscriptItem } from '../../shared/channels/conversations';
import type { ViewItem, ViewItemOf } from '../../shared/projection/items';
import { applyEvents } from '../../shared/projection/project';
import { errorMessage } from '../lib/format';
import { onRunEvents } from './bridge';
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

type ToolItem = ViewItemOf<'tool'>;

/** A tool call of the shared projection as the Activity tab lists it. */
function callOf(item: ToolItem, interrupted: boolean): ToolCall {
  const cut = interrupted && item.result === null;
  return {
    toolUseId: item.toolUseId,
    name: item.name,
    input: item.input,
    result: cut ? 'Interrupted' : item.result,
    isError: cut || item.isError,
    durationMs: item.durationMs,
    startedAt: item.at,
    status: cut ? 'error' : item.result === null ? 'running' : item.isError ? 'error' : 'done',
  };
}

const tools = new Map<string, { items: ViewItem[]; interrupted: Set<string> }>();

/** Recomputes a conversation's calls from its projected tool items. */
function publish(conversationId: string, status?: ConversationActivity['status']): void {
  const known = tools.get(conversationId);
  const calls = (known?.items ?? [])
    .filter((i): i is ToolItem => i.kind === 'tool')
    .map((i) => callOf(i, known!.interrupted.has(i.toolUseId)));
  update(conversationId, (c) => ({ ...c, calls, ...(status ? { status, error: null } : {}) }));
}

export function callsFromTranscript(items: readonly TranscriptItem[]): ToolCall[] {
  return items.filter((i): i is ToolItem => i.kind === 'tool').map((i) => callOf(i, false));
}

/** A conversation's tool calls from its transcript, keeping live calls not yet in it. */
function fromTranscriptItems(conversationId: string, items: readonly TranscriptItem[]): void {
  const known = tools.get(conversationId);
  // Live calls the transcript has not persisted yet (or not with their result) stay as they are.
  const fromTranscript: ViewItem[] = items.filter((i) => i.kind === 'tool');
  const ids = new Set(fromTranscript.map((i) => i.id));
  const merged = fromTranscript.map((i) => {
    const live = known?.items.find((l) => l.id === i.id);
    return i.kind === 'tool' && i.result === null && live?.kind === 'tool' && live.result !== null ? live : i;
  });
  for (const live of known?.items ?? []) if (!ids.has(live.id)) merged.push(live);
  tools.set(conversationId, { items: merged, interrupted: known?.interrupted ?? new Set() });
  publish(conversationId, 'ready');
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

/** Run events, in order: the tool calls they make and complete (through the shared projection). */
function applyRunEventsToActivity(events: readonly EventPayload<'chat.event'>[]): void {
  const touched = new Set<string>();
  for (const event of events) {
    if (event.type !== 'tool.call' && event.type !== 'tool.result' && event.type !== 'run.finished') continue;
    const known = tools.get(event.conversationId) ?? { items: [], interrupted: new Set<string>() };
    if (event.type === 'run.finished') {
      // Calls cut off by an abort never get a result: they are no longer running.
      for (const i of known.items)
        if (i.kind === 'tool' && i.result === null) known.interrupted.add(i.toolUseId);
    }
    tools.set(event.conversationId, { ...known, items: applyEvents(known.items, [event]) });
    touched.add(event.conversationId);
  }
  for (const id of touched) publish(id);
}

onRunEvents('activity', applyRunEventsToActivity);

export function setActivityFilter(filter: string | null): void {
  set({ filter });
}

export function resetActivityStore(): void {
  tools.clear();
  set({ byConversation: {}, filter: null });
}
