// The query side of the recall index: the best matches over its shards, each checked against the live
// conversation before it is shown. The index can be stale or half-updated (a batch not yet run, a build
// under way); checking every hit against the store makes that a miss at worst, never a reveal of
// something deleted or forgotten.
import type MiniSearch from 'minisearch';
import type { ConversationHead } from '../conversations/heads.js';
import type { MessageRecord } from '../conversations/records.js';
import type { ConversationState } from '../conversations/state.js';
import {
  type ParsedQuery,
  matchRanges,
  mergeRanges,
  messageText,
  parseQuery,
  phraseRanges,
  snippet,
} from './text.js';
import { type Stored, topMatches } from './top.js';

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

/**
 * The index's fields, in MiniSearch's order (a field's id is its place): the words, folded and stemmed,
 * which every query ranks by; and the stop pairs (text.ts's stopPairs), which only find a quoted phrase
 * made of stop words alone. A second field keeps the words' lengths and scores as they were.
 */
export const FIELDS = ['text', 'pairs'] as const;
const TEXT = FIELDS.indexOf('text');
const PAIRS = FIELDS.indexOf('pairs');

/**
 * The most messages looked at, newest conversations first, for quoted stop words with no pair (`"the"`):
 * no index term finds them. Such a word is in nearly every message, so the newest hits come within the
 * first few; this only bounds a history that (in another language) never has it.
 */
export const SCAN_MESSAGES = 2_000;

export async function searchShards<T>(
  shards: readonly MiniSearch<T>[],
  source: RecallSource,
  query: string,
  options: RecallQuery = {},
): Promise<{ hits: RecallHit[]; more: boolean }> {
  const parsed = parseQuery(query);
  const { terms, phrases, pairs } = parsed;
  const limit = options.limit ?? 10;
  if (terms.length === 0 && pairs.length === 0)
    return phrases.length > 0 ? scanNewest(source, parsed, options, limit) : { hits: [], more: false };
  const accept = (r: Stored): boolean =>
    r.c !== options.exclude &&
    (options.titles === true || r.k !== 't') &&
    (options.after === undefined || r.at >= options.after) &&
    (options.before === undefined || r.at < options.before);
  // The words find the candidates; a phrase of stop words alone is found by its pairs.
  const field = terms.length > 0 ? TEXT : PAIRS;
  const prefix = (t: string, i: number, all: readonly string[]): boolean =>
    field === TEXT && options.prefix === true && i === all.length - 1 && t.length >= PREFIX_MIN;
  const q = (field === TEXT ? terms : pairs).join(' ');
  // A few more candidates than asked for: a candidate the live conversation no longer holds (a stale
  // index), or that lacks a quoted phrase, is skipped; when too many were, look further.
  // Candidates the text did not bear out (a quoted form its stem's other forms outnumber): not read again
  // when the next round looks further.
  const rejected = new Set<string>();
  for (let n = limit * 2 + 16; ; n *= 4) {
    let found = topMatches(shards, q, { combineWith: 'AND', prefix, accept, n, field });
    if (found.total === 0 && terms.length > 1 && phrases.length === 0)
      found = topMatches(shards, q, { combineWith: 'OR', prefix, accept, n, field });
    const hits: RecallHit[] = [];
    let i = 0;
    for (; i < found.top.length && hits.length < limit; i++) {
      const r = found.top[i]!;
      if (rejected.has(r.id)) continue;
      const state = await openLive(source, r.c);
      const hit =
        state && hitIn(state, r.k === 't' ? null : String(r.id).slice(r.c.length + 1), parsed, options);
      if (hit) hits.push(hit);
      else rejected.add(r.id);
    }
    if (hits.length >= limit || found.total <= n) return { hits, more: i < found.total };
  }
}

/** The conversation as the store holds it now, or null when it is gone or not to be searched. */
async function openLive(source: RecallSource, c: string): Promise<ConversationState | null> {
  if (!source.has(c)) return null;
  let state: ConversationState;
  try {
    state = await source.open(c);
  } catch {
    return null; // deleted meanwhile, or its file cannot be read now: a miss, never an error
  }
  // Deleted while its body was read: its head went first.
  return source.has(c) && searchable(state) ? state : null;
}

/** A message (or with null, the title) as a hit, or null when its live text does not match the query. */
function hitIn(
  state: ConversationState,
  messageId: string | null,
  parsed: ParsedQuery,
  options: RecallQuery,
): RecallHit | null {
  let text: string | null;
  let message: MessageRecord | undefined;
  if (messageId === null) text = state.title || null;
  else {
    message = messages(state).get(messageId);
    text = message ? messageText(message) : null;
  }
  if (!text) return null;
  const quoted = phraseRanges(text, parsed.phrases);
  if (!quoted) return null;
  const last = parsed.loose.at(-1);
  const prefixLast = options.prefix === true && last !== undefined && last === parsed.terms.at(-1);
  const ranges = mergeRanges([
    ...matchRanges(text, parsed.loose, prefixLast && last.length >= PREFIX_MIN),
    ...quoted,
  ]);
  if (ranges.length === 0) return null;
  const snip = snippet(text, ranges, options.snippetChars);
  return {
    conversationId: state.meta.id,
    title: state.title,
    ...(message ? { messageId: message.id, role: message.role } : {}),
    at: message?.at ?? state.meta.createdAt,
    snippet: snip.text,
    ranges: snip.ranges,
  };
}

/**
 * Quoted stop words that no index term finds: the live messages themselves, newest conversations first,
 * at most SCAN_MESSAGES of them; the hits newest first.
 */
async function scanNewest(
  source: RecallSource,
  parsed: ParsedQuery,
  options: RecallQuery,
  limit: number,
): Promise<{ hits: RecallHit[]; more: boolean }> {
  const heads = [...source.heads()]
    .filter((h) => h.id !== options.exclude && searchable(h))
    .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  const within = (at: string): boolean =>
    (options.after === undefined || at >= options.after) &&
    (options.before === undefined || at < options.before);
  const hits: RecallHit[] = [];
  let budget = SCAN_MESSAGES;
  let more = false;
  for (const head of heads) {
    const state = await openLive(source, head.id);
    if (!state) continue;
    const ids: (string | null)[] = state.messages.filter((m) => within(m.at)).map((m) => m.id);
    if (options.titles === true && within(state.meta.createdAt)) ids.push(null);
    for (const id of ids.reverse()) {
      if (hits.length >= limit || budget-- <= 0) {
        more = true;
        break;
      }
      const hit = hitIn(state, id, parsed, options);
      if (hit) hits.push(hit);
    }
    if (more) break;
  }
  return { hits: hits.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)), more };
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
