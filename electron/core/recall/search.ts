// The query side of the recall index: the best matches over its shards, each checked against the live
// conversation before it is shown. The index can be stale or half-updated (a batch not yet run, a build
// under way); checking every hit against the store makes that a miss at worst, never a reveal of
// something deleted or forgotten.
import type MiniSearch from 'minisearch';
import type { ConversationHead } from '../conversations/heads.js';
import type { MessageRecord } from '../conversations/records.js';
import type { ConversationState } from '../conversations/state.js';
import { hasPhrases, matchRanges, messageText, parseQuery, snippet } from './text.js';
import { type Candidate, type Stored, topMatches } from './top.js';

/** What recall reads of the conversations (the conversation store). */
export interface RecallSource {
  init(): Promise<void>;
  /** Every conversation's head: no body is read to tell whether saved documents are current. */
  heads(): Iterable<ConversationHead>;
  has(id: string): boolean;
  /**
   * A body, read without blocking if not yet open (a hit being checked, a conversation's documents
   * rebuilt): a search must not hold the event loop while it reads a conversation nobody opened.
   */
  open(id: string): Promise<ConversationState>;
  /** Its live text was redacted in place here: it may differ from its file, whatever its head says. */
  redactedInPlace?(id: string): boolean;
  /**
   * A mark that changes whenever a forget may have changed its live records in place. Without it, every
   * change diffs all of a conversation's messages (with it, appends are taken one by one).
   */
  redactions?(id: string): number;
  onChange(listener: (id: string) => void): () => void;
}

export interface RecallHit {
  conversationId: string;
  title: string;
  /** Absent for a match in the title. */
  messageId?: string;
  role?: 'user' | 'assistant';
  at: string;
  snippet: string;
  ranges: [number, number][];
}

export interface RecallQuery {
  limit?: number;
  /** ISO times: only messages at or after / before. */
  after?: string;
  before?: string;
  /** The conversation asking (the model's own), never searched. */
  exclude?: string;
  /** Title matches too (the sidebar), not only messages. */
  titles?: boolean;
  /** The last word also as a prefix (typing in the sidebar). */
  prefix?: boolean;
  /** Longest snippet (SNIPPET_CHARS by default). */
  snippetChars?: number;
}

/**
 * The shortest last word that is also taken as a prefix (typing in the sidebar). Two letters matched a
 * sixteenth of a big vocabulary (60-70 ms of work per keystroke over a thousand conversations); a
 * two-letter word still matches as a whole word.
 */
export const PREFIX_MIN = 3;

export function searchable(s: ConversationState | ConversationHead): boolean {
  return 'meta' in s ? s.meta.memory && s.meta.noSearch !== true : s.memory && !s.noSearch;
}

export async function searchShards<T>(
  shards: readonly MiniSearch<T>[],
  source: RecallSource,
  query: string,
  options: RecallQuery = {},
): Promise<{ hits: RecallHit[]; more: boolean }> {
  const { terms, phrases } = parseQuery(query);
  const limit = options.limit ?? 10;
  if (terms.length === 0) return { hits: [], more: false };
  const accept = (r: Stored): boolean =>
    r.c !== options.exclude &&
    (options.titles === true || r.k !== 't') &&
    (options.after === undefined || r.at >= options.after) &&
    (options.before === undefined || r.at < options.before);
  const prefix = (t: string, i: number, all: readonly string[]): boolean =>
    options.prefix === true && i === all.length - 1 && t.length >= PREFIX_MIN;
  const q = terms.join(' ');
  // A few more candidates than asked for: a candidate the live conversation no longer holds (a stale
  // index) is skipped; when too many were, look further.
  for (let n = limit * 2 + 16; ; n *= 4) {
    let found = topMatches(shards, q, { combineWith: 'AND', prefix, accept, n });
    if (found.total === 0 && terms.length > 1 && phrases.length === 0)
      found = topMatches(shards, q, { combineWith: 'OR', prefix, accept, n });
    const hits: RecallHit[] = [];
    let i = 0;
    for (; i < found.top.length && hits.length < limit; i++) {
      const hit = await verify(source, found.top[i]!, terms, phrases, options);
      if (hit) hits.push(hit);
    }
    if (hits.length >= limit || found.total <= n) return { hits, more: i < found.total };
  }
}

/** The hit as the live conversation holds it now, or null when it no longer does. */
async function verify(
  source: RecallSource,
  r: Candidate,
  terms: string[],
  phrases: string[][],
  options: RecallQuery,
): Promise<RecallHit | null> {
  const c = r.c;
  if (!source.has(c)) return null;
  let state: ConversationState;
  try {
    state = await source.open(c);
  } catch {
    return null; // deleted meanwhile, or its file cannot be read now: a miss, never an error
  }
  // Deleted while its body was read: its head went first.
  if (!source.has(c) || !searchable(state)) return null;
  const id = String(r.id);
  let text: string | null;
  let message: MessageRecord | undefined;
  if (r.k === 't') text = state.title || null;
  else {
    message = messages(state).get(id.slice(c.length + 1));
    text = message ? messageText(message) : null;
  }
  if (!text || !hasPhrases(text, phrases)) return null;
  const ranges = matchRanges(text, terms, options.prefix === true && terms.at(-1)!.length >= PREFIX_MIN);
  if (ranges.length === 0) return null;
  const snip = snippet(text, ranges, options.snippetChars);
  return {
    conversationId: c,
    title: state.title,
    ...(message ? { messageId: message.id, role: message.role } : {}),
    at: message?.at ?? state.meta.createdAt,
    snippet: snip.text,
    ranges: snip.ranges,
  };
}

/** A conversation's messages by id, kept while it has as many messages as when they were listed. */
const byMessage = new WeakMap<ConversationState, { n: number; map: Map<string, MessageRecord> }>();

function messages(state: ConversationState): Map<string, MessageRecord> {
  const known = byMessage.get(state);
  if (known && known.n === state.messages.length) return known.map;
  const map = new Map(state.messages.map((m) => [m.id, m]));
  byMessage.set(state, { n: state.messages.length, map });
  return map;
}
