// A process killed between making a conversation's lock folder and writing its pid inside (two synchronous
// calls, microseconds apart) leaves a lock with no owner. The fault suite hit it about once in 100 kills:
// the conversation then stayed "answering in another window" for the lock's stale window after a restart.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockFile, lockPathOf } from '../../../electron/core/conversations/lock.js';

let dir: string;
beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'mnemo-orphan-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('a conversation lock without an owner', () => {
  it('is cleared at once when it is older than any live creation can be', async () => {
    const file = path.join(dir, 'c.jsonl');
    mkdirSync(lockPathOf(file));
    const past = new Date(Date.now() - 3_000);
    utimesSync(lockPathOf(file), past, past);
    const lock = await lockFile(file, { waitMs: 0 });
    expect(lock).not.toBeNull();
    await lock!.release();
  });

  it('is left alone while it may still be being created', async () => {
    const file = path.join(dir, 'c.jsonl');
    mkdirSync(lockPathOf(file));
    expect(await lockFile(file, { waitMs: 0 })).toBeNull();
  });

  // writeFileSync creates the record before it writes the pid: a kill between the two leaves it empty.
  it('with an empty owner record is cleared once older than any live creation can be, not before', async () => {
    const file = path.join(dir, 'c.jsonl');
    mkdirSync(lockPathOf(file));
    writeFileSync(path.join(lockPathOf(file), 'pid'), '');
    expect(await lockFile(file, { waitMs: 0 })).toBeNull();
    const past = new Date(Date.now() - 3_000);
    utimesSync(lockPathOf(file), past, past);
    const lock = await lockFile(file, { waitMs: 0 });
    expect(lock).not.toBeNull();
    await lock!.release();
  });

  it('with a garbled owner record is left to go stale, not taken', async () => {
    const file = path.join(dir, 'c.jsonl');
    mkdirSync(lockPathOf(file));
    writeFileSync(path.join(lockPathOf(file), 'pid'), 'not a pid');
    const past = new Date(Date.now() - 3_000);
    utimesSync(lockPathOf(file), past, past);
    expect(await lockFile(file, { waitMs: 0 })).toBeNull();
  });

  it('is taken by a writer that was already waiting, once it is old enough', async () => {
    const file = path.join(dir, 'c.jsonl');
    mkdirSync(lockPathOf(file));
    // Young at first; kept 1 s old later on, never near the stale window: only the owner check frees it.
    const timer = setInterval(() => {
      const past = new Date(Date.now() - 1_000);
      try {
        utimesSync(lockPathOf(file), past, past);
      } catch {
        // taken meanwhile
      }
    }, 20);
    try {
      const lock = await lockFile(file, { waitMs: 1_500 });
      expect(lock).not.toBeNull();
      await lock!.release();
    } finally {
      clearInterval(timer);
    }
  });
});
