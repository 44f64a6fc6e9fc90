// What the conversation list shows of a conversation: its summary (from its head, heads.ts), its title
// and the list's order. Apart from the store so the list, search and the CLI share it.
import type { ConversationSummary } from '../../../shared/channels/conversations.js';
import { UNTITLED, headOf, summaryOf } from './heads.js';
import type { ConversationState } from './state.js';

export { UNTITLED };

/** Newest first, for ISO timestamps, which sort as plain strings (localeCompare would collate, for nothing). */
export function byNewest(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

export function titleOf(state: ConversationState): string {
  return state.title || UNTITLED;
}

/** The list's summary of an open conversation (one lookup while it does not change: heads.ts). */
export function summarize(state: ConversationState): ConversationSummary {
  return summaryOf(headOf(state));
}
