// File-system primitives that never follow a link out of the root and never leave a half-written file.
import {
  closeSync,
  constants,
  fdatasync,
  fstatSync,
  lstatSync,
  openSync,
  promises as fsp,
  renameSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { MemoryError } from './errors.js';

const datasyncFd = promisify(fdatasync);

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;
/** Temp files of an atomic write; startup removes any left by a crash. Names starting with "." are refused as memory paths. */
export const TEMP_PREFIX = '.mnemo-tmp-';

const crashAt = process.env.MNEMO_CRASH_AT;
let crashCountdown = Number(process.env.MNEMO_CRASH_AFTER ?? '0');

/**
 * Test hook for the crash test: with MNEMO_CRASH_AT=<point> the process kills itself (SIGKILL, no cleanup)
 * the (MNEMO_CRASH_AFTER+1)-th time it reaches that point.
 */
export function crashPoint(
  name: 'after-journal' | 'after-temp-write' | 'after-rename' | 'forget-after-intent' | 'forget-after-memory',
): void {
  if (crashAt !== name) return;
  if (crashCountdown-- > 0) return;
  process.kill(process.pid, 'SIGKILL');
}

export function linkError(modelPath: string, what: 'symbolic' | 'hard'): MemoryError {
  return new MemoryError(
    'link',
    `${modelPath} is a ${what} link; links are never followed. Delete it and create a regular file instead.`,
  );
}

/** Linux tells us where an open descriptor really points; elsewhere fall back to the parent's realpath. */
async function realPathOf(fd: number, hostPath: string): Promise<string> {
  try {
    return await fsp.readlink(`/proc/self/fd/${fd}`);
  } catch {
    return path.join(await fsp.realpath(path.dirname(hostPath)), path.basename(hostPath));
  }
}

/**
 * Read a regular file inside the root: O_NOFOLLOW on the last component, the descriptor's real path must be
 * inside the real root (so no linked parent folder leads outside), and a file with more than one hard link
 * is refused (it may be a name for a file outside the root).
 */
export async function readRegular(
  hostPath: string,
  rootReal: string,
  modelPath: string,
): Promise<{ bytes: Buffer; stat: Stats }> {
  let handle;
  try {
    handle = await fsp.open(hostPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ELOOP') throw linkError(modelPath, 'symbolic');
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new MemoryError(
        'not_found',
        `The path ${modelPath} does not exist. Please provide a valid path.`,
      );
    throw err;
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory())
      throw new MemoryError('not_a_file', `The path ${modelPath} is a folder, not a file.`);
    if (!stat.isFile()) throw new MemoryError('link', `${modelPath} is not a regular file.`);
    if (stat.nlink > 1) throw linkError(modelPath, 'hard');
    const real = await realPathOf(handle.fd, hostPath);
    if (!real.startsWith(rootReal + path.sep)) throw linkError(modelPath, 'symbolic');
    // One read of the size fstat reported (FileHandle.readFile would fstat again and read in chunks).
    let bytes = Buffer.allocUnsafe(stat.size);
    let got = 0;
    for (;;) {
      if (got === bytes.length) {
        if ((await handle.read(Buffer.alloc(1), 0, 1, got)).bytesRead === 0) break;
        bytes = Buffer.concat([bytes, Buffer.alloc(Math.max(4096, got))]); // grew while we read
      }
      const { bytesRead } = await handle.read(bytes, got, bytes.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return { bytes: bytes.subarray(0, got), stat };
  } finally {
    await handle.close();
  }
}

/**
 * Make sure every folder from the root down to `segments` exists as a real folder (not a link), creating
 * missing ones with mode 0700. Returns the host path of the deepest folder.
 */
export async function ensureFolders(
  root: string,
  segments: readonly string[],
  modelPathOf: (n: number) => string,
): Promise<string> {
  let current = root;
  for (let i = 0; i < segments.length; i++) {
    current = path.join(current, segments[i]!);
    let st: Stats | undefined;
    try {
      st = lstatSync(current); // synchronous: see lstatOrNull
    } catch (err) {
      if ((err as { code?: string }).code !== 'ENOENT') throw err;
    }
    if (!st) {
      try {
        await fsp.mkdir(current, { mode: DIR_MODE });
        continue;
      } catch (err) {
        if ((err as { code?: string }).code !== 'EEXIST') throw err;
        st = lstatSync(current);
      }
    }
    if (st.isSymbolicLink()) throw linkError(modelPathOf(i + 1), 'symbolic');
    if (!st.isDirectory())
      throw new MemoryError(
        'not_a_folder',
        `${modelPathOf(i + 1)} is a file, so it cannot contain other files.`,
      );
  }
  return current;
}

/**
 * lstat that answers undefined for a missing path. Synchronous, like the other checks on a change's path
 * (ensureFolders, the parent's realpath): on the app's own data folder one takes microseconds, while a round
 * trip through the thread pool costs tens, and the four checks of a rename made that way cost ~200 µs
 * against ~30 µs (bench/memory). Reading, writing and syncing content stay asynchronous, as do whole-tree
 * scans.
 */
export async function lstatOrNull(hostPath: string): Promise<Stats | undefined> {
  try {
    return lstatSync(hostPath);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/**
 * Step one of an atomic replace: a temp file in the target's folder (O_EXCL, O_NOFOLLOW, 0600), fdatasync.
 * Open, write, stat and close are page-cache operations of microseconds and run synchronously (see
 * lstatOrNull); only the sync, which waits for the disk, goes through the thread pool.
 */
export async function writeTemp(
  dir: string,
  data: Buffer,
  sync = true,
): Promise<{ tmp: string; stat: Stats }> {
  const tmp = path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  const fd = openSync(
    tmp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    FILE_MODE,
  );
  let open = true;
  try {
    writeFileSync(fd, data);
    if (sync) await datasyncFd(fd);
    const stat = fstatSync(fd);
    open = false; // never closed twice: the number may already belong to a file another thread opened
    closeSync(fd);
    return { tmp, stat };
  } catch (err) {
    if (open) closeQuietly(fd);
    await fsp.unlink(tmp).catch(() => undefined);
    throw err;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already reported by what failed before.
  }
}

/** Step two: rename over the target. rename() replaces a link at the target and never writes through it. */
export async function renameTemp(tmp: string, target: string): Promise<void> {
  try {
    renameSync(tmp, target); // a metadata change: synchronous, like the checks
  } catch (err) {
    await fsp.unlink(tmp).catch(() => undefined);
    throw err;
  }
  crashPoint('after-rename');
}

/**
 * Atomic replace without a journal step (recovery's redo): temp file, fdatasync, rename. The folder is not
 * fsynced here: the journal entry written before makes the rename redoable (README).
 */
export async function atomicWrite(hostPath: string, data: Buffer, sync = true): Promise<Stats> {
  const { tmp, stat } = await writeTemp(path.dirname(hostPath), data, sync);
  crashPoint('after-temp-write');
  await renameTemp(tmp, hostPath);
  return stat;
}

export async function fsyncDir(dir: string): Promise<void> {
  const handle = await fsp.open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * fsync each folder. One that is gone was itself renamed or deleted (and that change noted its parent);
 * a file system without folder fsync cannot do better. Any other failure hands the folders not yet synced
 * to `unsynced` and throws, so the caller writes no checkpoint over a change that may not be on disk.
 */
export async function fsyncDirs(
  dirs: readonly string[],
  unsynced: (left: readonly string[]) => void,
): Promise<void> {
  for (const [i, d] of dirs.entries()) {
    try {
      await fsyncDir(d);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code && ['ENOENT', 'ENOTDIR', 'EINVAL', 'ENOTSUP', 'EOPNOTSUPP'].includes(code)) continue;
      unsynced(dirs.slice(i));
      throw err;
    }
  }
}

/**
 * fdatasync each file (a checkpoint: the note files replaced since the last one, whose temp files were
 * written without a sync of their own). A file that is gone or is a link now was changed again since; that
 * later change is in the journal and covered by a later checkpoint.
 */
export async function syncFiles(files: readonly string[]): Promise<void> {
  for (const f of files) {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(f, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'EISDIR') continue;
      throw err;
    }
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }
}

/** Remove temp files left by an interrupted write anywhere under the root. Links are not followed. */
export async function removeTempLeftovers(root: string): Promise<number> {
  let removed = 0;
  const walk = async (dir: string): Promise<void> => {
    const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.name.startsWith(TEMP_PREFIX) && e.isFile()) {
        await fsp.unlink(p).catch(() => undefined);
        removed++;
      } else if (e.isDirectory()) await walk(p);
    }
  };
  await walk(root);
  return removed;
}
