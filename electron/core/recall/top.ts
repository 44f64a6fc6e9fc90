// The best few matches of a query over the index's shards, without MiniSearch's `search()` building a
// result object (and copying stored fields into it) for every matching document and sorting them all:
// for a common word in 200,000 messages that was tens of thousands of objects a query, and most of its
// time. It runs the library's own query (BM25, AND/OR, prefix; the same scores `search()` gives) and keeps
// only the best `n`, recency breaking ties. MiniSearch 7.2.0's executeQuery, _documentIds and
// _storedFields are what `search()` itself reads; the version is pinned and the unit tests hold the
// ranking, so an upgrade that changes them fails there.
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

interface Internals {
  executeQuery(
    query: string,
    options: { combineWith: 'AND' | 'OR'; prefix: (t: string, i: number, all: string[]) => boolean },
  ): Map<number, { score: number; terms: string[] }>;
  _documentIds: Map<number, string>;
  _storedFields: Map<number, Stored>;
}

/** A (score, time) before b: the higher score, or for (all but) equal scores the newer message. */
function beats(score: number, at: string, b: Candidate): boolean {
  if (Math.abs(score - b.score) > 1e-9 * Math.max(score, b.score)) return score > b.score;
  return at > b.at;
}

export function better(a: Candidate, b: Candidate): boolean {
  return beats(a.score, a.at, b);
}

export function topMatches<T>(
  shards: readonly MiniSearch<T>[],
  query: string,
  options: {
    combineWith: 'AND' | 'OR';
    prefix: (t: string, i: number, all: string[]) => boolean;
    accept: (stored: Stored) => boolean;
    n: number;
  },
): { top: Candidate[]; total: number } {
  const top: Candidate[] = [];
  let total = 0;
  const { accept, n } = options;
  for (const shard of shards) {
    const mini = shard as unknown as Internals;
    const raw = mini.executeQuery(query, { combineWith: options.combineWith, prefix: options.prefix });
    const stored = mini._storedFields;
    for (const [shortId, result] of raw) {
      const fields = stored.get(shortId);
      if (fields === undefined || !accept(fields)) continue;
      total++;
      // The score search() reports: the BM25 sum times the number of query terms matched.
      const score = result.score * (result.terms.length || 1);
      // Most documents of a common word lose to the n-th best: no object is made for them.
      if (top.length >= n && !beats(score, fields.at, top[n - 1]!)) continue;
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
    }
  }
  return { top, total };
}
