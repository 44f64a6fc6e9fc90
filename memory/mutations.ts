// Rename and delete, for files and whole folders. A folder operation journals one entry per file (one
// batch), so a single file can be restored and the whole operation can be undone.
import { renameSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { MemoryError } from './errors.js';
import { ensureFolders, linkError, lstatOrNull, readRegular } from './fs-safe.js';
import type { JournalRecord } from './journal.js';
import { checkName, sha256 } from './content.js';
import type { MemoryStore } from './memory.js';
import { isWithin, joinModel, parseMemoryPath, ROOT } from './paths.js';
import { scanDir, type DirNode } from './tree.js';
import type { Actor } from './types.js';

/** Every regular file below a folder on disk, with its bytes (links inside are skipped, never followed). */
async function filesUnder(
  store: MemoryStore,
  segments: readonly string[],
): Promise<{ segments: string[]; bytes: Buffer }[]> {
  const dir = await scanDir(store.hostOf(segments), false);
  const out: { segments: string[]; bytes: Buffer }[] = [];
  const walk = async (node: DirNode, segs: string[]): Promise<void> => {
    for (const [name, child] of [...node.children].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const s = [...segs, name];
      if (child.kind === 'dir') await walk(child, s);
      else if (child.kind === 'file') {
        const { bytes } = await readRegular(store.hostOf(s), store.realRoot, joinModel(s));
        out.push({ segments: s, bytes });
      }
    }
  };
  if (dir) await walk(dir, [...segments]);
  return out;
}

export async function deletePath(
  store: MemoryStore,
  input: string,
  actor: Actor,
): Promise<{ journalId: string }> {
  const p = parseMemoryPath(input);
  if (p.segments.length === 0) throw new MemoryError('root', `Cannot delete the ${ROOT} directory itself`);
  return store.guard(p.path, () =>
    store.exclusive([p.path], async () => {
      const host = store.hostOf(p.segments);
      // Metadata checks are synchronous system calls of microseconds (lstatOrNull says why).
      const st = await lstatOrNull(host);
      if (!st) throw new MemoryError('not_found', `The path ${p.path} does not exist`);
      await store.assertRealParent(p.segments);
      const records: JournalRecord[] = [];
      const blobs = new Map<string, Buffer>();
      if (st.isDirectory()) {
        const batch = randomBytes(6).toString('hex');
        const files = await filesUnder(store, p.segments);
        for (const f of files) {
          const hash = sha256(f.bytes);
          blobs.set(hash, f.bytes);
          records.push(store.record(actor, 'delete', joinModel(f.segments), hash, null, { batch }));
        }
        if (records.length === 0) records.push(store.record(actor, 'delete', p.path, null, null, { batch }));
      } else if (st.isFile() && st.nlink === 1) {
        // The content must be in the journal (restorable); skip reading it when the journal holds it already.
        let hash = store.cachedHash(p.segments, st);
        if (!hash || !store.wal.hasBlob(hash)) {
          const { bytes } = await readRegular(host, store.realRoot, p.path);
          hash = sha256(bytes);
          blobs.set(hash, bytes);
        }
        records.push(store.record(actor, 'delete', p.path, hash, null));
      } else {
        // A planted symbolic or hard link: remove the link itself; nothing outside is read or touched.
        records.push(store.record(actor, 'delete', p.path, null, null));
      }
      await store.commit(records, blobs);
      await store.trash.take(host, st.isDirectory());
      store.tree.remove(p.segments);
      store.noteDirty(path.dirname(host));
      for (const r of records) store.emitRecord(r);
      await store.maybePrune();
      return { journalId: records[0]!.id };
    }),
  );
}

export async function renamePath(
  store: MemoryStore,
  from: string,
  to: string,
  actor: Actor,
): Promise<{ journalId: string }> {
  const src = parseMemoryPath(from);
  const dst = parseMemoryPath(to);
  if (src.segments.length === 0) throw new MemoryError('root', `Cannot rename the ${ROOT} directory itself`);
  if (dst.segments.length === 0) throw new MemoryError('exists', `The destination ${ROOT} already exists`);
  if (src.path === dst.path) throw new MemoryError('exists', `The destination ${dst.path} already exists`);
  if (isWithin(dst.path, src.path))
    throw new MemoryError('invalid_input', `Cannot move ${src.path} into itself (${dst.path}).`);
  checkName(dst.path);
  return store.guard(src.path, () =>
    store.exclusive([src.path, dst.path], async () => {
      const srcHost = store.hostOf(src.segments);
      const dstHost = store.hostOf(dst.segments);
      // Metadata checks are synchronous system calls of microseconds (lstatOrNull says why).
      const st = await lstatOrNull(srcHost);
      if (!st) throw new MemoryError('not_found', `The path ${src.path} does not exist`);
      await store.assertRealParent(src.segments);
      if (st.isSymbolicLink()) throw linkError(src.path, 'symbolic');
      if (st.isFile() && st.nlink > 1) throw linkError(src.path, 'hard');
      if (!st.isFile() && !st.isDirectory())
        throw new MemoryError('link', `${src.path} is not a regular file or folder.`);
      // Never overwrite: checked under the lock, so no writer of this data folder can slip in between.
      if (await lstatOrNull(dstHost))
        throw new MemoryError('exists', `The destination ${dst.path} already exists`);
      await store.preflightNew(dst, src.path);
      const records: JournalRecord[] = [];
      if (st.isDirectory()) {
        const batch = randomBytes(6).toString('hex');
        for (const f of store.tree.files(src.segments)) {
          const rel = f.segments.slice(src.segments.length);
          const hash = f.node.hash ?? null;
          records.push(
            store.record(actor, 'rename', joinModel(f.segments), hash, hash, {
              newPath: joinModel([...dst.segments, ...rel]),
              batch,
            }),
          );
        }
        if (records.length === 0)
          records.push(store.record(actor, 'rename', src.path, null, null, { newPath: dst.path, batch }));
      } else {
        const hash =
          store.cachedHash(src.segments, st) ??
          sha256((await readRegular(srcHost, store.realRoot, src.path)).bytes);
        records.push(store.record(actor, 'rename', src.path, hash, hash, { newPath: dst.path }));
      }
      // The destination's folders are made while the journal syncs (an empty folder is harmless if the
      // journal fails); the rename itself waits for both.
      const dstDisk = store.tree.diskSegments(dst.segments);
      const folders = ensureFolders(store.root, dstDisk.slice(0, -1), (n) =>
        joinModel(dst.segments.slice(0, n)),
      );
      folders.catch(() => undefined); // awaited below; no unhandled rejection while the journal syncs
      await store.commit(records, new Map());
      const dirHost = await folders;
      // A rename is a metadata change like the checks: synchronous (lstatOrNull says why).
      renameSync(srcHost, path.join(dirHost, dstDisk[dstDisk.length - 1]!));
      const node = store.tree.remove(src.segments);
      if (node) store.tree.set(dst.segments, node);
      store.noteDirty(path.dirname(srcHost));
      store.noteDirty(dirHost);
      const first = records[0]!;
      store.emit({
        actor: actor.kind,
        command: 'rename',
        path: src.path,
        newPath: dst.path,
        journalId: first.id,
        ...(first.conversationId ? { conversationId: first.conversationId } : {}),
      });
      return { journalId: first.id };
    }),
  );
}
