// The index builds of opened spaces wait until no space has opened for a while, run one at a time, stop
// when a space opens again (the rest follow once it is quiet), and a space closed first never builds.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { IdleWarmer } from '../../../electron/core/spaces/idle-warm.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function job(log: string[], name: string, ms = 100) {
  return () => {
    log.push(`start ${name}`);
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        log.push(`end ${name}`);
        resolve();
      }, ms),
    );
  };
}

it('waits for quiet, runs one build at a time, and yields to a space opening meanwhile', async () => {
  const warmer = new IdleWarmer(2_000, () => Date.now());
  const log: string[] = [];
  warmer.busy();
  warmer.add(job(log, 'a'));
  await vi.advanceTimersByTimeAsync(1_500);
  warmer.busy();
  warmer.add(job(log, 'b'));
  warmer.add(job(log, 'c'));
  await vi.advanceTimersByTimeAsync(1_900);
  expect(log).toEqual([]);
  await vi.advanceTimersByTimeAsync(150);
  expect(log).toEqual(['start a']);
  warmer.busy(); // a switch while a builds: b and c wait for quiet again
  await vi.advanceTimersByTimeAsync(100);
  expect(log).toEqual(['start a', 'end a']);
  await vi.advanceTimersByTimeAsync(1_850);
  expect(log).toEqual(['start a', 'end a']);
  await vi.advanceTimersByTimeAsync(100);
  expect(log).toEqual(['start a', 'end a', 'start b']);
  await vi.advanceTimersByTimeAsync(200);
  expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
});

it('a build taken off the queue, or a stopped warmer, never runs; a failed build does not stop the rest', async () => {
  const warmer = new IdleWarmer(1_000, () => Date.now());
  const log: string[] = [];
  const cancel = warmer.add(job(log, 'closed'));
  warmer.add(() => Promise.reject(new Error('unreadable')));
  warmer.add(job(log, 'next'));
  cancel();
  await vi.advanceTimersByTimeAsync(1_200);
  expect(log).toEqual(['start next', 'end next']);
  warmer.add(job(log, 'late'));
  warmer.stop();
  await vi.advanceTimersByTimeAsync(5_000);
  expect(log).toEqual(['start next', 'end next']);
});
