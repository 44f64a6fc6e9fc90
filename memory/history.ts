// Reading and acting on the journal: history, diff, revert, restore, forget.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { applyPatch, createTwoFilesPatch, structuredPatch } from 'diff';
import { MemoryError } from './errors.js';
import { crashPoint, ensureFolders, lstatOrNull } from './fs-safe.js';
import { saveState } from './state.js';
import type { JournalRecord } from './journal.js';
import { sha256 } from './content.js';
import type { MemoryStore } from './memory.js';
import { isWithin, parseMemoryPath, ROOT, type ParsedPath } from './paths.js';
import { markMemoryDone, namesOf, removeRewriteLeftovers, writeForgetIntent } from './forget-intent.js';
import type { Actor, DiffResult, ForgetTrace, JournalEntry } from './types.js';

const segsOf = (p: string): string[] => (p === ROOT ? [] : p.slice(ROOT.length + 1).split('/'));
const parsed = (p: string): ParsedPath => ({ path: p, segments: segsOf(p) });

export function toPublicEntry(store: MemoryStore, r: JournalRecord): JournalEntry {
  const e: JournalEntry = {
    id: r.id,
    at: new Date(r.at).toISOString(),
    actor: r.actor,
    command: r.command,
    path: r.path,
    beforeHash: r.before,
    afterHash: r.after,
    revertible: isRevertible(store, r),
  };
  if (r.newPath) e.newPath = r.newPath;
  if (r.conversationId) e.conversationId = r.conversationId;
  if (r.conversationTitle) e.conversationTitle = r.conversationTitle;
  if (r.toolUseId) e.toolUseId = r.toolUseId;
  if (r.messageId) e.messageId = r.messageId;
  return e;
}

function isRevertible(store: MemoryStore, r: JournalRecord): boolean {
  if (r.newPath) return true;
  if (r.before === null && r.after === null) return false; // a removed link or an empty folder
  return r.before === null || store.wal.hasBlob(r.before);
}

export function historyOf(store: MemoryStore, p: string): JournalEntry[] {
  return store.wal.entries
    .filter((r) => isWithin(r.path, p) || (r.newPath !== undefined && isWithin(r.newPath, p)))
    .reverse()
    .map((r) => toPublicEntry(store, r));
}

function mustGet(store: MemoryStore, id: string): JournalRecord {
  const r = store.wal.get(id);
  if (!r)
    throw new MemoryError(
      'not_found',
      'That change is not in the journal (it may have been pruned or forgotten).',
    );
  return r;
}

const text = (b: Buffer | null): string | null => (b === null ? null : b.toString('utf8'));

export async function diffOf(store: MemoryStore, id: string): Promise<DiffResult> {
  const r = mustGet(store, id);
  const before = text(await store.wal.blob(r.before));
  const after = text(await store.wal.blob(r.after));
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
export async function revertEntry(
  store: MemoryStore,
  id: string,
  actor: Actor,
): Promise<{ journalId: string }> {
  const first = mustGet(store, id);
  const group = first.batch ? store.wal.entries.filter((r) => r.batch === first.batch) : [first];
  const paths = group.flatMap((r) => (r.newPath ? [r.path, r.newPath] : [r.path]));
  return store.guard(first.path, () =>
    store.exclusive(paths, async () => {
      type Step =
        | { kind: 'move'; r: JournalRecord }
        | { kind: 'content'; r: JournalRecord; target: Buffer | null; cur: Buffer | null };
      const steps: Step[] = [];
      for (const r of [...group].reverse()) {
        if (r.newPath) {
          if (
            !(await lstatOrNull(store.hostOf(segsOf(r.newPath)))) ||
            (await lstatOrNull(store.hostOf(segsOf(r.path))))
          )
            throw new MemoryError(
              'conflict',
              `Cannot undo the rename: ${r.newPath} is gone or ${r.path} is taken again.`,
            );
          steps.push({ kind: 'move', r });
          continue;
        }
        if (r.before === null && r.after === null)
          throw new MemoryError('conflict', 'That change (a removed link or empty folder) cannot be undone.');
        const cur = await store.current(parsed(r.path));
        const target = await store.wal.blob(r.before);
        if (r.before !== null && !target)
          throw new MemoryError(
            'not_found',
            'The earlier content of that change is no longer in the journal.',
          );
        if ((cur?.hash ?? null) === r.after) {
          steps.push({ kind: 'content', r, target, cur: cur?.bytes ?? null });
          continue;
        }
        // The file moved on: try to take back just this change's lines.
        const before = text(target);
        const after = text(await store.wal.blob(r.after));
        const merged =
          cur && before !== null && after !== null
            ? applyPatch(cur.bytes.toString('utf8'), structuredPatch(r.path, r.path, after, before))
            : false;
        if (merged === false)
          throw new MemoryError(
            'conflict',
            `${r.path} changed after that edit and the edit cannot be undone cleanly. Open the history to compare.`,
          );
        steps.push({ kind: 'content', r, target: Buffer.from(merged, 'utf8'), cur: cur!.bytes });
      }
      const records: JournalRecord[] = [];
      const blobs = new Map<string, Buffer>();
      for (const s of steps) {
        if (s.kind === 'move') {
          records.push(
            store.record(actor, 'revert', s.r.newPath!, s.r.after, s.r.after, {
              newPath: s.r.path,
              revertOf: s.r.id,
            }),
          );
        } else {
          const beforeHash = s.cur ? sha256(s.cur) : null;
          const afterHash = s.target ? sha256(s.target) : null;
          if (s.cur) blobs.set(beforeHash!, s.cur);
          if (s.target) {
            store.checkQuota(s.cur?.length ?? 0, s.target.length);
            blobs.set(afterHash!, s.target);
          }
          records.push(store.record(actor, 'revert', s.r.path, beforeHash, afterHash, { revertOf: s.r.id }));
        }
      }
      await store.commit(records, blobs);
      for (const [i, s] of steps.entries()) {
        if (s.kind === 'move') {
          const dst = parsed(s.r.path);
          await ensureFolders(store.root, store.tree.diskSegments(dst.segments).slice(0, -1), () => dst.path);
          const from = store.hostOf(segsOf(s.r.newPath!));
          const to = store.hostOf(dst.segments);
          await fsp.rename(from, to);
          const node = store.tree.remove(segsOf(s.r.newPath!));
          if (node) store.tree.set(dst.segments, node);
          store.noteDirty(path.dirname(from));
          store.noteDirty(path.dirname(to));
        } else if (s.target) await store.put(parsed(s.r.path), s.target, records[i]!.after!);
        else {
          const host = store.hostOf(segsOf(s.r.path));
          await fsp.unlink(host);
          store.tree.remove(segsOf(s.r.path));
          store.noteDirty(path.dirname(host));
        }
        store.emitRecord(records[i]!);
      }
      return { journalId: records[0]!.id };
    }),
  );
}

export function listDeleted(store: MemoryStore): JournalEntry[] {
  const seen = new Set<string>();
  const out: JournalEntry[] = [];
  for (const r of [...store.wal.entries].reverse()) {
    if (seen.has(r.path)) continue;
    seen.add(r.path);
    if (r.after !== null || r.before === null || r.newPath || !store.wal.hasBlob(r.before)) continue;
    if (store.tree.get(segsOf(r.path))) continue;
    out.push(toPublicEntry(store, r));
  }
  return out;
}

export async function restoreEntry(
  store: MemoryStore,
  id: string,
  actor: Actor,
): Promise<{ journalId: string }> {
  const r = mustGet(store, id);
  if (r.after !== null || r.before === null || r.newPath)
    throw new MemoryError('invalid_input', 'Only a deleted file can be restored.');
  const p = parseMemoryPath(r.path);
  return store.guard(p.path, () =>
    store.exclusive([p.path], async () => {
      if (await lstatOrNull(store.hostOf(p.segments)))
        throw new MemoryError('exists', `${p.path} exists again; rename or delete it before restoring.`);
      const bytes = await store.wal.blob(r.before);
      if (!bytes) throw new MemoryError('not_found', 'The content of that file is no longer in the journal.');
      await store.preflightNew(p);
      store.checkQuota(0, bytes.length);
      const rec = store.record(actor, 'restore', p.path, null, r.before, { revertOf: r.id });
      await store.commitAndPut([rec], new Map(), p, bytes, r.before!);
      store.emitRecord(rec);
      return { journalId: rec.id };
    }),
  );
}

/**
 * Remove a file or folder and every journal entry that names it or any name it had before a rename. What
 * is erased is written down first (forget-intent.ts) and returned, so the app can erase its own copies;
 * `resume` finishes a forget whose intent a crash left behind (it writes no new intent).
 */
export async function forgetPath(
  store: MemoryStore,
  input: string,
  resume?: ForgetTrace,
): Promise<ForgetTrace> {
  const p = parseMemoryPath(input);
  if (p.segments.length === 0)
    throw new MemoryError('root', `Cannot forget the ${ROOT} directory itself; forget its files.`);
  return store.guard(p.path, () =>
    store.exclusive([p.path], async () => {
      const names = namesOf(store, p.path);
      for (const n of resume?.paths ?? []) names.add(n);
      const touches = (x: string | undefined): boolean =>
        x !== undefined && [...names].some((n) => isWithin(x, n));
      const host = store.hostOf(p.segments);
      const trace = resume ?? (await writeForgetIntent(store, p.path, names, host));
      crashPoint('forget-after-intent');
      const st = await lstatOrNull(host);
      if (st) {
        await store.assertRealParent(p.segments);
        await fsp.rm(host, { recursive: true, force: true });
        // The folder it left is fsynced before the rewritten journal (which ends in a checkpoint) lands.
        store.noteDirty(path.dirname(host));
      }
      store.tree.remove(p.segments);
      for (const key of [...store.lastRead.keys()]) if (touches(key)) store.lastRead.delete(key);
      await store.wal.rewrite((r) => !touches(r.path) && !touches(r.newPath));
      await removeRewriteLeftovers(store);
      // An earlier delete of this file may still sit in the trash (put there by any process): no trace is
      // left there either.
      await store.trash.empty(true);
      await saveState(store);
      const done = await markMemoryDone(store, trace);
      store.emit({ actor: 'user', command: 'forget', path: p.path });
      return done;
    }),
  );
}
