// Plans that change one file's content: the panel's whole-file save (also forgotten facts, approved reviews
// and import), create (the tool's and the user's), and the tool's str_replace and insert, which are an
// edit of the current text. Each is handed to the kernel's one transaction path.
import { checkContent, checkName, checkSecrets, checkText, decodeUtf8, sha256 } from './content.js';
import { MemoryError } from './errors.js';
import { lstatOrNull } from './fs-safe.js';
import { current, preflightNew } from './checks.js';
import type { Kernel } from './kernel.js';
import { parseMemoryPath, ROOT, type ParsedPath } from './paths.js';
import type { Actor, BaseVersion, ChangeResult } from './types.js';

export async function writeFile(
  k: Kernel,
  input: string,
  content: string,
  baseVersion: BaseVersion,
  actor: Actor,
): Promise<ChangeResult> {
  const p = parseMemoryPath(input);
  if (p.segments.length === 0)
    throw new MemoryError('not_a_file', `${ROOT} is the memory folder, not a file.`);
  checkText(p.path, content, k.limits);
  return k.transact({
    paths: [p.path],
    errorPath: p.path,
    async prepare() {
      const cur = await current(k, p);
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
      if (!cur) preflightNew(k, p);
      const command = actor.kind === 'import' ? 'import' : cur ? 'write' : 'create';
      const rec = k.record(actor, command, p.path, cur?.hash ?? null, hash);
      const blobs = new Map<string, Buffer>([[hash, mine]]);
      if (cur) blobs.set(cur.hash, cur.bytes);
      return {
        records: [rec],
        blobs,
        steps: [{ kind: 'put', path: p, bytes: mine, hash, oldSize: cur?.size ?? 0 }],
        result: { version: hash, journalId: rec.id },
      };
    },
  });
}

export async function createFile(
  k: Kernel,
  input: string,
  content: string,
  actor: Actor,
): Promise<ChangeResult> {
  const p = parseMemoryPath(input);
  if (p.segments.length === 0)
    throw new MemoryError('exists', `${ROOT} already exists (it is the memory folder).`);
  checkContent(p.path, content, k.limits);
  return k.transact({
    paths: [p.path],
    errorPath: p.path,
    async prepare() {
      const st = lstatOrNull(k.hostOf(p.segments));
      if (st) throw new MemoryError('exists', `File ${p.path} already exists`);
      preflightNew(k, p);
      const mine = Buffer.from(content, 'utf8');
      const hash = sha256(mine);
      const rec = k.record(actor, 'create', p.path, null, hash);
      return {
        records: [rec],
        blobs: new Map([[hash, mine]]),
        steps: [{ kind: 'put', path: p, bytes: mine, hash, oldSize: 0 }],
        result: { version: hash, journalId: rec.id },
      };
    },
  });
}

/**
 * An edit of an existing file's text (the tool's str_replace and insert): `change` computes the new text
 * and the tool's reply from the current one, under the lock; `added` is the text the edit brings in.
 */
export async function editFile(
  k: Kernel,
  p: ParsedPath,
  actor: Actor,
  command: string,
  change: (content: string) => { next: string; result: string; added: string },
): Promise<string> {
  if (p.segments.length === 0)
    throw new MemoryError('not_a_file', `The path ${ROOT} is a folder, not a file.`);
  return k.transact({
    paths: [p.path],
    errorPath: p.path,
    async prepare() {
      const cur = await current(k, p);
      if (!cur)
        throw new MemoryError('not_found', `The path ${p.path} does not exist. Please provide a valid path.`);
      const before = decodeUtf8(cur.bytes, p.path);
      const { next, result, added } = change(before);
      checkText(p.path, added, { fileCapBytes: Infinity });
      // The lines this edit changes, as they will read afterwards: a key assembled from pieces is caught,
      // and an old key another program left elsewhere in the file does not block every edit.
      checkSecrets(p.path, before, next);
      const bytes = Buffer.from(next, 'utf8');
      if (bytes.length > k.limits.fileCapBytes)
        throw new MemoryError(
          'too_large',
          `Refused: ${p.path} would be ${bytes.length} bytes, above the ${k.limits.fileCapBytes}-byte limit per file. Nothing was changed.`,
        );
      const hash = sha256(bytes);
      const rec = k.record(actor, command, p.path, cur.hash, hash);
      return {
        records: [rec],
        blobs: new Map([
          [cur.hash, cur.bytes],
          [hash, bytes],
        ]),
        steps: [{ kind: 'put', path: p, bytes, hash, oldSize: cur.size }],
        result,
      };
    },
  });
}
