// topMatches (the recall index's top-n over MiniSearch's own query, over shards) gives what search() over
// one index of every document gives (the same BM25 scores, whichever shard holds a message), sorted with
// recency breaking ties, cut at n: a property over random documents, shardings and queries, the last word
// also as a prefix. Documents discarded from the shards (and not yet vacuumed out of their posting lists)
// score as if they had never been added: the whole index is built without them.
import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { term, tokenize } from '../../../electron/core/recall/text.js';
import { type Candidate, better, topMatches } from '../../../electron/core/recall/top.js';

interface Doc {
  id: string;
  text: string;
  c: string;
  at: string;
  k: 'u' | 'a' | 't';
}

const options = {
  fields: ['text'],
  storeFields: ['c', 'at', 'k'],
  tokenize,
  processTerm: (t: string) => term(t),
  searchOptions: { tokenize: (s: string) => s.split(' '), processTerm: (t: string) => t },
};
const WORDS = ['apple', 'pear', 'plum', 'plumber', 'plumage', 'kiwi', 'fig', 'lime', 'limestone'];
/** Query words: whole words, and beginnings of some of them (for prefix queries). */
const QUERY = [...WORDS, 'pl', 'plu', 'lim', 'ap'];

describe('topMatches', () => {
  it('is search() over one whole index, sorted by score then recency, cut at n', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }),
            day: fc.integer({ min: 1, max: 28 }),
            shard: fc.integer({ min: 0, max: 2 }),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        fc.array(fc.constantFrom(...QUERY), { minLength: 1, maxLength: 3 }),
        fc.constantFrom<'AND' | 'OR'>('AND', 'OR'),
        fc.integer({ min: 1, max: 10 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 4 }),
        (docs, query, combineWith, n, lastAsPrefix, discards) => {
          const shards = [0, 1, 2].map(() => new MiniSearch<Doc>(options));
          const whole = new MiniSearch<Doc>(options);
          const gone = new Set(discards.map((x) => x % docs.length));
          docs.forEach((d, i) => {
            const doc: Doc = {
              id: `c${i}/m${i}`,
              text: d.words.join(' '),
              c: `c${i}`,
              at: `2026-01-${String(d.day).padStart(2, '0')}`,
              k: 'u',
            };
            shards[d.shard]!.add(doc);
            if (!gone.has(i)) whole.add(doc);
          });
          for (const i of gone) shards[docs[i]!.shard]!.discard(`c${i}/m${i}`);
          const q = [...new Set(query.map((w) => term(w)!))].join(' ');
          const prefix = (_t: string, i: number, all: readonly string[]): boolean =>
            lastAsPrefix && i === all.length - 1;
          const expected: Candidate[] = whole
            .search(q, { combineWith, prefix })
            .map((r) => ({ id: String(r.id), score: r.score, c: r['c'], at: r['at'], k: r['k'] }))
            .sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
          const { top, total } = topMatches(shards, q, { combineWith, prefix, accept: () => true, n });
          expect(total).toBe(expected.length);
          // Exactly equal (score, time) pairs may come in either order: compare those, and the ids otherwise.
          const key = (t: Candidate) => `${t.score.toFixed(9)}|${t.at}`;
          expect(top.map(key)).toEqual(expected.slice(0, n).map(key));
        },
      ),
      { numRuns: 200 },
    );
  });
});
