// The records' timestamps: the cached second plus milliseconds must read exactly as toISOString writes them.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { now } from '../../../electron/core/agent/session.js';

describe('now()', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('equals Date.prototype.toISOString at any instant, across seconds and in any order', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // Instants from 1970 to 9999, visited in random order (the cache must follow jumps back and forth).
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 253_402_300_799_999 }), { minLength: 1 }),
        (instants) => {
          for (const ms of instants) {
            vi.setSystemTime(ms);
            expect(now()).toBe(new Date(ms).toISOString());
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('follows the milliseconds within one second and the step into the next', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.UTC(2026, 10, 30, 23, 59, 59, 0);
    for (const offset of [0, 1, 9, 10, 99, 100, 998, 999, 1000, 1001]) {
      vi.setSystemTime(start + offset);
      expect(now()).toBe(new Date(start + offset).toISOString());
    }
  });
});
