// File-system primitives that never follow a link out of the root and never leave a half-written file.
import {
  close,
  closeSync,
  constants,
  fdatasync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  promises as fsp,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { randomId } from './ids.js';
import * as path from 'node:path';
import { MemoryError } from './errors.js';

/**
 * fdatasync through the thread pool. node:fs is looked up at each call (not bound once at import), so a
 * wrapper installed later (the benchmark's sync counter, the tests' power-cut layer) sees every call.
 */
export function datasync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve())));
}

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
  name:
    | 'after-journal'
    | 'after-temp-write'
    | 'after-rename'
    | 'forget-after-intent'
    | 'forget-after-memory'
    | 'purge-before-swap'
    | 'purge-mid-swap',
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
function realPathOf(fd: number, hostPath: string): string {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return path.join(realpathSync(path.dirname(hostPath)), path.basename(hostPath));
  }
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function openError(err: unknown, modelPath: string): unknown {
  const code = (err as { code?: string }).code;
  if (code === 'ELOOP') return linkError(modelPath, 'symbolic');
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new MemoryError('not_found', `The path ${modelPath} does not exist. Please provide a valid path.`);
  return err;
}

/** What must hold of an opened file before it is read: a regular file, one link, really inside the root. */
function checkOpened(fd: number, stat: Stats, hostPath: string, rootReal: string, modelPath: string): void {
  if (stat.isDirectory())
    throw new MemoryError('not_a_file', `The path ${modelPath} is a folder, not a file.`);
  if (!stat.isFile()) throw new MemoryError('link', `${modelPath} is not a regular file.`);
  if (stat.nlink > 1) throw linkError(modelPath, 'hard');
  if (!realPathOf(fd, hostPath).startsWith(rootReal + path.sep)) throw linkError(modelPath, 'symbolic');
}

/**
 * Read a regular file inside the root: O_NOFOLLOW on the last component, the descriptor's real path must be
 * inside the real root (so no linked parent folder leads outside), and a file with more than one hard link
 * is refused (it may be a name for a file outside the root). Asynchronous: for what is read outside a
 * change (view, read, scans), where the file may have to come from the disk.
 */
export async function readRegular(
  hostPath: string,
  rootReal: string,
  modelPath: string,
): Promise<{ bytes: Buffer; stat: Stats }> {
  let handle;
  try {
    handle = await fsp.open(hostPath, READ_FLAGS);
  } catch (err) {
    throw openError(err, modelPath);
  }
  try {
    const stat = await handle.stat();
    checkOpened(handle.fd, stat, hostPath, rootReal, modelPath);
    // One byte more than fstat reported: a read that fills it means the file grew while we read.
    let bytes = Buffer.allocUnsafe(stat.size + 1);
    let got = 0;
    for (;;) {
      const { bytesRead } = await handle.read(bytes, got, bytes.length - got, got);
      if (bytesRead === 0) break;
      got += bytesRead;
      if (got === bytes.length) bytes = Buffer.concat([bytes, Buffer.alloc(Math.max(4096, got))]);
    }
    return { bytes: bytes.subarray(0, got), stat };
  } finally {
    await handle.close();
  }
}

/**
 * readRegular for a change's own read of the file it replaces, under the lock (current(), a delete's or a
 * rename's content): the same checks as synchronous calls. That file is in the page cache (at most the
 * per-file cap, and usually just read or written), where open, fstat, readlink, read and close take
 * microseconds each; through the thread pool they were five round trips, a third of a str_replace's cost
 * beyond its one disk sync (bench/memory).
 */
export function readRegularSync(
  hostPath: string,
  rootReal: string,
  modelPath: string,
  /** Takes the open descriptor over (Kernel.holdReplaced) instead of its being closed here. */
  keep?: (fd: number) => boolean,
): { bytes: Buffer; stat: Stats } {
  let fd: number;
  try {
    fd = openSync(hostPath, READ_FLAGS);
  } catch (err) {
    throw openError(err, modelPath);
  }
  try {
    const stat = fstatSync(fd);
    checkOpened(fd, stat, hostPath, rootReal, modelPath);
    let bytes = Buffer.allocUnsafe(stat.size + 1);
    let got = 0;
    for (;;) {
      const n = readSync(fd, bytes, got, bytes.length - got, got);
      if (n === 0) break;
      got += n;
      if (got === bytes.length) bytes = Buffer.concat([bytes, Buffer.alloc(Math.max(4096, got))]);
    }
    if (keep?.(fd)) fd = -1;
    return { bytes: bytes.subarray(0, got), stat };
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

/**
 * Closes a descriptor through the thread pool, off the caller's path. For the file a change replaced
 * (Kernel.holdReplaced): its last close is what frees it.
 */
export function closeLater(fd: number): void {
  close(fd, () => undefined);
}

/**
 * Make sure every folder from the root down to `segments` exists as a real folder (not a link), creating
 * missing ones with mode 0700. Returns the host path of the deepest folder. Synchronous: see lstatOrNull.
 */
export function ensureFolders(
  root: string,
  segments: readonly string[],
  modelPathOf: (n: number) => string,
): string {
  let current = root;
  for (let i = 0; i < segments.length; i++) {
    current = path.join(current, segments[i]!);
    let st = lstatSync(current, { throwIfNoEntry: false });
    if (!st) {
      try {
        mkdirSync(current, { mode: DIR_MODE });
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
 * (ensureFolders, the parents' lstat, the read of the file a change replaces): on the app's own data
 * folder one takes microseconds, while a round trip through the thread pool costs tens, and the four
 * checks of a rename made that way cost ~200 µs against ~30 µs (bench/memory). What waits for the disk
 * (syncs), reads outside a change and whole-tree scans stay asynchronous.
 */
export function lstatOrNull(hostPath: string): Stats | undefined {
  try {
    // No exception for a missing path: making one (its stack) cost more than the system call.
    return lstatSync(hostPath, { throwIfNoEntry: false });
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOTDIR') return undefined;
    throw err;
  }
}

/**
 * Step one of an atomic replace: a temp file in the target's folder (O_EXCL, O_NOFOLLOW, 0600), without a
 * sync of its own (the journal's append is the change's one sync; README "Durability"). Open, write, stat
 * and close are page-cache operations and run synchronously (see lstatOrNull).
 */
export function writeTemp(dir: string, data: Buffer): { tmp: string; stat: Stats } {
  const tmp = path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomId()}`);
  const fd = openSync(
    tmp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    FILE_MODE,
  );
  let open = true;
  try {
    writeFileSync(fd, data);
    const stat = fstatSync(fd);
    open = false; // never closed twice: the number may already belong to a file another thread opened
    closeSync(fd);
    return { tmp, stat };
  } catch (err) {
    if (open) closeQuietly(fd);
    unlinkQuietly(tmp);
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
export function renameTemp(tmp: string, target: string): void {
  try {
    renameSync(tmp, target); // a metadata change: synchronous, like the checks
  } catch (err) {
    unlinkQuietly(tmp);
    throw err;
  }
  crashPoint('after-rename');
}

/** Remove a file we made (a temp file); one that is gone already is fine, startup removes any left. */
export function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already, or left for startup's removal of temp files
  }
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
