// Startup recovery, under the data folder's lock, after temp leftovers were removed by the scan:
// 1. redo every journaled change after the last checkpoint whose file does not hash to the journal's
//    record (the crash came between the journal append and the rename, a rename was lost with the page
//    cache, or a power cut tore the note, whose temp file had no sync of its own);
// 2. journal as 'external' whatever differs from what the journal (or the saved state) says the files
//    hold: edits made with another program while the app was closed.
import { rehashUnknown } from './catch-up.js';
import { sha256 } from './content.js';
import { readRegular } from './fs-safe.js';
import type { JournalRecord } from './journal.js';
import type { Kernel, Step } from './kernel.js';
import { joinModel, parsedOf, ROOT, segmentsOf } from './paths.js';
import type { SavedState } from './state.js';

function hashAt(k: Kernel, p: string): string | null | undefined {
  const node = k.tree.get(segmentsOf(p));
  if (!node) return null;
  return node.kind === 'file' ? node.hash : undefined;
}

/**
 * What the journal says each path holds after the last checkpoint's changes (a hash, or null: nothing),
 * and for a rename the path the file came from.
 */
interface Expected {
  hash: string | null;
  /** A rename's destination: where it came from, and the rename's record. */
  from?: string;
  id?: string;
  /** A rename's source, while nothing later in the journal changed it. */
  to?: string;
}

function expectations(records: readonly JournalRecord[]): Map<string, Expected> {
  const out = new Map<string, Expected>();
  for (const r of records) {
    if (r.newPath) {
      if (r.before === null && r.after === null) continue; // an empty folder's move: nothing to check
      out.set(r.path, { hash: null, to: r.newPath });
      out.set(r.newPath, { hash: r.after, from: r.path, id: r.id });
    } else out.set(r.path, { hash: r.after });
  }
  return out;
}

/** A folder on the way to `p` is not a real folder (a link, a file): nothing is moved there or from there. */
function blocked(k: Kernel, p: string): boolean {
  const segs = segmentsOf(p);
  for (let i = 1; i < segs.length; i++) {
    const node = k.tree.get(segs.slice(0, i));
    if (!node) return false; // missing: made when needed
    if (node.kind !== 'dir') return true;
  }
  return false;
}

/**
 * A file's rename that did not happen and must not: a link or a file on the way to either name, or the
 * destination taken while the source is still there. The checks a rename makes while its record syncs
 * (mutations.ts) refuse exactly these, so a kill between that record and its cancel line leaves this
 * rename in the journal, and redone it would overwrite the destination (or act beside a link).
 */
function cannotMove(k: Kernel, want: ReadonlyMap<string, Expected>, to: string, e: Expected): boolean {
  const from = e.from!;
  if (blocked(k, from) || blocked(k, to)) return true;
  return want.get(from)?.to === to && hashAt(k, from) !== null && hashAt(k, to) !== null;
}

/**
 * The steps that make every path changed after the last checkpoint hash to what the journal recorded:
 * moves first (a rename the crash cut off), then contents and removals. A file that does not hash to the
 * record (torn by a power cut, or never renamed into place) is written again from the journal. A rename
 * that cannot be redone (cannotMove) is withdrawn: its source keeps (or is repaired to) what it held
 * before, its destination is left alone.
 */
async function redoSteps(
  k: Kernel,
  records: readonly JournalRecord[],
): Promise<{ steps: Step[]; withdrawn: string[] }> {
  const want = expectations(records);
  const steps: Step[] = [];
  const moved = new Set<string>();
  const withdrawn: string[] = [];
  for (const [p, e] of want) {
    if (!e.from || e.hash === null || hashAt(k, p) === e.hash) continue;
    if (cannotMove(k, want, p, e)) {
      withdrawn.push(e.id!);
      moved.add(p);
      if (blocked(k, e.from)) moved.add(e.from);
      else if (want.get(e.from)?.to === p) want.set(e.from, { hash: e.hash });
      continue;
    }
    if (hashAt(k, p) === null && hashAt(k, e.from) === e.hash) {
      steps.push({ kind: 'move', from: parsedOf(e.from), to: parsedOf(p) });
      moved.add(e.from).add(p);
    }
  }
  for (const [p, e] of want) {
    if (moved.has(p)) continue;
    const disk = hashAt(k, p);
    if (disk === undefined || disk === e.hash) continue; // a folder or a link now, or already right
    if (e.hash === null) {
      steps.push({ kind: 'remove', path: parsedOf(p), folder: false });
      continue;
    }
    const bytes = await k.wal.blob(e.hash);
    if (bytes) steps.push({ kind: 'put', path: parsedOf(p), bytes, hash: e.hash });
  }
  return { steps, withdrawn };
}

/**
 * `deferHash`: a folder never opened before (no saved state, nothing journaled), whose files are then all
 * "there before Mnemo" and journaled as nothing: their hashes are left for later (k.hashPending).
 */
export async function recoverAtStartup(k: Kernel, state: SavedState, deferHash = false): Promise<void> {
  for (const f of k.tree.files()) {
    const s = state.files[joinModel(f.segments)];
    if (s?.h && s.s === f.node.size && s.m === f.node.mtimeMs) f.node.hash = s.h;
  }
  if (deferHash && !state.existed && k.wal.entries.length === 0) {
    k.unhashed = true;
    return;
  }
  // What changed after the last checkpoint is hashed from the disk, never taken from the saved state:
  // a note torn by a power cut can keep its size and time.
  const unsettled = k.wal.entries.slice(k.wal.unsettledFrom);
  for (const r of unsettled)
    for (const p of [r.path, r.newPath]) {
      const node = p ? k.tree.get(segmentsOf(p)) : undefined;
      if (node?.kind === 'file') node.hash = undefined;
    }
  await rehashUnknown(k);

  const { steps, withdrawn } = await redoSteps(k, unsettled);
  if (withdrawn.length > 0) await k.wal.cancel(withdrawn);
  if (steps.length > 0)
    await k.transact(
      {
        paths: steps.map((s) => (s.kind === 'move' ? s.to.path : s.path.path)),
        errorPath: ROOT,
        journal: 'journaled',
        prepare: () => Promise.resolve({ records: [], steps, events: [], result: undefined }),
      },
      { locked: true },
    );

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
    const segs = segmentsOf(p);
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
  if (records.length > 0)
    await k.transact(
      {
        paths: records.map((r) => r.path),
        errorPath: ROOT,
        journal: 'outside',
        prepare: () => Promise.resolve({ records, blobs, steps: [], result: undefined }),
      },
      { locked: true },
    );
}
