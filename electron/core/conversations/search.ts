// Search across conversations by title and content (case-insensitive, literal), newest first, with a
// snippet around the first match and the message it is in.
import type { ConversationState } from './state.js';
import { byNewest, titleOf } from './store.js';

const SNIPPET = 60;
const LIMIT = 50;

function snippet(text: string, at: number, length: number): string {
  const start = Math.max(0, at - SNIPPET);
  const end = Math.min(text.length, at + length + SNIPPET);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ')}${end < text.length ? '…' : ''}`;
}

export function searchConversations(states: Iterable<ConversationState>, query: string) {
  const needle = query.toLowerCase();
  const sorted = [...states].sort((a, b) => byNewest(a.updatedAt, b.updatedAt));
  const results: { id: string; title: string; snippet: string; messageId?: string }[] = [];
  for (const state of sorted) {
    if (results.length >= LIMIT) break;
    const title = titleOf(state);
    const inTitle = title.toLowerCase().indexOf(needle);
    let hit: { snippet: string; messageId?: string } | null = inTitle >= 0 ? { snippet: title } : null;
    for (const m of state.messages) {
      if (hit?.messageId || (m.kind !== 'user' && m.kind !== 'assistant')) continue;
      const text =
        m.kind === 'user' ? (m.text ?? '') : m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      const at = text.toLowerCase().indexOf(needle);
      if (at >= 0) {
        hit = { snippet: snippet(text, at, needle.length), messageId: m.id };
        break;
      }
    }
    if (hit) results.push({ id: state.meta.id, title, ...hit });
  }
  return results;
}
