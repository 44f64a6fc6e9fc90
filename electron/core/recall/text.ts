// How recall reads text: words are runs of letters and digits, folded (NFKD with the marks stripped, lower
// case: "Café" = "cafe") and stemmed with Porter's stemmer ("restaurants" = "restaurant"). The index and the
// query go through the same function, so a word matches whatever form it was written in. Quoted words are
// the exception: they match as written (folded, not stemmed), checked against the live text. Offsets into
// the original text are kept, so a hit can be highlighted where it was said.
import { stemmer } from 'stemmer';
import type { MessageRecord } from '../conversations/records.js';

/** Bumped whenever `term` changes: an index built with another scheme is rebuilt. */
export const TEXT_SCHEME = 'nfkd-porter-1';

const WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;

/**
 * Words so common that they match nearly every message: a query made of them would rank by noise. Kept
 * short on purpose. Quoted, they still count: a phrase is checked word for word in the text, and one made
 * only of stop words is found by its stop pairs (stopPairs).
 */
const STOP = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);

export function fold(word: string): string {
  return word.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/**
 * Words as written → their terms: folding and stemming cost about a microsecond a word, and the words of
 * a conversation history are few and repeat (building the index spent most of its time here).
 */
const TERMS = new Map<string, string | null>();
const TERMS_MAX = 200_000;

/** Words as written → folded: the index folds each word twice (its term, its stop pairs). */
const FOLDS = new Map<string, string>();

function folded(word: string): string {
  let known = FOLDS.get(word);
  if (known === undefined) {
    if (FOLDS.size >= TERMS_MAX) FOLDS.clear();
    FOLDS.set(word, (known = fold(word)));
  }
  return known;
}

/** The indexed form of one word, or null for a stop word. Latin words are stemmed; others kept whole. */
export function term(word: string): string | null {
  const known = TERMS.get(word);
  if (known !== undefined) return known;
  const f = folded(word);
  const result = f === '' || STOP.has(f) ? null : /^[a-z]+$/.test(f) ? stemmer(f) : f;
  if (TERMS.size >= TERMS_MAX) TERMS.clear();
  TERMS.set(word, result);
  return result;
}

export interface Word {
  start: number;
  end: number;
  term: string | null;
}

export function words(text: string): Word[] {
  const out: Word[] = [];
  for (const m of text.matchAll(WORD))
    out.push({ start: m.index, end: m.index + m[0].length, term: term(m[0]) });
  return out;
}

/** MiniSearch's tokenizer: the words themselves (processTerm then folds and stems them). */
export function tokenize(text: string): string[] {
  return text.match(WORD) ?? [];
}

/**
 * Each two consecutive words that are both stop words, folded and joined by "+" (no word holds one):
 * "To be, or not" → to+be, be+or, or+not. A quoted phrase made only of stop words has no other indexed
 * term to be found by, and its pairs, unlike its words, are rare together. Punctuation between the words
 * does not part them, as it does not part a phrase (phraseRanges).
 */
export function stopPairs(words: readonly string[]): string[] {
  const pairs: string[] = [];
  let last: string | null = null;
  for (const word of words) {
    const f = folded(word);
    const stop = STOP.has(f) ? f : null;
    if (last !== null && stop !== null) pairs.push(`${last}+${stop}`);
    last = stop;
  }
  return pairs;
}

/** The searchable text of a message: the person's own words, or the model's text blocks. Else null. */
export function messageText(m: MessageRecord): string | null {
  if (m.kind === 'user') return m.text?.trim() ? m.text : null;
  if (m.kind !== 'assistant') return null;
  let text = '';
  for (const b of m.content) if (b.type === 'text') text += (text ? '\n' : '') + b.text;
  return text.trim() ? text : null;
}

export interface ParsedQuery {
  /** The indexed term of every word, quoted or not, in order, without repeats: what finds candidates. */
  terms: string[];
  /** The terms of the unquoted words: these match any inflection ("restaurants" finds "restaurant"). */
  loose: string[];
  /** Each quoted text as its folded words, stop words included, matched exactly: [["to", "be"]]. */
  phrases: string[][];
  /** The phrases' stop pairs (stopPairs): what finds a phrase with no other indexed term. */
  pairs: string[];
}

const QUOTED = /["“”„«»]([^"“”„«»]*)["“”„«»]/g;

/**
 * `"to be" restaurants` → terms [restaur], loose [restaur], phrases [[to, be]], pairs [to+be]. A quoted
 * word is exact: `"restaurants"` is the phrase [restaurants] (its term only finds candidates). Curly
 * quotes too; an unclosed quote is ordinary text.
 */
export function parseQuery(query: string): ParsedQuery {
  const terms = new Set<string>();
  const loose = new Set<string>();
  const phrases: string[][] = [];
  const pairs = new Set<string>();
  const free = (text: string): void => {
    for (const t of tokenize(text).map(term))
      if (t !== null) {
        terms.add(t);
        loose.add(t);
      }
  };
  let at = 0;
  for (const m of query.matchAll(QUOTED)) {
    free(query.slice(at, m.index));
    at = m.index + m[0].length;
    const seq = tokenize(m[1] ?? '');
    if (seq.length === 0) continue;
    for (const t of seq.map(term)) if (t !== null) terms.add(t);
    phrases.push(seq.map(folded));
    for (const p of stopPairs(seq)) pairs.add(p);
  }
  free(query.slice(at));
  return { terms: [...terms], loose: [...loose], phrases, pairs: [...pairs] };
}

/**
 * Where the text holds each phrase as consecutive words (case, accents and punctuation aside), each
 * occurrence as one range; null when it lacks any of them.
 */
export function phraseRanges(text: string, phrases: readonly string[][]): [number, number][] | null {
  if (phrases.length === 0) return [];
  const found = [...text.matchAll(WORD)];
  const seq = found.map((m) => folded(m[0]));
  const ranges: [number, number][] = [];
  for (const p of phrases) {
    const before = ranges.length;
    for (let i = 0; i + p.length <= seq.length; i++) {
      if (!p.every((w, j) => seq[i + j] === w)) continue;
      const last = found[i + p.length - 1]!;
      ranges.push([found[i]!.index, last.index + last[0].length]);
    }
    if (ranges.length === before) return null;
  }
  return ranges;
}

/** Ranges in order, those that overlap or touch made one (a loose word inside a quoted phrase). */
export function mergeRanges(ranges: readonly [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [s, e] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out.at(-1);
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

export const SNIPPET_CHARS = 200;
const LEAD = 60;

export interface Snippet {
  text: string;
  /** [start, end) of each matching word within `text`. */
  ranges: [number, number][];
}

/**
 * The words of `text` whose term is one of `terms` (the last query term also as a prefix, as it is
 * searched), as ranges; empty when the text no longer holds any (then it is not a hit).
 */
export function matchRanges(text: string, terms: readonly string[], prefixLast: boolean): [number, number][] {
  const set = new Set(terms);
  const last = prefixLast ? terms.at(-1) : undefined;
  const ranges: [number, number][] = [];
  for (const w of words(text)) {
    if (w.term === null) continue;
    if (set.has(w.term) || (last !== undefined && w.term.startsWith(last))) ranges.push([w.start, w.end]);
  }
  return ranges;
}

/** A window of the text around its first match, white space collapsed, the ranges moved with it. */
export function snippet(text: string, ranges: readonly [number, number][], size = SNIPPET_CHARS): Snippet {
  const first = ranges[0]?.[0] ?? 0;
  const start = text.length <= size ? 0 : Math.max(0, Math.min(first - LEAD, text.length - size));
  const end = Math.min(text.length, start + size);
  const prefix = start > 0 ? '…' : '';
  // Collapsing white space changes offsets: map each kept character's old offset to its new one.
  let out = prefix;
  const map = new Map<number, number>();
  let space = false;
  for (let i = start; i < end; i++) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      if (!space) out += ' ';
      space = true;
      map.set(i, out.length - 1);
      continue;
    }
    space = false;
    map.set(i, out.length);
    out += ch;
  }
  map.set(end, out.length);
  if (end < text.length) out += '…';
  const inside = ranges
    .filter(([s, e]) => s >= start && e <= end)
    .map(([s, e]): [number, number] => [map.get(s)!, map.get(e)!]);
  return { text: out, ranges: inside };
}
