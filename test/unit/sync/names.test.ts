// Sync's keys against the memory's names: memory paths compared in NFC, and of names one NFC form apart
// in one tree, one holds the key (the NFC one, else the first) and each other is a twin of its own. For
// any tree: every entry is kept under a distinct key (none lost, none merged into another), and a tree
// without such names is keyed byte for byte, as before.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyOf, type TreeEntry } from '../../../electron/core/sync/git-store.js';
import { flatTree, isTwin, syncKey } from '../../../electron/core/sync/names.js';

const entry = (...segs: string[]): TreeEntry => ({ segs, mode: '100644', oid: 'a'.repeat(40) });
const NFC = 'caf\u00e9.md';
const NFD = 'cafe\u0301.md';

describe('sync keys', () => {
  it.each([
    [['memories', NFD], `memories/${NFC}`],
    [['memories', 'Caf\u0065\u0301', 'x.md'], 'memories/Caf\u00e9/x.md'],
    [['memories', 'Notes.md'], 'memories/Notes.md'], // case is the memory's to refuse, not a key's to fold
    [['conversations', NFD], `conversations/${NFD}`], // not a memory path: byte for byte
    [['memories', '', NFD], keyOf(['memories', '', NFD])],
  ])('%j → %j', (segs, key) => expect(syncKey(segs)).toBe(key));

  it('of two names with one NFC form, the NFC one holds the key, whatever the order', () => {
    for (const entries of [
      [entry('memories', NFD), entry('memories', NFC)],
      [entry('memories', NFC), entry('memories', NFD)],
    ]) {
      const flat = flatTree(entries);
      expect(flat.get(`memories/${NFC}`)!.segs).toEqual(['memories', NFC]);
      const twins = [...flat.keys()].filter(isTwin);
      expect(twins.map((k) => flat.get(k)!.segs)).toEqual([['memories', NFD]]);
    }
  });

  it('any tree: every entry under a distinct key; without twins, keys are keyOf', () => {
    const seg = fc.constantFrom('a', 'A', NFC, NFD, 'cafe', 'x\u0301\u0327', 'x\u0327\u0301', 'n\u0303');
    const segs = fc.tuple(
      fc.constantFrom('memories', 'other'),
      fc.array(seg, { minLength: 1, maxLength: 2 }),
    );
    fc.assert(
      fc.property(fc.uniqueArray(segs, { selector: ([h, t]) => [h, ...t].join('/') }), (trees) => {
        const entries = trees.map(([h, t]) => entry(h, ...t));
        const flat = flatTree(entries);
        expect(flat.size).toBe(entries.length);
        expect(new Set(flat.values())).toEqual(new Set(entries));
        if (![...flat.keys()].some(isTwin)) for (const [key, e] of flat) expect(key).toBe(syncKey(e.segs));
      }),
    );
  });
});
