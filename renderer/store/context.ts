// The Context tab's slice: the current context's size and parts (context.get / context.changed) per
// conversation, and "Compact now". Refreshed after every run, because a run changes the context.
import { create } from 'zustand';
import type { Api, EventPayload } from '../../shared/contract';
import type { ContextUsage } from '../../shared/channels/context';
import { getApi } from '../api';
import { onRunEvents, registerBinder } from './bridge';
import { errorMessage } from '../lib/format';

export interface ConversationContext {
  usage: ContextUsage | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  /** The run id of a compaction started from the tab, until its run finishes. */
  compactRunId: string | null;
  compactError: string | null;
}

export interface ContextState {
  byConversation: Record<string, ConversationContext>;
  /** Conversations with a run in progress (Compact now waits for it). */
  running: Record<string, boolean>;
}

export const useContextStore = create<ContextState>()(() => ({ byConversation: {}, running: {} }));

const set = useContextStore.setState;
const get = useContextStore.getState;

const empty: ConversationContext = {
  usage: null,
  status: 'idle',
  error: null,
  compactRunId: null,
  compactError: null,
};

function update(conversationId: string, change: Partial<ConversationContext>): void {
  const current = get().byConversation[conversationId] ?? empty;
  set({ byConversation: { ...get().byConversation, [conversationId]: { ...current, ...change } } });
}

const seqs = new Map<string, number>();

export async function loadContext(conversationId: string): Promise<void> {
  const seq = (seqs.get(conversationId) ?? 0) + 1;
  seqs.set(conversationId, seq);
  const current = get().byConversation[conversationId];
  if (!current?.usage) update(conversationId, { status: 'loading', error: null });
  try {
    const usage = await getApi()['context.get']({ conversationId });
    if (seqs.get(conversationId) !== seq) return;
    update(conversationId, { usage, status: 'ready', error: null });
  } catch (err) {
    if (seqs.get(conversationId) === seq)
      update(conversationId, { status: 'error', error: errorMessage(err) });
  }
}

export async function compactNow(conversationId: string): Promise<void> {
  update(conversationId, { compactError: null });
  try {
    const { runId } = await getApi()['context.compact']({ conversationId });
    update(conversationId, { compactRunId: runId });
  } catch (err) {
    update(conversationId, { compactRunId: null, compactError: errorMessage(err) });
  }
}

export function onContextChanged(usage: EventPayload<'context.changed'>): void {
  seqs.set(usage.conversationId, (seqs.get(usage.conversationId) ?? 0) + 1);
  update(usage.conversationId, { usage, status: 'ready', error: null });
}

function onRunEvent(event: EventPayload<'chat.event'>): void {
  const id = event.conversationId;
  if (event.type === 'run.started' || (event.type !== 'run.finished' && !get().running[id])) {
    if (!get().running[id]) set({ running: { ...get().running, [id]: true } });
  }
  // The Context tab's history changed: the card event is the one event of a clearing or a compaction.
  if (event.type === 'card' && (event.card.kind === 'compacted' || event.card.kind === 'cleared'))
    void loadContext(id);
  if (event.type === 'run.finished') {
    set({ running: { ...get().running, [id]: false } });
    const current = get().byConversation[id];
    if (current?.compactRunId === event.runId) update(id, { compactRunId: null });
    void loadContext(id);
  }
}

export function bindContextEvents(api: Api = getApi()): () => void {
  return api.on('context.changed', onContextChanged);
}

export function resetContextStore(): void {
  seqs.clear();
  set({ byConversation: {}, running: {} });
}

registerBinder('context', bindContextEvents);
onRunEvents('context', (batch) => batch.forEach(onRunEvent));
