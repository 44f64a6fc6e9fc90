// Keeping one process's view of the folder in step with the others: another process that shares the data
// folder (the desktop app and a `mnemo` CLI run) journals its changes and writes its files; this applies
// what it journaled since we last looked to our cache and tells our listeners.
import { sha256 } from './content.js';
import { readRegular } from './fs-safe.js';
import type { MemoryStore } from './memory.js';
import { joinModel, ROOT } from './paths.js';
import { scanDir, scanPath } from './tree.js';

/** Apply changes other processes journaled since we last looked (their files are already on disk). */
export async function catchUp(store: MemoryStore): Promise<void> {
  const news = await store.wal.catchUp();
  if (news === 'reloaded') {
    const scanned = await scanDir(store.root, false);
    if (scanned) store.tree.set([], scanned);
    await rehashUnknown(store);
    return;
  }
  for (const r of news) {
    for (const p of [r.path, r.newPath]) {
      if (!p) continue;
      const segs = p === ROOT ? [] : p.slice(ROOT.length + 1).split('/');
      const node = await scanPath(store.hostOf(segs));
      if (node) {
        if (node.kind === 'file' && (p === r.newPath || !r.newPath) && r.after) node.hash = r.after;
        store.tree.set(segs, node);
      } else store.tree.remove(segs);
    }
    await rehashUnknown(store);
    store.emitRecord(r);
  }
}

/** Fill in the hashes the cache lacks (after a rescan). */
export async function rehashUnknown(store: MemoryStore): Promise<void> {
  for (const f of store.tree.files()) {
    if (f.node.hash) continue;
    try {
      const { bytes } = await readRegular(store.hostOf(f.segments), store.realRoot, joinModel(f.segments));
      f.node.hash = sha256(bytes);
    } catch {
      // unreadable (raced away, or a link): left without a hash, compared by size on the next scan
    }
  }
}
