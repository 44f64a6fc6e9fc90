// Reading and acting on the journal: history, diff, and the plans for revert, restore and forget.
import { applyPatch, createTwoFilesPatch, structuredPatch } from 'diff';
import { assertRealParent, current, preflightNew } from './checks.js';
import { sha256 } from './content.js';
import { MemoryError } from './errors.js';
import { crashPoint, lstatOrNull } from './fs-safe.js';
import { markMemoryDone, namesOf, removeRewriteLeftovers, writeForgetIntent } from './forget-intent.js';
import type { JournalRecord } from './journal.js';
import type { Kernel, Step } from './kernel.js';
import { isWithin, parsedOf, parseMemoryPath, ROOT, segmentsOf } from './paths.js';
import { saveState } from './state.js';
import type { Actor, DiffResult, ForgetTrace, JournalEntry } from './types.js';

export function toPublicEntry(k: Kernel, r: JournalRecord): JournalEntry {
  const e: JournalEntry = {
    id: r.id,
    at: new Date(r.at).toISOString(),
    actor: r.actor,
    command: r.command,
    path: r.path,
    beforeHash: r.before,
    afterHash: r.after,
    revertible: isRevertible(k, r),
  };
  if (r.fromSpace) e.fromSpace = { id: r.fromSpace.id, name: r.fromSpace.name };
  if (r.toSpace) e.toSpace = { id: r.toSpace.id, name: r.toSpace.name };
  if (r.newPath) e.newPath = r.newPath;
  if (r.conversationId) e.conversationId = r.conversationId;
  if (r.conversationTitle) e.conversationTitle = r.conversationTitle;
  if (r.toolUseId) e.toolUseId = r.toolUseId;
  if (r.messageId) e.messageId = r.messageId;
  return e;
}

function isRevertible(k: Kernel, r: JournalRecord): boolean {
  if (r.newPath) return true;
  if (r.before === null && r.after === null) return false; // a removed link or an empty folder
  return r.before === null || k.wal.hasBlob(r.before);
}

export function historyOf(k: Kernel, p: string): JournalEntry[] {
  return k.wal.entries
    .filter((r) => isWithin(r.path, p) || (r.newPath !== undefined && isWithin(r.newPath, p)))
    .reverse()
    .map((r) => toPublicEntry(k, r));
}

function mustGet(k: Kernel, id: string): JournalRecord {
  const r = k.wal.get(id);
  if (!r)
    throw new MemoryError(
      'not_found',
      'That change is not in the journal (it may have been pruned or forgotten).',
    );
  return r;
}

const text = (b: Buffer | null): string | null => (b === null ? null : b.toString('utf8'));

export async function diffOf(k: Kernel, id: string): Promise<DiffResult> {
  const r = mustGet(k, id);
  const before = text(await k.wal.blob(r.before));
  const after = text(await k.wal.blob(r.after));
  const patch = createTwoFilesPatch(
    r.path,
    r.newPath ?? r.path,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    {
      context: 3,
    },
  );
  return { path: r.newPath ?? r.path, before, after, patch };
}

/**
 * Undo one change, or every change of its batch (a folder delete or rename). Refused with `conflict` when
 * the file moved on since and the reverse patch does not apply cleanly to what is there now.
 */
export async function revertEntry(k: Kernel, id: string, actor: Actor): Promise<{ journalId: string }> {
  const first = mustGet(k, id);
  const group = first.batch ? k.wal.entries.filter((r) => r.batch === first.batch) : [first];
  const paths = group.flatMap((r) => (r.newPath ? [r.path, r.newPath] : [r.path]));
  return k.transact({
    paths,
    errorPath: first.path,
    async prepare() {
      const records: JournalRecord[] = [];
      const blobs = new Map<string, Buffer>();
      const steps: Step[] = [];
      for (const r of [...group].reverse()) {
        if (r.newPath) {
          if (!lstatOrNull(k.hostOf(segmentsOf(r.newPath))) || lstatOrNull(k.hostOf(segmentsOf(r.path))))
            throw new MemoryError(
              'conflict',
              `Cannot undo the rename: ${r.newPath} is gone or ${r.path} is taken again.`,
            );
          steps.push({ kind: 'move', from: parsedOf(r.newPath), to: parsedOf(r.path) });
          records.push(
            k.record(actor, 'revert', r.newPath, r.after, r.after, { newPath: r.path, revertOf: r.id }),
          );
          continue;
        }
        if (r.before === null && r.after === null)
          throw new MemoryError('conflict', 'That change (a removed link or empty folder) cannot be undone.');
        const p = parsedOf(r.path);
        const cur = await current(k, p);
        let target = await k.wal.blob(r.before);
        if (r.before !== null && !target)
          throw new MemoryError(
            'not_found',
            'The earlier content of that change is no longer in the journal.',
          );
        if ((cur?.hash ?? null) !== r.after) {
          // The file moved on: try to take back just this change's lines.
          const before = text(target);
          const after = text(await k.wal.blob(r.after));
          const merged =
            cur && before !== null && after !== null
              ? applyPatch(cur.bytes.toString('utf8'), structuredPatch(r.path, r.path, after, before))
              : false;
          if (merged === false)
            throw new MemoryError(
              'conflict',
              `${r.path} changed after that edit and the edit cannot be undone cleanly. Open the history to compare.`,
            );
          target = Buffer.from(merged, 'utf8');
        }
        const afterHash = target ? sha256(target) : null;
        if (cur) blobs.set(cur.hash, cur.bytes);
        if (target) {
          blobs.set(afterHash!, target);
          steps.push({ kind: 'put', path: p, bytes: target, hash: afterHash!, oldSize: cur?.size ?? 0 });
        } else steps.push({ kind: 'remove', path: p, folder: false });
        records.push(k.record(actor, 'revert', r.path, cur?.hash ?? null, afterHash, { revertOf: r.id }));
      }
      return { records, blobs, steps, result: { journalId: records[0]!.id } };
    },
  });
}

export function listDeleted(k: Kernel): JournalEntry[] {
  const seen = new Set<string>();
  const out: JournalEntry[] = [];
  for (const r of [...k.wal.entries].reverse()) {
    if (seen.has(r.path)) continue;
    seen.add(r.path);
    if (r.after !== null || r.before === null || r.newPath || !k.wal.hasBlob(r.before)) continue;
    if (k.tree.get(segmentsOf(r.path))) continue;
    out.push(toPublicEntry(k, r));
  }
  return out;
}

export async function restoreEntry(k: Kernel, id: string, actor: Actor): Promise<{ journalId: string }> {
  const r = mustGet(k, id);
  if (r.after !== null || r.before === null || r.newPath)
    throw new MemoryError('invalid_input', 'Only a deleted file can be restored.');
  const p = parseMemoryPath(r.path);
  return k.transact({
    paths: [p.path],
    errorPath: p.path,
    async prepare() {
      if (lstatOrNull(k.hostOf(p.segments)))
        throw new MemoryError('exists', `${p.path} exists again; rename or delete it before restoring.`);
      const bytes = await k.wal.blob(r.before);
      if (!bytes) throw new MemoryError('not_found', 'The content of that file is no longer in the journal.');
      preflightNew(k, p);
      const rec = k.record(actor, 'restore', p.path, null, r.before, { revertOf: r.id });
      return {
        records: [rec],
        steps: [{ kind: 'put', path: p, bytes, hash: r.before!, oldSize: 0 }],
        result: { journalId: rec.id },
      };
    },
  });
}

/**
 * Remove a file or folder and every journal entry that names it or any name it had before a rename. What
 * is erased is written down first (forget-intent.ts) and returned, so the app can erase its own copies;
 * `resume` finishes a forget whose intent a crash left behind (it writes no new intent).
 */
export async function forgetPath(k: Kernel, input: string, resume?: ForgetTrace): Promise<ForgetTrace> {
  const p = parseMemoryPath(input);
  if (p.segments.length === 0)
    throw new MemoryError('root', `Cannot forget the ${ROOT} directory itself; forget its files.`);
  let names = new Set<string>();
  const touches = (x: string | undefined): boolean =>
    x !== undefined && [...names].some((n) => isWithin(x, n));
  return k.transact<ForgetTrace>({
    paths: [p.path],
    errorPath: p.path,
    journal: 'rewrite',
    async prepare() {
      names = namesOf(k, p.path);
      for (const n of resume?.paths ?? []) names.add(n);
      const host = k.hostOf(p.segments);
      const trace = resume ?? (await writeForgetIntent(k, p.path, names, host));
      crashPoint('forget-after-intent');
      const st = lstatOrNull(host);
      if (st) assertRealParent(k, p.segments);
      return {
        records: [],
        // Into the trash, emptied below: the folder it left is fsynced before the rewritten journal (which
        // ends in a checkpoint) lands.
        steps: st ? [{ kind: 'remove', path: p, folder: st.isDirectory() }] : [],
        events: [{ actor: 'user', command: 'forget', path: p.path }],
        result: trace,
      };
    },
    async finish(_k, change) {
      k.tree.remove(p.segments);
      for (const key of [...k.lastRead.keys()]) if (touches(key)) k.lastRead.delete(key);
      await k.wal.rewrite((r) => !touches(r.path) && !touches(r.newPath));
      await removeRewriteLeftovers(k);
      // The file just went to the trash, and an earlier delete of it may sit there too (put there by any
      // process): no trace is left there either.
      await k.trash.empty(true);
      await saveState(k);
      change.result = await markMemoryDone(k, change.result);
    },
  });
}
