// The short fault run with a random seed (printed, and named in any failure so it can be replayed); see
// kills.test.ts.
import { describe, it } from 'vitest';
import { expectNoViolations } from './kill-run.js';

describe('kill -9 at random moments (random seed)', () => {
  it('loses nothing acknowledged, tears no file and bricks no conversation', async () => {
    const seed = Math.floor(Math.random() * 2 ** 31);
    console.log(`fault seed ${seed}`);
    await expectNoViolations(seed, 20);
  }, 300_000);
});
