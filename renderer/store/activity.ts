// The Activity tab's slice: every tool call of a conversation, the tool items of the shared projection
// (shared/projection) from its transcript and from the live `chat.event` stream, as the chat has them.
// Keyed by conversation so switching back and forth keeps what was seen.
import { create } from 'zustand';
import type { EventPayload } from '../../shared/contract';
import type { TranscriptItem } from '../../shared/channels/conversations';
import type { ViewItemOf } from '../../shared/projection/items';
import { getApi } from '../api';
import { errorMessage } from '../lib/format';
import { onRunEvents } from './bridge';
import { applyRunEvents, type ChatItem, type ChatModel } from './chat-items';
import { type LoadedTranscript, loadTranscript, onTranscriptLoad } from './transcripts';

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

/**
 * A conversation's projected items and runs, followed by seq exactly as the chat follows its own
 * (chat-items.ts applyRunEvents): from the seq its transcript reflects, each event applied once.
 */
const tools = new Map<string, { model: ChatModel; interrupted: Set<string> }>();

/** Recomputes a conversation's calls from its projected tool items. */
function publish(conversationId: string, status?: ConversationActivity['status']): void {
  const known = tools.get(conversationId);
  const calls = (known?.model.items ?? [])
    .filter((i): i is ToolItem => i.kind === 'tool')
    .map((i) => callOf(i, known!.interrupted.has(i.toolUseId)));
  update(conversationId, (c) => ({ ...c, calls, ...(status ? { status, error: null } : {}) }));
}

export function callsFromTranscript(items: readonly TranscriptItem[]): ToolCall[] {
  return items.filter((i): i is ToolItem => i.kind === 'tool').map((i) => callOf(i, false));
}

/** A conversation's tool calls from its transcript; a run still streaming is followed after its seq. */
function fromTranscript(conversationId: string, loaded: LoadedTranscript): void {
  const runs: ChatModel['runs'] = {};
  let activeRunId: string | null = null;
  for (const run of loaded.runs) {
    runs[run.runId] = { ...run, conversationId, lastSeq: run.seq, userMessageId: null };
    if (run.status === 'running') activeRunId = run.runId;
  }
  const items = loaded.items.filter((i) => i.kind === 'tool') as ChatItem[];
  tools.set(conversationId, { model: { items, runs, activeRunId }, interrupted: new Set() });
  publish(conversationId, 'ready');
  // What the run emitted while the transcript was on its way.
  if (activeRunId) void attach(conversationId, activeRunId, runs[activeRunId]!.lastSeq);
}

/** Take a conversation's tool calls from a transcript being loaded (by the chat, say). */
function fromTranscriptLoad(conversationId: string, loading: Promise<LoadedTranscript>): void {
  update(conversationId, (c) => ({ ...c, status: c.status === 'ready' ? 'ready' : 'loading', error: null }));
  loading.then(
    (loaded) => fromTranscript(conversationId, loaded),
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

async function attach(conversationId: string, runId: string, afterSeq: number): Promise<void> {
  try {
    const res = await getApi()['chat.attach']({ runId, afterSeq });
    if (res.events.length) applyRunEventsToActivity(res.events);
  } catch {
    // The run is gone: the transcript's next load has what it stored.
  }
}

/**
 * Run events, in order, for the conversations whose transcript is loaded (the others' calls come with
 * their transcript, and the seq it reflects, when the tab shows them).
 */
function applyRunEventsToActivity(events: readonly EventPayload<'chat.event'>[]): void {
  const byConversation = new Map<string, EventPayload<'chat.event'>[]>();
  for (const event of events) {
    if (get().byConversation[event.conversationId]?.status !== 'ready') continue;
    byConversation.set(event.conversationId, [...(byConversation.get(event.conversationId) ?? []), event]);
  }
  for (const [conversationId, batch] of byConversation) {
    const known = tools.get(conversationId);
    if (!known) continue;
    const result = applyRunEvents(known.model, batch);
    const model = { ...result.model, items: result.model.items.filter((i) => i.kind === 'tool') };
    for (const event of batch) {
      // Calls cut off by an abort never get a result: they are no longer running.
      if (event.type !== 'run.finished' || model.runs[event.runId]?.status === 'running') continue;
      for (const i of model.items)
        if (i.kind === 'tool' && i.result === null) known.interrupted.add(i.toolUseId);
    }
    tools.set(conversationId, { model, interrupted: known.interrupted });
    if (result.changed) publish(conversationId);
    for (const gap of result.gaps) void attach(conversationId, gap.runId, gap.afterSeq);
  }
}

onRunEvents('activity', applyRunEventsToActivity);

export function setActivityFilter(filter: string | null): void {
  set({ filter });
}

export function resetActivityStore(): void {
  tools.clear();
  set({ byConversation: {}, filter: null });
}
