// What the conversation list shows of a conversation: its summary, kept until the conversation changes,
// its title and the list's order. Apart from the store so the list, search and the CLI share it.
import type { ConversationSummary } from '../../../shared/channels/conversations.js';
import type { ConversationState } from './state.js';

export const UNTITLED = 'New conversation';

/** Newest first, for ISO timestamps, which sort as plain strings (localeCompare would collate, for nothing). */
export function byNewest(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

export function titleOf(state: ConversationState): string {
  return state.title || UNTITLED;
}

// The list is summarized after every append of a run (conversations.changed): each summary is kept until
// its conversation changes, so that costs one lookup per conversation, not a pass over all their messages.
const summaries = new WeakMap<ConversationState, { key: string; summary: ConversationSummary }>();

export function summarize(state: ConversationState): ConversationSummary {
  // Messages are appended, or cut at a point and then appended: their count and last id tell a change.
  const key = `${state.messages.length}|${state.messages.at(-1)?.id ?? ''}|${state.updatedAt}|${titleOf(state)}|${state.meta.noSearch === true}`;
  const known = summaries.get(state);
  if (known?.key === key) return known.summary;
  const summary: ConversationSummary = {
    id: state.meta.id,
    title: titleOf(state),
    createdAt: state.meta.createdAt,
    updatedAt: state.updatedAt,
    memory: state.meta.memory,
    messageCount: state.messages.filter((m) => m.kind === 'user' || m.kind === 'assistant').length,
    ...(state.meta.noSearch === true ? { noSearch: true as const } : {}),
  };
  summaries.set(state, { key, summary });
  return summary;
}
