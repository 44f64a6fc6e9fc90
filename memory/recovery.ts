// Startup recovery, under the data folder's lock, after temp leftovers were removed by the scan:
// 1. redo every journaled change after the last checkpoint whose file still shows the old content (the
//    crash came between the journal append and the rename, or a rename was lost with the page cache);
// 2. journal as 'external' whatever differs from what the journal (or the saved state) says the files
//    hold: edits made with another program while the app was closed.
import { sha256 } from './content.js';
import { readRegular } from './fs-safe.js';
import type { JournalRecord } from './journal.js';
import { eventOf, parsedOf, segsOf, type Kernel, type Step } from './kernel.js';
import { joinModel } from './paths.js';
import type { SavedState } from './state.js';

function hashAt(k: Kernel, p: string): string | null | undefined {
  const node = k.tree.get(segsOf(p));
  if (!node) return null;
  return node.kind === 'file' ? node.hash : undefined;
}

/** The steps that bring the files in line with a journaled change, or none when they already are. */
async function redoSteps(k: Kernel, r: JournalRecord): Promise<Step[]> {
  if (r.actor === 'external') return []; // describes the disk, nothing to redo
  if (r.newPath) {
    const from = parsedOf(r.path);
    const to = parsedOf(r.newPath);
    return k.tree.get(from.segments) && !k.tree.get(to.segments) ? [{ kind: 'move', from, to }] : [];
  }
  const cur = hashAt(k, r.path);
  if (cur === undefined || cur === r.after || cur !== r.before) return [];
  if (r.after === null) return [{ kind: 'remove', path: parsedOf(r.path), folder: false }];
  const bytes = await k.wal.blob(r.after);
  return bytes ? [{ kind: 'put', path: parsedOf(r.path), bytes, hash: r.after }] : [];
}

export async function recoverAtStartup(k: Kernel, state: SavedState): Promise<void> {
  for (const f of k.tree.files()) {
    const s = state.files[joinModel(f.segments)];
    if (s?.h && s.s === f.node.size && s.m === f.node.mtimeMs) f.node.hash = s.h;
  }
  await k.rehashUnknown();

  for (const r of k.wal.entries.slice(k.wal.unsettledFrom)) {
    const steps = await redoSteps(k, r);
    if (steps.length === 0) continue;
    await k.transact(
      {
        paths: [r.path],
        errorPath: r.path,
        journal: 'journaled',
        prepare: () => Promise.resolve({ records: [r], steps, events: [], result: undefined }),
      },
      { locked: true },
    );
  }

  const expected = new Map<string, string | null>();
  for (const r of k.wal.entries) {
    if (r.newPath) {
      expected.set(r.path, null);
      expected.set(r.newPath, r.after);
    } else expected.set(r.path, r.after);
  }
  const paths = new Set<string>([...expected.keys()]);
  for (const f of k.tree.files()) paths.add(joinModel(f.segments));
  const records: JournalRecord[] = [];
  const blobs = new Map<string, Buffer>();
  const actor = { kind: 'external' } as const;
  for (const p of [...paths].sort()) {
    const segs = segsOf(p);
    if (segs.some((s) => s.startsWith('.'))) continue;
    const disk = hashAt(k, p);
    if (disk === undefined) continue; // a folder or a link now: nothing we can journal as content
    const known = expected.has(p) ? expected.get(p)! : state.files[p]?.h;
    if (known === undefined) {
      // A file nobody recorded. On the very first start (no saved state) it was there before Mnemo.
      if (!state.existed || disk === null) continue;
    } else if (disk === known) continue;
    if (disk !== null) {
      try {
        const { bytes } = await readRegular(k.hostOf(segs), k.realRoot, p);
        if (sha256(bytes) === disk) blobs.set(disk, bytes);
      } catch {
        // unreadable now: journal the change without content
      }
    }
    records.push(k.record(actor, 'external', p, known ?? null, disk));
  }
  if (records.length > 0) {
    await k.wal.append(records, blobs);
    for (const r of records) k.emit(eventOf(r));
  }
}
