// The data folder's lock at startup: a lock left by a dead process is cleared at once, but a lock whose
// owner has not yet written its pid (the gap between proper-lockfile's mkdir and the pid file) is never
// taken for a dead one because the pid file still names the previous owner.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, rmdir, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import lockfile from 'proper-lockfile';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ProcessLock } from '../../../memory/lock.js';

let dir: string;
let lockDir: string;
let pidFile: string;
const releases: (() => Promise<void>)[] = [];

/** The pid of a process that has exited (its number is not reused this quickly). */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '']).pid;
  if (!pid) throw new Error('could not start a child process');
  return pid;
}

/** What the previous owner's record looked like for the folder it held. */
type Previous = (pid: number) => Promise<string>;
const previousOwners: [string, Previous][] = [
  ['a pid-only record (the format before owner records)', (pid) => Promise.resolve(String(pid))],
  [
    'a record for an earlier lock folder, now removed',
    async (pid) => {
      await mkdir(lockDir);
      const st = await stat(lockDir);
      await rmdir(lockDir);
      return `${pid} ${st.ino} ${st.birthtimeMs}`;
    },
  ],
];

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mnemo-lock-'));
  lockDir = path.join(dir, 'lock');
  pidFile = path.join(dir, 'lock.pid');
});
afterEach(async () => {
  for (const release of releases.splice(0)) await release().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('clearDeadOwner', () => {
  test.each(previousOwners)(
    'leaves a live lock alone while its pid file still holds %s',
    async (_name, previous) => {
      await writeFile(pidFile, await previous(deadPid()));
      // Another holder has just made the lock folder (proper-lockfile's mkdir) and not yet written its pid.
      let compromised = false;
      releases.push(
        await lockfile.lock(dir, {
          lockfilePath: lockDir,
          realpath: false,
          stale: 5000,
          onCompromised: () => {
            compromised = true;
          },
        }),
      );
      await new ProcessLock(dir).clearDeadOwner();
      expect((await stat(lockDir)).isDirectory()).toBe(true);
      expect(await lockfile.check(dir, { lockfilePath: lockDir, realpath: false, stale: 5000 })).toBe(true);
      expect(compromised).toBe(false);
    },
  );

  test('clears at once a lock whose recorded owner is dead', async () => {
    await mkdir(lockDir);
    const st = await stat(lockDir);
    await writeFile(pidFile, `${deadPid()} ${st.ino} ${st.birthtimeMs}`);
    await new ProcessLock(dir).clearDeadOwner();
    await expect(stat(lockDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test.each(previousOwners)(
    'clears a lock folder older than any live creation whose pid file still holds %s (its creator died making it)',
    async (_name, previous) => {
      await writeFile(pidFile, await previous(deadPid()));
      await mkdir(lockDir);
      const past = new Date(Date.now() - 3_000);
      await utimes(lockDir, past, past);
      await new ProcessLock(dir).clearDeadOwner();
      await expect(stat(lockDir)).rejects.toMatchObject({ code: 'ENOENT' });
    },
  );

  test('a writer waiting for a lock whose creator died making it takes it without waiting for it to go stale', async () => {
    await mkdir(lockDir);
    // Kept 1 s old: past ORPHAN_MS, never near the 5 s stale window, so only the owner check can free it.
    const keep = (): Promise<void> => {
      const past = new Date(Date.now() - 1_000);
      return utimes(lockDir, past, past).catch(() => undefined);
    };
    await keep();
    const timer = setInterval(() => void keep(), 20);
    try {
      const lock = new ProcessLock(dir);
      await lock.run(() => Promise.resolve());
      await lock.shutdown();
    } finally {
      clearInterval(timer);
    }
  });

  test('a lock taken by ProcessLock records its owner so that a later start can clear it', async () => {
    const lock = new ProcessLock(dir);
    // Looked at from inside a task, while the lease is certainly held: once run() has returned, the
    // lease is given back IDLE_MS after the task, and a test slowed by a loaded machine found the folder
    // already gone.
    const [record, st] = await lock.run(
      async () => [await readFile(pidFile, 'utf8'), await stat(lockDir)] as const,
    );
    const [pid, ino, birth] = record.split(' ').map(Number);
    expect([pid, ino, birth]).toEqual([process.pid, st.ino, st.birthtimeMs]);
    await lock.shutdown();
  });
});

describe('the lease', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** Whether the lock folder goes within 2 s (the lease is given back IDLE_MS = 10 ms after the last task). */
  const givenBack = async (): Promise<boolean> => {
    for (const end = Date.now() + 2000; Date.now() < end; await sleep(10))
      if (
        !(await stat(lockDir).then(
          () => true,
          () => false,
        ))
      )
        return true;
    return false;
  };

  test('is given back after the last task, also when a task outlasted the idle time', async () => {
    const lock = new ProcessLock(dir);
    // The second task is longer than the idle time (10 ms), shorter than the longest hold (100 ms): the
    // idle timer the first one started fires while it runs, and its end must start that timer again.
    await lock.run(() => sleep(1));
    await lock.run(() => sleep(40));
    expect(await givenBack()).toBe(true);
    for (let i = 0; i < 5; i++) await lock.run(() => sleep(2));
    expect(await givenBack()).toBe(true);
    await lock.shutdown();
  });
});
