// How recall reads text: words are runs of letters and digits, folded (NFKD with the marks stripped, lower
// case: "Café" = "cafe") and stemmed with Porter's stemmer ("restaurants" = "restaurant"). The index and the
// query go through the same function, so a word matches whatever form it was written in. Offsets into the
// original text are kept, so a hit can be highlighted where it was said.
import { stemmer } from 'stemmer';
import type { MessageRecord } from '../conversations/records.js';

/** Bumped whenever `term` changes: an index built with another scheme is rebuilt. */
export const TEXT_SCHEME = 'nfkd-porter-1';

const WORD = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}+/gu;

/**
 * Words so common that they match nearly every message: a query made of them would rank by noise. Kept
 * short on purpose (a phrase in quotes still checks them in the text).
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

/** The indexed form of one word, or null for a stop word. Latin words are stemmed; others kept whole. */
export function term(word: string): string | null {
  const known = TERMS.get(word);
  if (known !== undefined) return known;
  const folded = fold(word);
  const result =
    folded === '' || STOP.has(folded) ? null : /^[a-z]+$/.test(folded) ? stemmer(folded) : folded;
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

/** The searchable text of a message: the person's own words, or the model's text blocks. Else null. */
export function messageText(m: MessageRecord): string | null {
  if (m.kind === 'user') return m.text?.trim() ? m.text : null;
  if (m.kind !== 'assistant') return null;
  let text = '';
  for (const b of m.content) if (b.type === 'text') text += (text ? '\n' : '') + b.text;
  return text.trim() ? text : null;
}

export interface ParsedQuery {
  /** Every indexed term of the query, in order, without repeats. */
  terms: string[];
  /** Quoted phrases as their folded word sequences (stop words included), e.g. ["the", "blue", "door"]. */
  phrases: string[][];
}

/** `"blue door" restaurant` → terms [blue, door, restaur], phrases [[the, blue, door]]. Curly quotes too. */
export function parseQuery(query: string): ParsedQuery {
  const phrases: string[][] = [];
  const quoted = /["“”„«»]([^"“”„«»]*)["“”„«»]/g;
  for (const m of query.matchAll(quoted)) {
    const seq = tokenize(m[1] ?? '').map(fold);
    if (seq.length > 1) phrases.push(seq);
  }
  const terms = [
    ...new Set(
      tokenize(query)
        .map(term)
        .filter((t): t is string => t !== null),
    ),
  ];
  return { terms, phrases };
}

/** True when the text holds every phrase as consecutive words (case, accents and punctuation aside). */
export function hasPhrases(text: string, phrases: readonly string[][]): boolean {
  if (phrases.length === 0) return true;
  const seq = ` ${tokenize(text).map(fold).join(' ')} `;
  return phrases.every((p) => seq.includes(` ${p.join(' ')} `));
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
