// Serialisation of writes. Inside one process: a per-path queue (operations on overlapping paths run in
// arrival order, so the agent's and the user's edits never interleave) and a mutex around the commit.
// Across processes (the desktop app and a CLI run on one data folder): proper-lockfile's mkdir lock, held
// only while a change is journaled and applied.
import * as fs from 'node:fs';
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
    // Nothing to wait for (the usual case): start now, not a turn of the microtask queue later.
    const result = before.length === 0 ? start(task) : Promise.all(before).then(task);
    const settle = (): void => {
      this.pending.splice(this.pending.indexOf(entry), 1);
      finish();
    };
    result.then(settle, settle);
    return result;
  }
}

/** `task()`, with a synchronous throw turned into a rejection. */
function start<T>(task: () => Promise<T>): Promise<T> {
  try {
    return task();
  } catch (err) {
    return Promise.reject(err);
  }
}

/** An in-process mutex chained on promises. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  /** Tasks queued or running whose end the tail has not passed yet. */
  private queued = 0;
  run<T>(task: () => Promise<T>): Promise<T> {
    if (this.queued++ === 0) {
      // Idle (every earlier task has ended): start the task now rather than after the tail. The tail is
      // in place first, so that a task queued while this one starts waits for its end.
      let open!: () => void;
      this.tail = new Promise<void>((resolve) => (open = resolve));
      const ended = (): void => {
        this.queued--;
        open();
      };
      const result = start(task);
      result.then(ended, ended);
      return result;
    }
    const result = this.tail.then(task);
    const ended = (): void => {
      this.queued--;
    };
    this.tail = result.then(ended, ended);
    return result;
  }
}

const STALE_MS = 5000;
/** A lock folder without its owner record, older than this, was left by a creator that died making it. */
const ORPHAN_MS = 500;
const IDLE_MS = 10;
const MAX_HOLD_MS = 100;
const COOLDOWN_MS = 15;
/** Waits for a lock held by another process: up to about 2.5 minutes (the lock goes stale after 5 s). */
const LOCK_ATTEMPTS = 5000;

/**
 * The file system proper-lockfile uses: its mkdir writes the owner record (`lock.pid` beside the folder:
 * pid, and the new folder's inode and birth time) in the same synchronous step as the folder. Written
 * after the lock was taken, asynchronously, it left a gap in which a killed holder's lock named no live
 * owner of its folder, and every restart after such a kill waited for the lock to go stale (5 s; the
 * fault suite hit it in one restart out of ten). Beside the lock, not inside: proper-lockfile watches the
 * folder's mtime. Temp + rename: a reader sees the old record or the new one, never half of one.
 */
const lockFs = {
  ...fs,
  mkdir(dir: string, callback: (error: NodeJS.ErrnoException | null) => void): void {
    let failure: NodeJS.ErrnoException | null = null;
    try {
      fs.mkdirSync(dir);
      try {
        const st = fs.statSync(dir);
        const tmp = `${dir}.pid.${process.pid}`;
        fs.writeFileSync(tmp, `${process.pid} ${st.ino} ${st.birthtimeMs}`);
        fs.renameSync(tmp, `${dir}.pid`);
      } catch (error) {
        // No record, no lock (a full disk): a lock without its record is taken for a dead creator's.
        fs.rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    } catch (error) {
      failure = error as NodeJS.ErrnoException;
    }
    process.nextTick(callback, failure);
  },
};

/** The data folder's memory lock, shared by every process that opens the same data folder. */
export class ProcessLock {
  private readonly mutex = new Mutex();
  private readonly lockDir: string;
  private readonly pidFile: string;
  private compromised = false;
  private release: (() => Promise<void>) | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  /** A task holds the lease now (the idle timer then leaves it alone). */
  private busy = false;
  private heldSince = 0;
  private cooldownUntil = 0;

  constructor(private readonly journalDir: string) {
    this.lockDir = path.join(journalDir, 'lock');
    this.pidFile = path.join(journalDir, 'lock.pid');
  }

  /**
   * A process killed while holding the lock leaves it behind until it goes stale (5 s). At startup we can
   * do better: if the pid recorded for the lock is not alive on this machine, the lock is removed at once.
   * The record names the folder it was written for (inode and birth time): a record for another folder, or
   * none, means the folder's creator has not written it yet, or was killed between the two (they are made
   * in one synchronous step, microseconds apart, and a record that cannot be written removes the folder).
   * So such a lock is removed once it is older than ORPHAN_MS, and left alone before (the fault suite saw
   * about one restart in 100 wait the whole stale window for one).
   */
  async clearDeadOwner(): Promise<void> {
    try {
      const dir = await fsp.stat(this.lockDir);
      const owner = await fsp.readFile(this.pidFile, 'utf8').then(parseOwner, () => null);
      if (owner && sameFolder(owner, dir)) {
        if (owner.pid === process.pid || isAlive(owner.pid)) return;
      } else if (Date.now() - Math.min(dir.mtimeMs, dir.ctimeMs) <= ORPHAN_MS) return;
      const tomb = `${this.lockDir}.dead-${process.pid}-${Date.now()}`;
      await fsp.rename(this.lockDir, tomb);
      // Another starter may have cleared it first and a live process made a new one meanwhile: put it back.
      if ((await fsp.stat(tomb)).ino !== dir.ino) {
        await fsp.rename(tomb, this.lockDir).catch(() => undefined);
        return;
      }
      await fsp.rm(tomb, { recursive: true, force: true });
    } catch {
      // No lock, or someone else cleared it first: nothing to do.
    }
  }

  /**
   * Run `task` holding the lock. The lock is kept as a short lease (released after IDLE_MS without work,
   * or after MAX_HOLD_MS of continuous work, then a pause so another process gets its turn): taking it
   * costs several file-system calls, and a burst of writes should not pay that for every write.
   * `fresh` tells the task whether another process may have written since we last held it.
   */
  run<T>(task: (fresh: boolean) => Promise<T>): Promise<T> {
    return this.mutex.run(async () => {
      let fresh = false;
      if (!this.release) {
        const wait = this.cooldownUntil - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        this.release = await this.acquire();
        this.heldSince = Date.now();
        fresh = true;
      }
      this.busy = true;
      try {
        return await task(fresh);
      } finally {
        this.busy = false;
        if (Date.now() - this.heldSince > MAX_HOLD_MS) {
          await this.releaseNow();
          this.cooldownUntil = Date.now() + COOLDOWN_MS;
        } else if (this.idleTimer) {
          // One timer per lease, restarted after each task (a new timer per write cost more than it).
          this.idleTimer.refresh();
        } else {
          this.idleTimer = setTimeout(() => this.idle(), IDLE_MS);
          this.idleTimer.unref();
        }
      }
    });
  }

  /** IDLE_MS after the last task: give the lease back, unless a task is running (its end restarts it). */
  private idle(): void {
    if (this.busy) return;
    void this.mutex.run(() => this.releaseNow());
  }

  /**
   * Takes the lock, waiting while another process holds it. Only "held by someone else" is worth waiting
   * for: any other failure (a full disk refusing the lock's folder, a read-only data folder) is thrown at
   * once, where proper-lockfile's own retries would repeat it 5,000 times (minutes of a frozen change).
   */
  private async acquire(): Promise<() => Promise<void>> {
    let delay = 2;
    let checked = Date.now();
    for (let attempt = 0; ; attempt++) {
      // While waiting, look again every 100 ms whether the holder died (a restart can come within
      // ORPHAN_MS of the kill that left the lock; waiting out the stale window costs 5 s).
      if (attempt > 0 && Date.now() - checked >= 100) {
        checked = Date.now();
        await this.clearDeadOwner();
      }
      try {
        return await lockfile.lock(this.journalDir, {
          lockfilePath: this.lockDir,
          realpath: false,
          stale: STALE_MS,
          retries: 0,
          fs: lockFs,
          onCompromised: () => {
            // Another process judged our lock stale (we were blocked for > 5 s) and took it; drop ours
            // and take it again for the next change, with a fresh catch-up of the journal.
            this.compromised = true;
            this.release = undefined;
          },
        });
      } catch (error) {
        if ((error as { code?: string }).code !== 'ELOCKED' || attempt >= LOCK_ATTEMPTS) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, delay * (1 + Math.random())));
      delay = Math.min(delay * 1.3, 30);
    }
  }

  /**
   * Run `task` in the in-process mutex without taking the cross-process lock (readers catching up with the
   * journal). `stale` is false while we hold the lease: then nobody else can have written.
   */
  runLocal<T>(task: (stale: boolean) => Promise<T>): Promise<T> {
    return this.mutex.run(() => task(!this.release));
  }

  /** Give the lock back now (close, or idle). */
  async releaseNow(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const release = this.release;
    this.release = undefined;
    if (!release) return;
    await release().catch(() => undefined);
  }

  /** Release the lease and wait for queued work (close()). */
  async shutdown(): Promise<void> {
    await this.mutex.run(() => this.releaseNow());
  }

  get wasCompromised(): boolean {
    return this.compromised;
  }
}

interface Owner {
  pid: number;
  ino: number;
  birth: number;
}

/** `pid ino birthtimeMs`; anything else (an old pid-only record, a torn file) is not an owner. */
function parseOwner(text: string): Owner | undefined {
  const [pid, ino, birth] = text.trim().split(' ').map(Number);
  if (!Number.isInteger(pid) || pid! <= 0 || !Number.isFinite(ino) || !Number.isFinite(birth))
    return undefined;
  return { pid: pid!, ino: ino!, birth: birth! };
}

/** The record was written for this very folder; without a birth time (some file systems) we cannot tell. */
function sameFolder(owner: Owner, dir: { ino: number; birthtimeMs: number }): boolean {
  return owner.birth > 0 && owner.ino === dir.ino && owner.birth === dir.birthtimeMs;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}
