// The best few matches of a query over the index's shards, without MiniSearch's `search()` building a
// result object (and copying stored fields into it) for every matching document and sorting them all:
// for a common word in 200,000 messages that was tens of thousands of objects a query, and most of its
// time. It runs the library's own query (BM25, AND/OR, prefix; the same scores `search()` gives) and keeps
// only the best `n`, recency breaking ties. MiniSearch 7.2.0's executeQuery, _documentIds and
// _storedFields are what `search()` itself reads (and _documentCount, _avgFieldLength and _index what its
// BM25 reads); the version is pinned and the unit tests hold the ranking, so an upgrade that changes them
// fails there.
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
    options: {
      combineWith: 'AND' | 'OR';
      prefix: (t: string, i: number, all: string[]) => boolean;
      boostDocument: (id: unknown, term: string) => number;
    },
  ): Map<number, { score: number; terms: string[] }>;
  _documentIds: Map<number, string>;
  _storedFields: Map<number, Stored>;
  _documentCount: number;
  _avgFieldLength: number[];
  _index: { get(term: string): Map<number, Map<number, number>> | undefined };
}

const idf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

/**
 * Scores as one index over every shard would give them: each shard is queried with the total document
 * count and average length, and each term's weight is scaled from the shard's document frequency to the
 * total one (BM25's idf), so the same message scores the same whichever shard holds it (and equal matches
 * tie, for recency to break).
 */
function globalScoring(shards: readonly Internals[]) {
  const n = shards.reduce((sum, s) => sum + s._documentCount, 0);
  const avg =
    n === 0 ? 0 : shards.reduce((sum, s) => sum + (s._avgFieldLength[0] ?? 0) * s._documentCount, 0) / n;
  const df = (s: Internals, term: string): number => s._index.get(term)?.get(0)?.size ?? 0;
  const totals = new Map<string, number>();
  const total = (term: string): number => {
    let t = totals.get(term);
    if (t === undefined) totals.set(term, (t = shards.reduce((sum, s) => sum + df(s, term), 0)));
    return t;
  };
  return {
    n,
    avg,
    boost(s: Internals): (id: unknown, term: string) => number {
      const factors = new Map<string, number>();
      return (_id, term) => {
        let f = factors.get(term);
        if (f === undefined) {
          const local = idf(n, df(s, term));
          factors.set(term, (f = local > 0 ? idf(n, total(term)) / local : 1));
        }
        return f;
      };
    },
  };
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
  const all = shards as unknown as Internals[];
  const scoring = globalScoring(all);
  for (const mini of all) {
    if (mini._documentCount === 0) continue;
    const own = { n: mini._documentCount, avg: mini._avgFieldLength[0] };
    mini._documentCount = scoring.n;
    mini._avgFieldLength[0] = scoring.avg;
    let raw: ReturnType<Internals['executeQuery']>;
    try {
      raw = mini.executeQuery(query, {
        combineWith: options.combineWith,
        prefix: options.prefix,
        boostDocument: scoring.boost(mini),
      });
    } finally {
      mini._documentCount = own.n;
      mini._avgFieldLength[0] = own.avg ?? 0;
    }
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
