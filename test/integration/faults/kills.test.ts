// The short fault run of `npm test` (the long one: `npm run test:faults`): the real backend in a child
// process, killed with SIGKILL at random moments of a random mix of chats, memory writes by the model and
// the user, renames, deletes, reviews and compactions, every fourth round with the disk filling up. After
// each kill the restart must hold only complete files that the journal knows, every acknowledged write,
// and a valid request for every conversation. One fixed seed and one random seed, both printed.
import { afterEach, describe, expect, it } from 'vitest';
import { type FaultRunResult, removeDataDir, runFaults } from '../../faults/harness.js';

let last: FaultRunResult | undefined;
afterEach(async () => {
  if (last && last.expectations.violations.length === 0) await removeDataDir(last);
  last = undefined;
});

async function run(seed: number, kills: number): Promise<void> {
  last = await runFaults({ kills, seed });
  console.log(last.summary);
  const violations = last.expectations.violations.map((v) => `${v.kind}: ${v.detail}`);
  expect(
    violations,
    `${last.summary}\nreplay: FAULTS_SEED=${seed} FAULTS_KILLS=${kills} npm run test:faults; data folder and log kept at ${last.dataDir}`,
  ).toEqual([]);
  expect(last.kills).toBe(kills);
}

describe('kill -9 at random moments', () => {
  it('loses nothing acknowledged, tears no file and bricks no conversation (fixed seed)', async () => {
    await run(20261201, 24);
  }, 300_000);

  it('the same with a random seed', async () => {
    const seed = Math.floor(Math.random() * 2 ** 31);
    console.log(`fault seed ${seed}`);
    await run(seed, 16);
  }, 300_000);
});
