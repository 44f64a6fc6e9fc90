// Crash-safe steps of the space registry: a file replaced whole (temp, fsync, rename, folder fsync) and a
// folder renamed into place (then both folders fsynced). After a crash at any point each file is its old or
// its new version and each folder is where it was or where it went; the temp names start with "." so a
// listing never sees them, and the next change under the lock removes them.
import { constants, promises as fsp } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

export const TEMP_PREFIX = '.tmp-';

const crashAt = process.env.MNEMO_CRASH_AT;

/** Test hook (test/integration/spaces/crash.test.ts): SIGKILL this process when it reaches `name`. */
export function spaceCrashPoint(name: string): void {
  if (crashAt === name) process.kill(process.pid, 'SIGKILL');
}

export async function fsyncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await fsp.open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') return; // Windows: folders cannot be opened
    throw error;
  }
  try {
    await handle.sync().catch((error: NodeJS.ErrnoException) => {
      // Some file systems cannot sync a folder; nothing better can be done there.
      if (!['EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'EPERM'].includes(error.code ?? '')) throw error;
    });
  } finally {
    await handle.close();
  }
}

/** Writes `data` to a new file and syncs it (0600, must not exist). */
export async function writeSynced(file: string, data: string): Promise<void> {
  const handle = await fsp.open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Replaces `file` whole: a reader (or a restart) sees the old content or the new, never a mix. */
export async function replaceFile(file: string, data: string, crashName = 'space-json'): Promise<void> {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `${TEMP_PREFIX}${path.basename(file)}-${randomBytes(4).toString('hex')}`);
  try {
    await writeSynced(tmp, data);
    spaceCrashPoint(`${crashName}-before-rename`);
    await fsp.rename(tmp, file);
  } catch (error) {
    await fsp.rm(tmp, { force: true });
    throw error;
  }
  spaceCrashPoint(`${crashName}-after-rename`);
  await fsyncDir(dir);
}

/** Renames a folder and syncs both parents, so the move survives a power cut. */
export async function moveFolder(from: string, to: string): Promise<void> {
  await fsp.rename(from, to);
  await fsyncDir(path.dirname(to));
  if (path.dirname(from) !== path.dirname(to)) await fsyncDir(path.dirname(from));
}

/** Removes what an interrupted change left in `dir` (names starting with the temp prefix). */
export async function removeTemps(dir: string, prefix = TEMP_PREFIX): Promise<void> {
  const names = await fsp.readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((n) => n.startsWith(prefix))
      .map((n) => fsp.rm(path.join(dir, n), { recursive: true, force: true })),
  );
}
