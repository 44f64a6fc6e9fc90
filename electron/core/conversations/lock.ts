// Cross-process locks on conversation files: the desktop app, browser mode and CLI runs may open one data
// folder, and each keeps the conversations in memory. Whoever appends to a file holds its lock, and first
// reads what others appended since (store.ts's catch-up), so the file stays one valid history.
//
// proper-lockfile (as memory/lock.ts uses it): an atomic mkdir of `<file>.lock` beside the file, whose
// mtime the holder refreshes every STALE_MS / 2; a holder that died (SIGKILL, power cut) leaves a lock
// that anyone may take once it is STALE_MS old. Locks are released on a normal exit by its signal-exit.
// The holder's pid is written inside the lock folder as part of creating it (before the lock is taken,
// so it never touches the mtime proper-lockfile watches), and a lock whose pid is not alive on this
// machine is cleared at once: a conversation is not "busy" for 10 s after a crash.
import * as fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/** What a run in another process makes a second run, or a change, say. */
export const BUSY_MESSAGE = 'This conversation is answering in another window';

const STALE_MS = 10_000;
const RETRY_EVERY_MS = 20;

export interface FileLock {
  /** Gives the lock back (idempotent). */
  release(): Promise<void>;
  /** The same, at once (a run's end gives its conversation back before it reports run.finished). */
  releaseSync(): void;
  /** The lock was taken from us (we were blocked longer than STALE_MS): stop relying on it. */
  readonly lost: boolean;
  /**
   * Whether it is still ours, looked at now: `lost` is learnt only at the next refresh (every STALE_MS / 2),
   * while a process that was stopped or starved can find another holder's pid, or no lock, at once.
   */
  held(): boolean;
}

export interface LockOptions {
  /** How long to wait for a holder to let go before giving up (0: one try). */
  waitMs: number;
  /** Told once if the lock is lost while held. */
  onLost?: () => void;
}

export const lockPathOf = (file: string): string => `${file}.lock`;

const OWNER_FILE = 'pid';

/**
 * The file system proper-lockfile uses: its mkdir also writes our pid inside the new lock folder (a
 * reader that finds no pid yet treats the lock as live), and its rmdir removes that file with the folder.
 * One object for the process: proper-lockfile caches the mtime precision on it.
 */
const lockFs = {
  ...fs,
  mkdir(dir: string, callback: (error: NodeJS.ErrnoException | null) => void): void {
    // Both synchronous, back to back: a process killed between an asynchronous mkdir and its pid write
    // (the fault suite hit that gap often) left a lock without a pid, which kept the conversation "busy"
    // for STALE_MS after every restart. A pid that cannot be written (a full disk) fails the lock.
    let failure: NodeJS.ErrnoException | null = null;
    try {
      fs.mkdirSync(dir);
      try {
        fs.writeFileSync(path.join(dir, OWNER_FILE), String(process.pid));
      } catch (error) {
        fs.rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    } catch (error) {
      failure = error as NodeJS.ErrnoException;
    }
    process.nextTick(callback, failure);
  },
  rmdir(dir: string, callback: (error: NodeJS.ErrnoException | null) => void): void {
    fs.rm(path.join(dir, OWNER_FILE), { force: true }, () => fs.rmdir(dir, callback));
  },
  rmdirSync(dir: string): void {
    fs.rmSync(path.join(dir, OWNER_FILE), { force: true });
    fs.rmdirSync(dir);
  },
};

/** Takes the lock on `file` (which need not exist yet); null when another holder kept it for `waitMs`. */
export async function lockFile(file: string, options: LockOptions): Promise<FileLock | null> {
  const state = { lost: false, release: undefined as (() => Promise<void>) | undefined };
  const attempt = async (retries: number): Promise<boolean> => {
    try {
      state.release = await lockfile.lock(file, {
        lockfilePath: lockPathOf(file),
        realpath: false,
        stale: STALE_MS,
        fs: lockFs,
        retries: {
          retries,
          factor: 1,
          minTimeout: RETRY_EVERY_MS,
          maxTimeout: RETRY_EVERY_MS,
          randomize: true,
        },
        onCompromised: () => {
          // The default throws from a timer (a crash); a lost lock is instead dropped and retaken for the
          // next change, with a fresh catch-up.
          state.lost = true;
          state.release = undefined;
          options.onLost?.();
        },
      });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return false;
      throw error;
    }
  };
  // While waiting, look again every 100 ms whether the holder died (a restart can come within ORPHAN_MS
  // of the kill that left the lock), rather than waiting out the stale window.
  let taken = (await attempt(0)) || (clearDeadOwner(lockPathOf(file)) && (await attempt(0)));
  for (const deadline = Date.now() + options.waitMs; !taken && Date.now() < deadline;) {
    taken = await attempt(Math.ceil(100 / RETRY_EVERY_MS));
    if (!taken && clearDeadOwner(lockPathOf(file))) taken = await attempt(0);
  }
  if (!taken) return null;
  return {
    get lost() {
      return state.lost;
    },
    held() {
      return !state.lost && state.release !== undefined && ownerOf(lockPathOf(file)) === process.pid;
    },
    async release() {
      const r = state.release;
      state.release = undefined;
      await r?.().catch(() => undefined);
    },
    releaseSync() {
      if (!state.release) return;
      state.release = undefined;
      try {
        lockfile.unlockSync(file, { lockfilePath: lockPathOf(file), realpath: false, fs: lockFs });
      } catch {
        // Already lost or removed: nothing of ours to give back.
      }
    },
  };
}

/**
 * Removes a lock whose recorded holder is not alive on this machine; true if it did. A lock without a pid
 * (being created right now, or from an older version) is left to go stale.
 */
function clearDeadOwner(lockDir: string): boolean {
  // undefined: no pid inside; such a lock is cleared only once its creator must have died (orphaned).
  const pid = ownerOf(lockDir);
  if (pid === undefined) {
    if (!orphaned(lockDir)) return false;
  } else if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || processAlive(pid)) return false;
  const tomb = `${lockDir}.dead-${process.pid}-${Date.now()}`;
  try {
    fs.renameSync(lockDir, tomb);
  } catch {
    return false; // cleared by someone else first
  }
  // Another clearer may have replaced the dead lock with a live one between our read and our rename:
  // then it goes back. (An emptied folder, or the orphan we meant, has no pid.)
  if (ownerOf(tomb) !== pid) {
    try {
      fs.renameSync(tomb, lockDir);
      return false;
    } catch {
      // A new lock exists already: ours to drop.
    }
  }
  fs.rmSync(tomb, { recursive: true, force: true });
  return true;
}

/**
 * The pid recorded inside a lock folder (NaN if garbled), or undefined when there is none. An empty
 * record is none: writeFileSync creates the file before it writes the pid, so a creator killed between
 * the two left it empty, the same gap as a missing record (read as 0, it kept the lock for the whole
 * stale window).
 */
function ownerOf(lockDir: string): number | undefined {
  try {
    const text = fs.readFileSync(path.join(lockDir, OWNER_FILE), 'utf8');
    return text === '' ? undefined : Number(text);
  } catch {
    return undefined;
  }
}

/**
 * A lock folder with no pid inside, older than ORPHAN_MS: its creator makes the folder and writes the pid
 * in two synchronous calls back to back (microseconds apart; a pid that cannot be written removes the
 * folder), so such a folder's creator was killed between them. Left alone it would keep the conversation
 * "busy" for STALE_MS after the restart.
 */
const ORPHAN_MS = 500;
function orphaned(lockDir: string): boolean {
  try {
    const st = fs.statSync(lockDir);
    return Date.now() - Math.min(st.mtimeMs, st.ctimeMs) > ORPHAN_MS;
  } catch {
    return false;
  }
}

/** Whether a process of this pid runs on this machine (one we may not signal does). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs tasks one after another per key (in-process: a lock is held once per process). */
export class KeyedSerial {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
