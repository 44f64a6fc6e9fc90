// The in-process serialisation (lock.ts): the mutex and the per-path queue start an uncontended task at
// once, without waiting for a turn of the microtask queue; exclusion and arrival order must hold all the
// same, including for a task queued while another one is starting.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Mutex, PathQueue } from '../../../memory/lock.js';
import { isWithin } from '../../../memory/paths.js';

const ticks = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

describe('Mutex', () => {
  it('starts an idle task at once, and never runs two tasks together, in arrival order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(4), fc.nat(4), fc.boolean()), { maxLength: 12 }),
        async (plan) => {
          const m = new Mutex();
          let active = 0;
          const started: number[] = [];
          const all = plan.map(([wait, work, fail], i) =>
            ticks(wait).then(() =>
              m
                .run(async () => {
                  expect(active).toBe(0);
                  active++;
                  started.push(i);
                  await ticks(work);
                  active--;
                  if (fail) throw new Error('task failed');
                })
                .catch(() => undefined),
            ),
          );
          await Promise.all(all);
          expect(started).toHaveLength(plan.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a task queued from inside a starting task waits for its end', async () => {
    const m = new Mutex();
    const events: string[] = [];
    let inner: Promise<void> | undefined;
    const outer = m.run(async () => {
      events.push('outer start');
      inner = m.run(async () => void events.push('inner'));
      await ticks(3);
      events.push('outer end');
    });
    // Started synchronously, before any turn of the microtask queue.
    expect(events).toEqual(['outer start']);
    await outer;
    await inner;
    expect(events).toEqual(['outer start', 'outer end', 'inner']);
  });

  it('a task that throws synchronously rejects, and the next one runs', async () => {
    const m = new Mutex();
    await expect(
      m.run(() => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    await expect(m.run(() => Promise.resolve(7))).resolves.toBe(7);
  });
});

describe('PathQueue', () => {
  const paths = ['/memories/a', '/memories/a/x.md', '/memories/b.md', '/memories'];
  it('never overlaps tasks on overlapping paths, and runs them in arrival order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.subarray(paths, { minLength: 1 }), fc.nat(3), fc.boolean()), { maxLength: 10 }),
        async (plan) => {
          const q = new PathQueue();
          const running = new Map<number, readonly string[]>();
          const order: number[] = [];
          const overlap = (a: readonly string[], b: readonly string[]): boolean =>
            a.some((x) => b.some((y) => isWithin(x, y) || isWithin(y, x)));
          const all = plan.map(([ps, work, fail], i) =>
            q
              .run(ps, async () => {
                for (const other of running.values()) expect(overlap(other, ps)).toBe(false);
                running.set(i, ps);
                order.push(i);
                await ticks(work);
                running.delete(i);
                if (fail) throw new Error('task failed');
              })
              .catch(() => undefined),
          );
          await Promise.all(all);
          // Tasks on overlapping paths started in the order they arrived.
          for (let i = 0; i < plan.length; i++)
            for (let j = i + 1; j < plan.length; j++)
              if (overlap(plan[i]![0], plan[j]![0])) expect(order.indexOf(i)).toBeLessThan(order.indexOf(j));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('starts a task with nothing to wait for at once', () => {
    const q = new PathQueue();
    let started = false;
    void q.run(['/memories/a.md'], async () => void (started = true));
    expect(started).toBe(true);
  });
});
