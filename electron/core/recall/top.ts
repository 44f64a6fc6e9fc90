// The best few matches of a query over the index's shards, scored straight from MiniSearch's posting lists.
// The library's own query (executeQuery, under search()) makes a result object, a terms array and a match
// object for every matching document before anything is ranked: for a common word in 200,000 messages that
// was 20,000 of each per query and almost all of its time. Here each matching document costs two map
// lookups and a few multiplications, and an object only when it enters the best `n`.
//
// The scores are exactly search()'s over one index of every document: BM25 with MiniSearch's default
// parameters, a prefix match weighted as the library weighs it, the sum over the query's words times the
// number of words matched; each term's idf comes from the document count and frequency over all shards,
// so the same message scores the same whichever shard holds it (and equal matches tie, for recency to
// break). MiniSearch 7.2.0's _index, _storedFields, _fieldLength, _documentCount and _avgFieldLength are
// what its search() reads; the version is pinned and the unit tests hold these scores against search(),
// so an upgrade that changes them fails there.
import type MiniSearch from 'minisearch';

export interface Stored {
  c: string;
  at: string;
  k: 't' | 'u' | 'a';
}

export interface Candidate extends Stored {
  id: string;
  score: number;
}

type Postings = Map<number, number>;

interface Internals {
  _documentIds: Map<number, string>;
  _storedFields: Map<number, Stored>;
  _fieldLength: Map<number, number[]>;
  _documentCount: number;
  _dirtCount: number;
  _nextId: number;
  _avgFieldLength: number[];
  _index: {
    get(term: string): Map<number, Postings> | undefined;
    atPrefix(prefix: string): Iterable<[string, Map<number, Postings>]>;
  };
}

/** MiniSearch's defaults (the index sets none of its own): BM25's k, b and d, and a prefix match's weight. */
const K = 1.2;
const B = 0.7;
const D = 0.5;
const PREFIX_WEIGHT = 0.375;

const idf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));
/** A term's postings in one field (0: the words, `text`; 1: the stop pairs a phrase is found by). */
const postingsIn =
  (field: number) =>
  (data: Map<number, Postings> | undefined): Postings | undefined =>
    data?.get(field);

/**
 * A shard's stored fields and lengths in arrays by short id. Reading them from the library's maps for
 * each matching document of a common word was most of a query's time: in a heap of hundreds of
 * megabytes, every lookup was a cache miss. Rebuilt (about a millisecond a shard) when the shard's
 * documents change: every addition takes a new short id and every discard lowers the count.
 */
interface Dense {
  stamp: string;
  fields: (Stored | undefined)[];
  /** Per field, each document's length in it. */
  lengths: Float64Array[];
}
const DENSE = new WeakMap<Internals, Dense>();

function dense(s: Internals): Dense {
  const stamp = `${s._nextId}:${s._documentCount}`;
  const known = DENSE.get(s);
  if (known?.stamp === stamp) return known;
  const fields = new Array<Stored | undefined>(s._nextId).fill(undefined);
  const lengths = s._avgFieldLength.map(() => new Float64Array(s._nextId));
  for (const [id, f] of s._storedFields) fields[id] = f;
  for (const [id, l] of s._fieldLength) l.forEach((n, field) => (lengths[field]![id] = n ?? 0));
  const made = { stamp, fields, lengths };
  DENSE.set(s, made);
  return made;
}

/**
 * How many live documents hold a term. A posting list keeps discarded documents until the shard is
 * vacuumed; counted with them, a term's idf would depend on deletions not yet cleaned up (and could drop
 * below zero), so they are left out: the scores are those of an index of what the conversations hold now.
 */
function frequency(s: Internals, p: Postings | undefined): number {
  if (!p) return 0;
  if (s._dirtCount === 0) return p.size;
  let live = 0;
  for (const id of p.keys()) if (s._documentIds.has(id)) live++;
  return live;
}

/** A (score, time) before b: the higher score, or for (all but) equal scores the newer message. */
function beats(score: number, at: string, b: Candidate): boolean {
  if (Math.abs(score - b.score) > 1e-9 * Math.max(score, b.score)) return score > b.score;
  return at > b.at;
}

export function better(a: Candidate, b: Candidate): boolean {
  return beats(a.score, a.at, b);
}

/** One indexed term a query word matches (the word itself, or a longer one it is a prefix of). */
interface Derived {
  term: string;
  weight: number;
}

/** Per query word, the terms it matches in any shard, with their weight and (over all shards) idf. */
function derive(
  shards: readonly Internals[],
  words: readonly string[],
  prefix: (t: string, i: number, all: string[]) => boolean,
  n: number,
  postings: (data: Map<number, Postings> | undefined) => Postings | undefined,
): (Derived & { idf: number })[][] {
  return words.map((word, i) => {
    const found = new Map<string, Derived & { df: number }>();
    const add = (term: string, weight: number, size: number): void => {
      const known = found.get(term);
      if (known) known.df += size;
      else found.set(term, { term, weight, df: size });
    };
    const isPrefix = prefix(word, i, words as string[]);
    for (const s of shards) {
      add(word, 1, frequency(s, postings(s._index.get(word))));
      if (!isPrefix) continue;
      for (const [term, data] of s._index.atPrefix(word)) {
        if (term.length === word.length) continue;
        const weight = (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * (term.length - word.length));
        add(term, weight, frequency(s, postings(data)));
      }
    }
    return [...found.values()].filter((d) => d.df > 0).map((d) => ({ ...d, idf: idf(n, d.df) }));
  });
}

/** A query word in one shard: a single term's postings, or its documents' scores over several terms. */
interface Word {
  p: Postings | null;
  weight: number;
  idf: number;
  scores: Map<number, number> | null;
  size: number;
}

export function topMatches<T>(
  shards: readonly MiniSearch<T>[],
  query: string,
  options: {
    combineWith: 'AND' | 'OR';
    prefix: (t: string, i: number, all: string[]) => boolean;
    accept: (stored: Stored) => boolean;
    n: number;
    /** The field searched: 0 (the words) unless given. */
    field?: number;
  },
): { top: Candidate[]; total: number } {
  const top: Candidate[] = [];
  let total = 0;
  const { accept, n } = options;
  const all = shards as unknown as Internals[];
  const words = query.split(' ').filter((w) => w !== '');
  const count = all.reduce((sum, s) => sum + s._documentCount, 0);
  if (words.length === 0 || count === 0) return { top, total };
  const field = options.field ?? 0;
  const postings = postingsIn(field);
  const avg = all.reduce((sum, s) => sum + (s._avgFieldLength[field] ?? 0) * s._documentCount, 0) / count;
  const and = options.combineWith === 'AND';
  const derived = derive(all, words, options.prefix, count, postings);
  if (and && derived.some((d) => d.length === 0)) return { top, total };

  for (const mini of all) {
    if (mini._documentCount === 0) continue;
    const { fields: stored, lengths: byField } = dense(mini);
    const lengths = byField[field] ?? new Float64Array(mini._nextId);
    // Per query word, what it matches in this shard: one term's postings (scored per document below),
    // or, for a prefix matching several terms, each document's score for the word summed over them
    // (in the library's order), so a document costs one lookup per word however many terms matched.
    const words: Word[] = [];
    for (const ds of derived) {
      const lists = ds.flatMap((d) => {
        const p = postings(mini._index.get(d.term));
        return p ? [{ p, weight: d.weight, idf: d.idf }] : [];
      });
      if (lists.length === 1) words.push({ ...lists[0]!, scores: null, size: lists[0]!.p.size });
      else if (lists.length === 0) words.push({ p: null, weight: 0, idf: 0, scores: null, size: 0 });
      else {
        const scores = new Map<number, number>();
        for (const { p, weight, idf: w } of lists)
          p.forEach((tf, shortId) => {
            if (stored[shortId] === undefined) return;
            const norm = K * (1 - B + (B * lengths[shortId]!) / avg);
            const score = weight * (w * (D + (tf * (K + 1)) / (tf + norm)));
            const sum = scores.get(shortId);
            scores.set(shortId, sum === undefined ? score : sum + score);
          });
        words.push({ p: null, weight: 0, idf: 0, scores, size: scores.size });
      }
    }
    if (and && words.some((w) => w.size === 0)) continue;
    // AND: only the documents of the word with the fewest can match; OR: those of every word.
    let least = 0;
    for (let w = 1; w < words.length; w++) if (words[w]!.size < words[least]!.size) least = w;
    const driving = and ? [least] : words.map((_, w) => w).filter((w) => words[w]!.size > 0);
    const seen = driving.length > 1 ? new Set<number>() : null;
    let current = driving[0]!;
    const visit = (own: number, shortId: number): void => {
      if (seen) {
        if (seen.has(shortId)) return;
        seen.add(shortId);
      }
      const fields = stored[shortId];
      // A discarded document (not yet vacuumed) has no stored fields.
      if (fields === undefined) return;
      const norm = K * (1 - B + (B * lengths[shortId]!) / avg);
      let sum = 0;
      let matched = 0;
      for (let w = 0; w < words.length; w++) {
        const word = words[w]!;
        let score: number | undefined;
        if (word.scores) score = w === current ? own : word.scores.get(shortId);
        else if (word.p) {
          const tf = w === current ? own : word.p.get(shortId);
          if (tf !== undefined) score = word.weight * (word.idf * (D + (tf * (K + 1)) / (tf + norm)));
        }
        if (score !== undefined) {
          sum += score;
          matched++;
        } else if (and) return;
      }
      if (matched === 0 || !accept(fields)) return;
      total++;
      // The score search() reports: the BM25 sum times the number of query words matched.
      const score = sum * matched;
      // Most documents of a common word lose to the n-th best: no object is made for them.
      if (top.length >= n && !beats(score, fields.at, top[n - 1]!)) return;
      const candidate: Candidate = {
        id: mini._documentIds.get(shortId)!,
        score,
        c: fields.c,
        at: fields.at,
        k: fields.k,
      };
      let i = top.length;
      while (i > 0 && better(candidate, top[i - 1]!)) i--;
      top.splice(i, 0, candidate);
      if (top.length > n) top.pop();
    };
    for (current of driving) (words[current]!.scores ?? words[current]!.p)!.forEach(visit);
  }
  return { top, total };
}
