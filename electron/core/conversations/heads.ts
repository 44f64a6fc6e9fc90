// A conversation's head: what everything but an open conversation needs of it (the list, the recall
// index's check that its saved documents are current, recent_conversations, the counts), derived from
// its state by one function. Heads are kept for every conversation of a folder; bodies (ConversationState)
// only for those opened. Heads are persisted in the summary cache (summary-cache.ts), so a start reads
// them instead of replaying every file.
import type { ConversationSummary } from '../../../shared/channels/conversations.js';
import type { ConversationState } from './state.js';

export const UNTITLED = 'New conversation';

export interface ConversationHead {
  id: string;
  /** The meta record's rev (a rewritten file gets a new one). */
  rev?: string;
  /** The title as set (empty: never named). */
  title: string;
  createdAt: string;
  updatedAt: string;
  memory: boolean;
  noSearch: boolean;
  /** Every message record (backfill and tool results included): with the last one's id, what tells a change. */
  messages: number;
  lastMessageId: string;
  /** User and assistant messages: what the list shows. */
  shown: number;
  /** The first line of the person's first message (recent_conversations), at most FIRST_LINE_CHARS. */
  firstLine: string;
}

export const FIRST_LINE_CHARS = 200;

function firstLineOf(state: ConversationState): string {
  const first = state.messages.find((m) => m.kind === 'user');
  const text = first?.text?.trim() ? first.text : '';
  const line = text.trim().split('\n')[0]!.replace(/\s+/g, ' ');
  return line.length > FIRST_LINE_CHARS ? `${line.slice(0, FIRST_LINE_CHARS - 1)}…` : line;
}

// A head is asked for after every change of a run (the list is re-sent): kept until the state changes,
// so that is one lookup, not a pass over the messages.
const known = new WeakMap<ConversationState, { key: string; head: ConversationHead }>();

export function headOf(state: ConversationState): ConversationHead {
  // Messages are appended, or cut at a point and then appended: their count and last id tell a change.
  const m = state.meta;
  const key = `${m.rev ?? ''}|${state.messages.length}|${state.messages.at(-1)?.id ?? ''}|${state.updatedAt}|${state.title}|${m.memory}|${m.noSearch === true}`;
  const cached = known.get(state);
  if (cached?.key === key) return cached.head;
  const head: ConversationHead = {
    id: m.id,
    ...(m.rev !== undefined ? { rev: m.rev } : {}),
    title: state.title,
    createdAt: m.createdAt,
    updatedAt: state.updatedAt,
    memory: m.memory,
    noSearch: m.noSearch === true,
    messages: state.messages.length,
    lastMessageId: state.messages.at(-1)?.id ?? '',
    shown: state.messages.filter((x) => x.kind === 'user' || x.kind === 'assistant').length,
    firstLine: firstLineOf(state),
  };
  known.set(state, { key, head });
  return head;
}

const summaries = new WeakMap<ConversationHead, ConversationSummary>();

export function summaryOf(head: ConversationHead): ConversationSummary {
  let summary = summaries.get(head);
  if (!summary) {
    summary = {
      id: head.id,
      title: head.title || UNTITLED,
      createdAt: head.createdAt,
      updatedAt: head.updatedAt,
      memory: head.memory,
      messageCount: head.shown,
      ...(head.noSearch ? { noSearch: true as const } : {}),
    };
    summaries.set(head, summary);
  }
  return summary;
}

const isString = (x: unknown): x is string => typeof x === 'string';
const isCount = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;

/** A head read from the cache file, checked field by field (the file may be hand-edited): or null. */
export function parseHead(id: string, x: unknown): ConversationHead | null {
  if (typeof x !== 'object' || x === null) return null;
  const h = x as Record<string, unknown>;
  const ok =
    h.id === id &&
    (h.rev === undefined || isString(h.rev)) &&
    isString(h.title) &&
    isString(h.createdAt) &&
    isString(h.updatedAt) &&
    typeof h.memory === 'boolean' &&
    typeof h.noSearch === 'boolean' &&
    isCount(h.messages) &&
    isString(h.lastMessageId) &&
    isCount(h.shown) &&
    isString(h.firstLine);
  // The parsed object itself (a copy of each of a thousand heads was a good part of a start's time).
  return ok ? (h as unknown as ConversationHead) : null;
}
