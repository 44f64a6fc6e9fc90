// How sync tells two entries of a tree apart: the way the memory tells two files apart. A memory path is in
// Unicode NFC (memory/paths.ts normalises every path it is given), so `café.md` written decomposed (NFD, as
// macOS and some tools write it) and composed name the same memory file. Sync keys memory entries by that
// NFC form, so what this device holds, what it refused and what the remote holds are compared as one file.
// Where one tree holds several names with the same NFC form, the memory's rule decides (memory/tree.ts,
// scanDir): the one already in NFC, else the first in byte order, is the file; each other is a twin, kept
// under a key of its own, never applied here and never used to overwrite or delete the file, and left on
// the remote as it is.
import { keyOf, type TreeEntry } from './git-store.js';

const TWIN = '\0twin:';

/** Why a twin is not applied (the report's words). */
export const TWIN_REASON =
  'another name in its folder is the same once both are in Unicode NFC form, and only that one is used here';

const isMemory = (segs: readonly string[]): boolean => segs[0] === 'memories' && segs.length > 1;
const inNfc = (segs: readonly string[]): boolean => segs.every((s) => s === s.normalize('NFC'));

/** The key of an entry that is alone with its name: memory paths in NFC, the rest byte for byte. */
export function syncKey(segs: readonly string[]): string {
  const key = keyOf(segs);
  // keyOf's own form for names no plain path can have (empty, with '/') stays byte for byte.
  if (!isMemory(segs) || key.startsWith('\0') || inNfc(segs)) return key;
  return keyOf(segs.map((s) => s.normalize('NFC')));
}

export const isTwin = (key: string): boolean => key.startsWith(TWIN);

/** A tree's entries by key; of names with one NFC form, the memory's choice holds the key (see above). */
export function flatTree(entries: readonly TreeEntry[]): Map<string, TreeEntry> {
  const raw = (e: TreeEntry): string => e.segs.join('/');
  const order = (a: TreeEntry, b: TreeEntry): number =>
    Number(!inNfc(a.segs)) - Number(!inNfc(b.segs)) || (raw(a) < raw(b) ? -1 : raw(a) > raw(b) ? 1 : 0);
  const out = new Map<string, TreeEntry>();
  const plain = entries.every((e) => !isMemory(e.segs) || inNfc(e.segs));
  for (const e of plain ? entries : [...entries].sort(order)) {
    const key = syncKey(e.segs);
    out.set(out.has(key) ? `${TWIN}${JSON.stringify(e.segs)}` : key, e);
  }
  return out;
}
