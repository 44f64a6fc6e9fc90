// The data folder's lock is held as a short lease across consecutive writes, and given back within its
// hold limit even while a writer keeps going: another process (here a second memory on the same data
// folder, with its own lock holder) gets its turn during a burst instead of after it, and the lease is
// released soon after the last write, so the other one does not wait on an idle holder.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import lockfile from 'proper-lockfile';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemory, type Memory } from '../../../memory/index.js';

let base: string | undefined;
const open: Memory[] = [];
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const m of open.splice(0)) await m.close();
  if (base) await rm(base, { recursive: true, force: true });
  base = undefined;
});

async function two(): Promise<[Memory, Memory]> {
  base = await mkdtemp(path.join(os.tmpdir(), 'mnemo-lease-'));
  const dataDir = path.join(base, 'data');
  const a = await createMemory({ dataDir, watch: false });
  const b = await createMemory({ dataDir, watch: false });
  open.push(a, b);
  return [a, b];
}

describe('the lock lease', () => {
  it("another holder's writes get in during a continuous burst, not after it", async () => {
    const [a, b] = await two();
    const CAP = 3000;
    let burst = 0;
    let stop = false;
    const running = (async () => {
      while (!stop && burst < CAP) await a.write('/memories/burst.md', `write ${burst++}\n`, 'any');
    })();
    await a.write('/memories/burst.md', 'first\n', 'any'); // a holds the lease now
    const seenAt: number[] = [];
    for (let i = 0; i < 5; i++) {
      await b.write(`/memories/other-${i}.md`, `from b ${i}\n`, null);
      seenAt.push(burst);
    }
    stop = true;
    await running;
    // Every write of b finished while a was still writing: none waited for the burst to end.
    expect(seenAt.every((n) => n < CAP)).toBe(true);
    expect(burst).toBeLessThan(CAP);
    expect((await a.list()).map((e) => e.path)).toContain('/memories/other-4.md');
  }, 60_000);

  it('after the last write the lease is given back: the other holder writes without waiting for a close', async () => {
    const [a, b] = await two();
    for (let i = 0; i < 20; i++) await a.write('/memories/a.md', `a ${i}\n`, 'any');
    // a stays open and idle; b must get the lock (a's lease ended shortly after its last write).
    await b.write('/memories/b.md', 'b\n', null);
    expect((await b.read('/memories/a.md')).content).toBe('a 19\n');
    expect((await a.read('/memories/b.md')).content).toBe('b\n');
  }, 30_000);

  it('a flush leaves nothing scheduled that takes the lock again; a change after it does', async () => {
    // Timers faked from the start: the deferred checkpoint and the lease's idle release are both timers.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    base = await mkdtemp(path.join(os.tmpdir(), 'mnemo-lease-'));
    const m = await createMemory({ dataDir: path.join(base, 'data'), watch: false });
    open.push(m);
    const lockDir = path.join(m.journalDir, 'lock');
    // The lease given back (its release removes the lock's folder): a lock taken from then on is a new one.
    const released = () => vi.waitFor(() => expect(existsSync(lockDir)).toBe(false));
    await m.write('/memories/a.md', 'a\n', null);
    m.touchRead(['/memories/a.md']);
    await m.flush();
    await released();
    const taken = vi.spyOn(lockfile, 'lock');
    // Well past the deferred checkpoint and the state save the write and the read scheduled: either
    // would take the lock as soon as its timer fired.
    await vi.advanceTimersByTimeAsync(60_000);
    // A list waits in the same queue as every holder of the lock: what a timer queued has asked for it.
    await m.list();
    expect(taken).not.toHaveBeenCalled();

    await m.write('/memories/b.md', 'b\n', null);
    await released();
    taken.mockClear();
    await vi.advanceTimersByTimeAsync(60_000);
    await m.list();
    // The deferred checkpoint of that change took the lock by itself.
    expect(taken).toHaveBeenCalled();
  }, 30_000);
});
