// The short fault run of `npm test` (the long one: `npm run test:faults`): the real backend in a child
// process, killed with SIGKILL at random moments of a random mix of chats, memory writes by the model and
// the user, renames, deletes, reviews and compactions, every fourth round with the disk filling up. After
// each kill the restart must hold only complete files that the journal knows, every acknowledged write,
// and a valid request for every conversation. This file: a fixed seed; kills-random.test.ts: a new one
// each time (printed). Two files, so the two runs share the machine's two cores.
import { describe, it } from 'vitest';
import { expectNoViolations } from './kill-run.js';

describe('kill -9 at random moments (fixed seed)', () => {
  it('loses nothing acknowledged, tears no file and bricks no conversation', async () => {
    await expectNoViolations(20261201, 20);
  }, 300_000);
});
