// Plans for rename and delete, of files and whole folders. A folder operation journals one entry per file
// (one batch), so a single file can be restored and the whole operation can be undone.
import { randomId } from './ids.js';
import { checkName, sha256 } from './content.js';
import { assertRealParent, cachedHash, preflightNew } from './checks.js';
import { MemoryError } from './errors.js';
import { linkError, lstatOrNull, readRegular, readRegularSync } from './fs-safe.js';
import type { JournalRecord } from './journal.js';
import type { Kernel } from './kernel.js';
import { isWithin, joinModel, parseMemoryPath, ROOT } from './paths.js';
import { scanDir, type DirNode } from './tree.js';
import type { Actor } from './types.js';

/** Every regular file below a folder on disk, with its bytes (links inside are skipped, never followed). */
async function filesUnder(
  k: Kernel,
  segments: readonly string[],
): Promise<{ segments: string[]; bytes: Buffer }[]> {
  const dir = await scanDir(k.hostOf(segments), false);
  const out: { segments: string[]; bytes: Buffer }[] = [];
  const walk = async (node: DirNode, segs: string[]): Promise<void> => {
    for (const [name, child] of [...node.children].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const s = [...segs, name];
      if (child.kind === 'dir') await walk(child, s);
      else if (child.kind === 'file') {
        const { bytes } = await readRegular(k.hostOf(s), k.realRoot, joinModel(s));
        out.push({ segments: s, bytes });
      }
    }
  };
  if (dir) await walk(dir, [...segments]);
  return out;
}

export async function deletePath(k: Kernel, input: string, actor: Actor): Promise<{ journalId: string }> {
  const p = parseMemoryPath(input);
  if (p.segments.length === 0) throw new MemoryError('root', `Cannot delete the ${ROOT} directory itself`);
  return k.transact({
    paths: [p.path],
    errorPath: p.path,
    async prepare() {
      const host = k.hostOf(p.segments);
      // Metadata checks are synchronous system calls of microseconds (lstatOrNull says why).
      const st = lstatOrNull(host);
      if (!st) throw new MemoryError('not_found', `The path ${p.path} does not exist`);
      assertRealParent(k, p.segments);
      const records: JournalRecord[] = [];
      const blobs = new Map<string, Buffer>();
      if (st.isDirectory()) {
        const batch = randomId();
        for (const f of await filesUnder(k, p.segments)) {
          const hash = sha256(f.bytes);
          blobs.set(hash, f.bytes);
          records.push(k.record(actor, 'delete', joinModel(f.segments), hash, null, { batch }));
        }
        if (records.length === 0) records.push(k.record(actor, 'delete', p.path, null, null, { batch }));
      } else if (st.isFile() && st.nlink === 1) {
        // The content must be in the journal (restorable); skip reading it when the journal holds it already.
        let hash = cachedHash(k, p.segments, st);
        if (!hash || !k.wal.hasBlob(hash)) {
          const { bytes } = readRegularSync(host, k.realRoot, p.path);
          hash = sha256(bytes);
          blobs.set(hash, bytes);
        }
        records.push(k.record(actor, 'delete', p.path, hash, null));
      } else {
        // A planted symbolic or hard link: remove the link itself; nothing outside is read or touched.
        records.push(k.record(actor, 'delete', p.path, null, null));
      }
      return {
        records,
        blobs,
        steps: [{ kind: 'remove', path: p, folder: st.isDirectory() }],
        result: { journalId: records[0]!.id },
      };
    },
  });
}

export async function renamePath(
  k: Kernel,
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
  return k.transact({
    paths: [src.path, dst.path],
    errorPath: src.path,
    async prepare() {
      const srcHost = k.hostOf(src.segments);
      // Metadata checks are synchronous system calls of microseconds (lstatOrNull says why).
      const st = lstatOrNull(srcHost);
      if (!st) throw new MemoryError('not_found', `The path ${src.path} does not exist`);
      if (st.isSymbolicLink()) throw linkError(src.path, 'symbolic');
      if (st.isFile() && st.nlink > 1) throw linkError(src.path, 'hard');
      if (!st.isFile() && !st.isDirectory())
        throw new MemoryError('link', `${src.path} is not a regular file or folder.`);
      const checks = (): void => {
        assertRealParent(k, src.segments);
        // Never overwrite: checked under the lock, so no writer of this data folder can slip in between.
        if (lstatOrNull(k.hostOf(dst.segments)))
          throw new MemoryError('exists', `The destination ${dst.path} already exists`);
        // The folders the destination shares with the source were checked by assertRealParent.
        let shared = 0;
        while (shared < src.segments.length - 1 && src.segments[shared] === dst.segments[shared]) shared++;
        preflightNew(k, dst, src.path, shared);
      };
      // A file's move: checked while its record syncs (Change.verify), since recovery's redo of one
      // refuses a taken destination or a link on the way just the same (recovery.ts cannotMove). A folder's
      // is a record per file, which that rule does not cover as one: checked before.
      if (st.isDirectory()) checks();
      const records: JournalRecord[] = [];
      if (st.isDirectory()) {
        const batch = randomId();
        for (const f of k.tree.files(src.segments)) {
          const rel = f.segments.slice(src.segments.length);
          const hash = f.node.hash ?? null;
          records.push(
            k.record(actor, 'rename', joinModel(f.segments), hash, hash, {
              newPath: joinModel([...dst.segments, ...rel]),
              batch,
            }),
          );
        }
        if (records.length === 0)
          records.push(k.record(actor, 'rename', src.path, null, null, { newPath: dst.path, batch }));
      } else {
        // Not in the cache: a file this process has not seen there, whose folders are checked first.
        let hash = cachedHash(k, src.segments, st);
        if (!hash) {
          assertRealParent(k, src.segments);
          hash = sha256(readRegularSync(srcHost, k.realRoot, src.path).bytes);
        }
        records.push(k.record(actor, 'rename', src.path, hash, hash, { newPath: dst.path }));
      }
      const first = records[0]!;
      return {
        records,
        steps: [{ kind: 'move', from: src, to: dst }],
        ...(st.isDirectory() ? {} : { verify: checks }),
        // One event for the whole move, folder or file.
        events: [
          {
            actor: actor.kind,
            command: 'rename',
            path: src.path,
            newPath: dst.path,
            journalId: first.id,
            ...(first.conversationId ? { conversationId: first.conversationId } : {}),
          },
        ],
        result: { journalId: first.id },
      };
    },
  });
}
