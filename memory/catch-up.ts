// Catching up with other processes on the same data folder: their changes are in the journal (their files
// already on disk), read whenever the lock is taken afresh or a reader finds the lease not held. The cached
// tree then follows them, so the folder view answers from it (bench/memory: folder view at 10,000 files).
import { sha256 } from './content.js';
import { lstatOrNull, readRegular } from './fs-safe.js';
import type { Journal, JournalRecord } from './journal.js';
import { joinModel, segmentsOf } from './paths.js';
import { scanDir, scanPath, type Tree } from './tree.js';

/** What catching up needs of the kernel. */
export interface CatchUpHost {
  readonly root: string;
  readonly realRoot: string;
  readonly tree: Tree;
  readonly wal: Journal;
  hostOf(segments: readonly string[]): string;
  emitRecord(r: JournalRecord): void;
}

/** Apply the changes other processes journaled since we last looked, and tell the listeners. */
export async function catchUp(k: CatchUpHost): Promise<void> {
  const news = await k.wal.catchUp();
  if (news === 'reloaded') {
    const scanned = await scanDir(k.root, false);
    if (scanned) k.tree.set([], scanned);
    await rehashUnknown(k);
    return;
  }
  for (const r of news) {
    for (const p of [r.path, r.newPath]) {
      if (!p) continue;
      const segs = segmentsOf(p);
      const node = await scanPath(k.hostOf(segs));
      if (node) {
        if (node.kind === 'file' && (p === r.newPath || !r.newPath) && r.after) node.hash = r.after;
        k.tree.set(segs, node);
      } else {
        k.tree.remove(segs);
        // A folder moved or deleted as a whole is journaled file by file: its folders are gone too.
        for (let n = segs.length - 1; n > 0; n--) {
          const up = segs.slice(0, n);
          if (k.tree.get(up)?.kind !== 'dir' || lstatOrNull(k.hostOf(up))) break;
          k.tree.remove(up);
        }
      }
    }
    await rehashUnknown(k);
    k.emitRecord(r);
  }
}

/** Files hashed at once: a space opened for the first time hashes all of them (1,000 in the bench). */
const HASH_BATCH = 32;

/** Fill in the hashes the cache lacks (after a rescan). */
export async function rehashUnknown(k: CatchUpHost): Promise<void> {
  const unknown = [...k.tree.files()].filter((f) => !f.node.hash);
  for (let i = 0; i < unknown.length; i += HASH_BATCH) {
    await Promise.all(
      unknown.slice(i, i + HASH_BATCH).map(async (f) => {
        try {
          const { bytes } = await readRegular(k.hostOf(f.segments), k.realRoot, joinModel(f.segments));
          f.node.hash = sha256(bytes);
        } catch {
          // unreadable (raced away, or a link): left without a hash, compared by size on the next scan
        }
      }),
    );
  }
}
