// Whole-file saves and creation through the user API (the panel's editor, import). The tool's create
// goes through createFile too; str_replace and insert live in tool.ts.
import { checkContent, checkName, checkSecrets, checkText, sha256 } from './content.js';
import { MemoryError } from './errors.js';
import { lstatOrNull } from './fs-safe.js';
import type { MemoryStore } from './memory.js';
import { parseMemoryPath, ROOT } from './paths.js';
import type { Actor, BaseVersion, ChangeResult } from './types.js';

export async function writeFile(
  store: MemoryStore,
  input: string,
  content: string,
  baseVersion: BaseVersion,
  actor: Actor,
): Promise<ChangeResult> {
  const p = parseMemoryPath(input);
  if (p.segments.length === 0)
    throw new MemoryError('not_a_file', `${ROOT} is the memory folder, not a file.`);
  checkText(p.path, content, store.limits);
  return store.guard(p.path, () =>
    store.exclusive([p.path], async () => {
      const cur = await store.current(p);
      const mine = Buffer.from(content, 'utf8');
      const hash = sha256(mine);
      if (baseVersion !== 'any' && (baseVersion === null ? cur !== null : cur?.hash !== baseVersion)) {
        throw new MemoryError(
          'conflict',
          cur
            ? `${p.path} changed since you opened it. Compare both versions and save again.`
            : `${p.path} was deleted since you opened it.`,
          {
            path: p.path,
            current: cur ? cur.bytes.toString('utf8') : null,
            currentVersion: cur?.hash ?? null,
            mine: content,
          },
        );
      }
      // The panel's editor, a forgotten fact, an approved review and an import all save here: scanned against
      // what is on disk now, so only the lines this save changes are checked.
      checkSecrets(p.path, cur ? cur.bytes.toString('utf8') : '', content);
      if (!cur) checkName(p.path);
      if (!cur) await store.preflightNew(p);
      store.checkQuota(cur?.size ?? 0, mine.length);
      const rec = store.record(
        actor,
        actor.kind === 'import' ? 'import' : cur ? 'write' : 'create',
        p.path,
        cur?.hash ?? null,
        hash,
      );
      const blobs = new Map<string, Buffer>([[hash, mine]]);
      if (cur) blobs.set(cur.hash, cur.bytes);
      await store.commitAndPut([rec], blobs, p, mine, hash);
      store.emitRecord(rec);
      await store.maybePrune();
      return { version: hash, journalId: rec.id };
    }),
  );
}

export async function createFile(
  store: MemoryStore,
  input: string,
  content: string,
  actor: Actor,
): Promise<ChangeResult> {
  const p = parseMemoryPath(input);
  if (p.segments.length === 0)
    throw new MemoryError('exists', `${ROOT} already exists (it is the memory folder).`);
  checkContent(p.path, content, store.limits);
  return store.guard(p.path, () =>
    store.exclusive([p.path], async () => {
      const st = await lstatOrNull(store.hostOf(p.segments));
      if (st) throw new MemoryError('exists', `File ${p.path} already exists`);
      await store.preflightNew(p);
      const mine = Buffer.from(content, 'utf8');
      const hash = sha256(mine);
      store.checkQuota(0, mine.length);
      const rec = store.record(actor, 'create', p.path, null, hash);
      await store.commitAndPut([rec], new Map([[hash, mine]]), p, mine, hash);
      store.emitRecord(rec);
      await store.maybePrune();
      return { version: hash, journalId: rec.id };
    }),
  );
}
