// The coalescing used for conversations.changed and context.changed: first call soon, then at most one per
// interval, and the last state always delivered.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from '../../../electron/core/throttle.js';

describe('throttle', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls on the next turn the first time, merging calls made in the same tick', () => {
    const fn = vi.fn();
    const schedule = throttle(fn, 100);
    schedule();
    schedule();
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersToNextTimer();
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('calls at most once per interval while calls keep coming, and the last one always follows', () => {
    const fn = vi.fn();
    const schedule = throttle(fn, 100);
    schedule();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    // A burst over 250 ms: one call per 100 ms, not one per schedule().
    for (let t = 0; t < 250; t += 5) {
      schedule();
      vi.advanceTimersByTime(5);
    }
    expect(fn.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(fn.mock.calls.length).toBeLessThanOrEqual(4);
    const before = fn.mock.calls.length;
    schedule();
    vi.advanceTimersByTime(100);
    expect(fn).toHaveBeenCalledTimes(before + 1);
    // Nothing pending: nothing more happens.
    vi.advanceTimersByTime(1_000);
    expect(fn).toHaveBeenCalledTimes(before + 1);
  });

  it('calls on the next turn again once the interval has passed', () => {
    const fn = vi.fn();
    const schedule = throttle(fn, 100);
    schedule();
    vi.advanceTimersByTime(1);
    vi.advanceTimersByTime(500);
    schedule();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(2);
  });
});
