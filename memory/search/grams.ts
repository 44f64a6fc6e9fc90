// A per-file Bloom filter of character trigrams: a query can skip every file that lacks one of its
// trigrams without scanning the text. No false negatives (a file containing the query contains all of
// its trigrams); false positives only cost the scan they would have cost anyway.

export type GramFilter = Uint32Array;

const MIN_BITS = 1024;
const MAX_BITS = 1 << 20;

function bitsFor(length: number): number {
  // About four bits per character keeps a 2 KB note's filter under ~40 % full.
  let bits = MIN_BITS;
  while (bits < length * 4 && bits < MAX_BITS) bits *= 2;
  return bits;
}

function gram(text: string, i: number): number {
  const h = Math.imul(text.charCodeAt(i), 0x9e3779b1) ^ Math.imul(text.charCodeAt(i + 1), 0x85ebca6b);
  return (h ^ Math.imul(text.charCodeAt(i + 2), 0xc2b2ae35)) >>> 0;
}

export function buildGrams(folded: string): GramFilter {
  const bits = bitsFor(folded.length);
  const filter = new Uint32Array(bits >>> 5);
  const mask = bits - 1;
  for (let i = 0; i + 2 < folded.length; i++) {
    const h = gram(folded, i) & mask;
    filter[h >>> 5] = (filter[h >>> 5] ?? 0) | (1 << (h & 31));
  }
  return filter;
}

/** The query's trigram hashes, computed once per query. Empty for queries under three characters. */
export function queryGrams(foldedQuery: string): number[] {
  const out: number[] = [];
  for (let i = 0; i + 2 < foldedQuery.length; i++) out.push(gram(foldedQuery, i));
  return out;
}

export function mayContain(filter: GramFilter, grams: readonly number[]): boolean {
  const mask = filter.length * 32 - 1;
  for (const g of grams) {
    const h = g & mask;
    if (((filter[h >>> 5] ?? 0) & (1 << (h & 31))) === 0) return false;
  }
  return true;
}
