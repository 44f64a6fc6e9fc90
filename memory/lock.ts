// Serialisation of writes. Inside one process: a per-path queue (operations on overlapping paths run in
// arrival order, so the agent's and the user's edits never interleave) and a mutex around the commit.
// Across processes (the desktop app and a CLI run on one data folder): proper-lockfile's mkdir lock, held
// only while a change is journaled and applied.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import lockfile from 'proper-lockfile';
import { isWithin } from './paths.js';

/** Runs tasks so that two tasks whose path sets overlap (one path equal to or inside another) never overlap in time. */
export class PathQueue {
  private pending: { paths: readonly string[]; done: Promise<void> }[] = [];

  run<T>(paths: readonly string[], task: () => Promise<T>): Promise<T> {
    const before = this.pending
      .filter((p) => p.paths.some((a) => paths.some((b) => isWithin(a, b) || isWithin(b, a))))
      .map((p) => p.done);
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const entry = { paths, done };
    this.pending.push(entry);
    const result = Promise.all(before).then(task);
    void result
      .catch(() => undefined)
      .finally(() => {
        this.pending.splice(this.pending.indexOf(entry), 1);
        finish();
      });
    return result;
  }
}

/** An in-process mutex chained on promises. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

const STALE_MS = 5000;

/** The data folder's memory lock, shared by every process that opens the same data folder. */
export class ProcessLock {
  private readonly mutex = new Mutex();
  private readonly lockDir: string;
  private compromised = false;

  constructor(private readonly journalDir: string) {
    this.lockDir = path.join(journalDir, 'lock');
  }

  /**
   * A process killed while holding the lock leaves it behind until it goes stale (5 s). At startup we can
   * do better: if the pid recorded in the lock is not alive on this machine, the lock is removed at once.
   */
  async clearDeadOwner(): Promise<void> {
    try {
      const pid = Number(await fsp.readFile(path.join(this.lockDir, 'pid'), 'utf8'));
      if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) return;
      const tomb = `${this.lockDir}.dead-${process.pid}-${Date.now()}`;
      await fsp.rename(this.lockDir, tomb);
      await fsp.rm(tomb, { recursive: true, force: true });
    } catch {
      // No lock, no pid file, or someone else cleared it first: nothing to do.
    }
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    return this.mutex.run(async () => {
      const release = await lockfile.lock(this.journalDir, {
        lockfilePath: this.lockDir,
        realpath: false,
        stale: STALE_MS,
        retries: { retries: 2000, factor: 1.3, minTimeout: 2, maxTimeout: 40, randomize: true },
        onCompromised: () => {
          // Another process took over a lock it judged stale (we were blocked for > 5 s). Keep going: the
          // journal catch-up before each change still detects its writes.
          this.compromised = true;
        },
      });
      const pidFile = path.join(this.lockDir, 'pid');
      try {
        await fsp.writeFile(pidFile, String(process.pid)).catch(() => undefined);
        return await task();
      } finally {
        // proper-lockfile removes its lock with rmdir, so the folder must be empty again.
        await fsp.unlink(pidFile).catch(() => undefined);
        await release().catch(() => undefined);
      }
    });
  }

  get wasCompromised(): boolean {
    return this.compromised;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}
