// Cross-process locks on conversation files: the desktop app, browser mode and CLI runs may open one data
// folder, and each keeps the conversations in memory. Whoever appends to a file holds its lock, and first
// reads what others appended since (store.ts's catch-up), so the file stays one valid history.
//
// proper-lockfile (as memory/lock.ts uses it): an atomic mkdir of `<file>.lock` beside the file, whose
// mtime the holder refreshes every STALE_MS / 2; a holder that died (SIGKILL, power cut) leaves a lock
// that anyone may take once it is STALE_MS old. Locks are released on a normal exit by its signal-exit.
import lockfile from 'proper-lockfile';

/** What a run in another process makes a second run, or a change, say. */
export const BUSY_MESSAGE = 'This conversation is answering in another window';

const STALE_MS = 10_000;
const RETRY_EVERY_MS = 20;

export interface FileLock {
  /** Gives the lock back (idempotent). */
  release(): Promise<void>;
  /** The lock was taken from us (we were blocked longer than STALE_MS): stop relying on it. */
  readonly lost: boolean;
}

export interface LockOptions {
  /** How long to wait for a holder to let go before giving up (0: one try). */
  waitMs: number;
  /** Told once if the lock is lost while held. */
  onLost?: () => void;
}

export const lockPathOf = (file: string): string => `${file}.lock`;

/** Takes the lock on `file` (which need not exist yet); null when another holder kept it for `waitMs`. */
export async function lockFile(file: string, options: LockOptions): Promise<FileLock | null> {
  let lost = false;
  let release: (() => Promise<void>) | undefined;
  try {
    release = await lockfile.lock(file, {
      lockfilePath: lockPathOf(file),
      realpath: false,
      stale: STALE_MS,
      retries: {
        retries: Math.ceil(options.waitMs / RETRY_EVERY_MS),
        factor: 1,
        minTimeout: RETRY_EVERY_MS,
        maxTimeout: RETRY_EVERY_MS,
        randomize: true,
      },
      onCompromised: () => {
        // The default throws from a timer (a crash); a lost lock is instead dropped and retaken for the
        // next change, with a fresh catch-up.
        lost = true;
        release = undefined;
        options.onLost?.();
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return null;
    throw error;
  }
  return {
    get lost() {
      return lost;
    },
    async release() {
      const r = release;
      release = undefined;
      await r?.().catch(() => undefined);
    },
  };
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
