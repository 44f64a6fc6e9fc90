// A recall tool call as every face shows it: the label ("Searched past conversations for ‘restaurant’ ·
// 3 results") and the hits it expands to, derived from the stored call (its input and its result text),
// so the card reads the same live and after a reload. The result's sections are found by the boundary the
// backend gave them (electron/core/agent/data-sections.ts): quoted text cannot fake a hit.
import { plural } from './format.js';

export const RECALL_ITEM_TAG = 'past_message';
export const RECENT_ITEM_TAG = 'past_conversation';
export const RECALL_TOOLS: ReadonlySet<string> = new Set(['conversation_search', 'recent_conversations']);

export interface RecallCardHit {
  conversationId: string;
  title: string;
  /** Absent for a title match or a listed conversation. */
  messageId?: string;
  /** ISO time: the message's, or the conversation's last activity. */
  at: string;
  role?: string;
  snippet: string;
}

export interface RecallCard {
  label: string;
  hits: RecallCardHit[];
}

const ENTITY: Record<string, string> = { amp: '&', quot: '"', lt: '<', gt: '>' };

function unescape(value: string): string {
  return value.replace(/&(amp|quot|lt|gt|#\d+);/g, (_m, e: string) =>
    e.startsWith('#') ? String.fromCodePoint(Number(e.slice(1))) : ENTITY[e]!,
  );
}

function attrs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/(\w+)="([^"]*)"/g)) out[m[1]!] = unescape(m[2]!);
  return out;
}

/** The sections of a recall result, in order. */
export function recallHits(result: string): RecallCardHit[] {
  // The boundary the app's own rule sentence names (the header before it quotes the model's query, escaped).
  const boundary = new RegExp(
    `ends only at the line </(?:${RECALL_ITEM_TAG}|${RECENT_ITEM_TAG}) boundary="([0-9a-f]{16})">`,
  ).exec(result)?.[1];
  if (!boundary) return [];
  const hits: RecallCardHit[] = [];
  const open = new RegExp(`^<(${RECALL_ITEM_TAG}|${RECENT_ITEM_TAG}) (.*) boundary="${boundary}">$`, 'gm');
  for (let m = open.exec(result); m; m = open.exec(result)) {
    const close = `\n</${m[1]} boundary="${boundary}">`;
    const start = m.index + m[0].length + 1;
    const end = result.indexOf(close, start);
    if (end < 0) break;
    const a = attrs(m[2]!);
    hits.push({
      conversationId: a['conversation_id'] ?? '',
      title: a['conversation_title'] ?? a['title'] ?? '',
      ...(a['message_id'] ? { messageId: a['message_id'] } : {}),
      at: a['date'] ?? a['updated'] ?? '',
      ...(a['role'] ? { role: a['role'] } : {}),
      snippet: result.slice(start, end),
    });
    open.lastIndex = end + close.length;
  }
  return hits;
}

export function recallSearchLabel(query: string, results: number): string {
  return `Searched past conversations for ‘${query}’ · ${plural(results, 'result')}`;
}

export function recentLabel(results: number): string {
  return `Looked at ${plural(results, 'recent conversation')}`;
}

/** The card of a recall tool call, or null for any other tool. `result` null while it runs. */
export function recallCard(
  name: string,
  input: unknown,
  result: string | null,
  isError: boolean,
): RecallCard | null {
  if (!RECALL_TOOLS.has(name)) return null;
  const hits = result !== null && !isError ? recallHits(result) : [];
  if (name === 'recent_conversations') {
    return { label: result === null ? 'Looking at recent conversations…' : recentLabel(hits.length), hits };
  }
  const raw = (input as { query?: unknown } | null)?.query;
  const query = typeof raw === 'string' ? raw.replace(/\s+/g, ' ').trim().slice(0, 80) : '';
  if (result === null) return { label: `Searching past conversations for ‘${query}’…`, hits };
  if (isError) return { label: `Could not search past conversations for ‘${query}’`, hits };
  return { label: recallSearchLabel(query, hits.length), hits };
}
