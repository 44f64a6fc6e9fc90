// The Activity tab's slice: every tool call of a conversation, the tool items of the shared projection
// (shared/projection) from its transcript and from the live `chat.event` stream, as the chat has them.
// Paged like the chat, over the same channels and the same merge step (shared/projection/page-merge.ts):
// the last page first (usually the one the chat opened with), older pages as the tab's reader asks for
// them. Keyed by conversation so switching back and forth keeps what was seen.
import { create } from 'zustand';
import type { EventPayload } from '../../shared/contract';
import type { TranscriptItem } from '../../shared/channels/conversations';
import type { ViewItemOf } from '../../shared/projection/items';
import { mergePage } from '../../shared/projection/page-merge';
import { getApi } from '../api';
import { errorMessage } from '../lib/format';
import { onRunEvents } from './bridge';
import { applyRunEvents, type ChatItem, type ChatModel } from './chat-items';
import { type LoadedTranscript, loadPage, loadTranscript, onTranscriptLoad, pageSize } from './transcripts';

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
  /** Earlier turns are not loaded yet (loadEarlierActivity fetches the page before). */
  hasEarlier: boolean;
  /** The page before is being fetched. */
  paging: boolean;
}

export interface ActivityState {
  byConversation: Record<string, ConversationActivity>;
  /** The tool name the list is filtered by; null shows all. */
  filter: string | null;
}

export const useActivityStore = create<ActivityState>()(() => ({ byConversation: {}, filter: null }));

const set = useActivityStore.setState;
const get = useActivityStore.getState;

const empty: ConversationActivity = {
  calls: [],
  status: 'idle',
  error: null,
  hasEarlier: false,
  paging: false,
};

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
 * A conversation's loaded pages as projected items (all kinds: a page is merged in by item id), the cursor
 * of the page before them, and its runs, followed by seq exactly as the chat follows its own
 * (chat-items.ts applyRunEvents): from the seq its transcript reflects, each event applied once.
 */
interface Known {
  model: ChatModel;
  older: string | null;
  interrupted: Set<string>;
}
const tools = new Map<string, Known>();

/** Recomputes a conversation's calls from its projected tool items. */
function publish(conversationId: string, status?: ConversationActivity['status']): void {
  const known = tools.get(conversationId);
  const calls = (known?.model.items ?? [])
    .filter((i): i is ToolItem => i.kind === 'tool')
    .map((i) => callOf(i, known!.interrupted.has(i.toolUseId)));
  const hasEarlier = (known?.older ?? null) !== null;
  update(conversationId, (c) => ({ ...c, calls, hasEarlier, ...(status ? { status, error: null } : {}) }));
}

export function callsFromTranscript(items: readonly TranscriptItem[]): ToolCall[] {
  return items.filter((i): i is ToolItem => i.kind === 'tool').map((i) => callOf(i, false));
}

/**
 * A conversation's tool calls from its last page (`older`: the cursor before `items`); a run still
 * streaming is followed after the seq the page reflects.
 */
function fromTranscript(
  conversationId: string,
  loaded: { items: readonly ChatItem[] } & Pick<LoadedTranscript, 'older' | 'runs'>,
  interrupted = new Set<string>(),
): void {
  const runs: ChatModel['runs'] = {};
  let activeRunId: string | null = null;
  for (const run of loaded.runs) {
    runs[run.runId] = { ...run, conversationId, lastSeq: run.seq, userMessageId: null };
    if (run.status === 'running') activeRunId = run.runId;
  }
  const model = { items: loaded.items.slice(), runs, activeRunId };
  tools.set(conversationId, { model, older: loaded.older, interrupted });
  publish(conversationId, 'ready');
  // What the run emitted while the transcript was on its way.
  if (activeRunId) void attach(conversationId, activeRunId, runs[activeRunId]!.lastSeq);
}

/**
 * Take a conversation's tool calls from its last page being loaded (by the chat, say). A conversation
 * already shown keeps the earlier pages its reader loaded unless this page's first item is not in them.
 */
function fromTranscriptLoad(conversationId: string, loading: Promise<LoadedTranscript>): void {
  update(conversationId, (c) => ({ ...c, status: c.status === 'ready' ? 'ready' : 'loading', error: null }));
  loading.then(
    (loaded) => {
      const known = tools.get(conversationId);
      if (!known || loaded.older === null) return fromTranscript(conversationId, loaded);
      // The earlier pages already here, then this one (the merge replaces what it covers).
      const kept = mergePage({ ...known.model, older: known.older, newer: null }, 'newer', '', {
        ...loaded,
        newer: null,
      });
      if (kept.older === loaded.older) return fromTranscript(conversationId, loaded);
      fromTranscript(conversationId, { ...loaded, items: kept.items, older: kept.older }, known.interrupted);
    },
    (err: unknown) => update(conversationId, (c) => ({ ...c, status: 'error', error: errorMessage(err) })),
  );
}
onTranscriptLoad(fromTranscriptLoad);

/** Load a conversation's last page unless it is loaded or being loaded (when the chat opened it). */
export function ensureActivity(conversationId: string): void {
  const status = get().byConversation[conversationId]?.status ?? 'idle';
  if (status === 'ready' || status === 'loading') return;
  // The listener above takes it (and shows an error).
  void loadTranscript(conversationId, { limit: pageSize() }).catch(() => undefined);
}

/** Fetch the page before the loaded ones (the reader scrolled to the oldest call shown). */
export async function loadEarlierActivity(conversationId: string): Promise<void> {
  const known = tools.get(conversationId);
  const cursor = known?.older ?? null;
  if (!known || cursor === null || get().byConversation[conversationId]?.paging) return;
  update(conversationId, (c) => ({ ...c, paging: true }));
  let page: LoadedTranscript;
  try {
    page = await loadPage(conversationId, { before: cursor }, pageSize());
  } catch (err) {
    // Said once; reopening the conversation starts afresh.
    known.older = null;
    update(conversationId, (c) => ({ ...c, paging: false, hasEarlier: false, error: errorMessage(err) }));
    return;
  }
  update(conversationId, (c) => ({ ...c, paging: false }));
  const now = tools.get(conversationId);
  // Reset meanwhile (a switch of space), or reloaded from another cursor: this page is not theirs.
  if (now !== known || now.older !== cursor) return;
  // A turn joined up to the end since (a late tool result): the page is the whole window at the end, and
  // the runs are followed again from the seq it reflects.
  if (page.newer === null) return fromTranscript(conversationId, page, now.interrupted);
  const merged = mergePage({ ...now.model, older: now.older, newer: null }, 'older', cursor, page);
  if (merged.newer !== null) {
    // It replaced the window but stops short of the end: start again from the last page.
    tools.delete(conversationId);
    update(conversationId, () => empty);
    return ensureActivity(conversationId);
  }
  tools.set(conversationId, { ...now, model: { ...now.model, items: merged.items }, older: merged.older });
  publish(conversationId);
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
    const { model, ...result } = applyRunEvents(known.model, batch);
    for (const event of batch) {
      // Calls cut off by an abort never get a result: they are no longer running.
      if (event.type !== 'run.finished' || model.runs[event.runId]?.status === 'running') continue;
      for (const i of model.items)
        if (i.kind === 'tool' && i.result === null) known.interrupted.add(i.toolUseId);
    }
    tools.set(conversationId, { ...known, model });
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
