// Startup recovery, under the data folder's lock, after temp leftovers were removed by the scan:
// 1. redo every journaled change after the last checkpoint whose file still shows the old content (the
//    crash came between the journal append and the rename, or a rename was lost with the page cache);
// 2. journal as 'external' whatever differs from what the journal (or the saved state) says the files
//    hold: edits made with another program while the app was closed.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { rehashUnknown } from './catch-up.js';
import type { JournalRecord } from './journal.js';
import { sha256 } from './content.js';
import type { MemoryStore } from './memory.js';
import { ensureFolders, readRegular } from './fs-safe.js';
import { joinModel, ROOT } from './paths.js';
import type { SavedState } from './state.js';

const segsOf = (p: string): string[] => (p === ROOT ? [] : p.slice(ROOT.length + 1).split('/'));

function hashAt(store: MemoryStore, p: string): string | null | undefined {
  const node = store.tree.get(segsOf(p));
  if (!node) return null;
  return node.kind === 'file' ? node.hash : undefined;
}

async function redo(store: MemoryStore, r: JournalRecord): Promise<void> {
  if (r.actor === 'external') return; // describes the disk, nothing to redo
  const segs = segsOf(r.path);
  if (r.newPath) {
    const dst = segsOf(r.newPath);
    if (store.tree.get(segs) && !store.tree.get(dst)) {
      const disk = store.tree.diskSegments(dst);
      const dirHost = await ensureFolders(store.root, disk.slice(0, -1), () => r.newPath!);
      await fsp.rename(store.hostOf(segs), `${dirHost}/${disk[disk.length - 1]}`);
      const node = store.tree.remove(segs);
      if (node) store.tree.set(dst, node);
      store.noteDirty(dirHost);
    } else if (!store.tree.get(segs) && !store.tree.get(dst) && r.after) {
      // Neither name holds it (the file's create was lost with the page cache too): the journal has it.
      const bytes = await store.wal.blob(r.after);
      if (bytes) await store.put({ path: r.newPath, segments: dst }, bytes, r.after);
    }
    return;
  }
  const cur = hashAt(store, r.path);
  if (cur === undefined || cur === r.after || cur !== r.before) return;
  if (r.after === null) {
    const host = store.hostOf(segs);
    await fsp.unlink(host).catch(() => undefined);
    store.tree.remove(segs);
    store.noteDirty(path.dirname(host));
    return;
  }
  const bytes = await store.wal.blob(r.after);
  if (bytes) await store.put({ path: r.path, segments: segs }, bytes, r.after);
}

const touched = (r: JournalRecord): string[] => (r.newPath ? [r.path, r.newPath] : [r.path]);

/** What a change leaves at `p`: a rename leaves no file at its source and the content at its destination. */
const stateAfter = (r: JournalRecord, p: string): string | null =>
  r.newPath && p === r.path ? null : r.after;

/**
 * For each path, the index of the last unsettled change whose result at that path is what the disk shows:
 * the changes to the path before it were applied, even where the path looks untouched now (a file created
 * and then renamed away shows "no file", which must not be taken for a create that never happened: redoing
 * it brought back the source of an acknowledged rename).
 */
function lastShown(store: MemoryStore, records: JournalRecord[]): Map<string, number> {
  const last = new Map<string, number>();
  records.forEach((r, i) => {
    if (r.actor === 'external') return;
    for (const p of touched(r)) if (hashAt(store, p) === stateAfter(r, p)) last.set(p, i);
  });
  return last;
}

export async function recoverAtStartup(store: MemoryStore, state: SavedState): Promise<void> {
  for (const f of store.tree.files()) {
    const s = state.files[joinModel(f.segments)];
    if (s?.h && s.s === f.node.size && s.m === f.node.mtimeMs) f.node.hash = s.h;
  }
  await rehashUnknown(store);

  const unsettled = store.wal.entries.slice(store.wal.unsettledFrom);
  const shown = lastShown(store, unsettled);
  for (const [i, r] of unsettled.entries()) {
    if (touched(r).some((p) => (shown.get(p) ?? -1) > i)) continue;
    await redo(store, r);
  }

  const expected = new Map<string, string | null>();
  for (const r of store.wal.entries) {
    if (r.newPath) {
      expected.set(r.path, null);
      expected.set(r.newPath, r.after);
    } else expected.set(r.path, r.after);
  }
  const paths = new Set<string>([...expected.keys()]);
  for (const f of store.tree.files()) paths.add(joinModel(f.segments));
  const records: JournalRecord[] = [];
  const blobs = new Map<string, Buffer>();
  const actor = { kind: 'external' } as const;
  for (const p of [...paths].sort()) {
    const segs = segsOf(p);
    if (segs.some((s) => s.startsWith('.'))) continue;
    const disk = hashAt(store, p);
    if (disk === undefined) continue; // a folder or a link now: nothing we can journal as content
    const known = expected.has(p) ? expected.get(p)! : state.files[p]?.h;
    if (known === undefined) {
      // A file nobody recorded. On the very first start (no saved state) it was there before Mnemo.
      if (!state.existed || disk === null) continue;
    } else if (disk === known) continue;
    if (disk !== null) {
      try {
        const { bytes } = await readRegular(store.hostOf(segs), store.realRoot, p);
        if (sha256(bytes) === disk) blobs.set(disk, bytes);
      } catch {
        // unreadable now: journal the change without content
      }
    }
    records.push(store.record(actor, 'external', p, known ?? null, disk));
  }
  if (records.length > 0) {
    await store.wal.append(records, blobs);
    for (const r of records) store.emitRecord(r);
  }
}
