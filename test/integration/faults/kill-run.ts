// Shared by the short fault runs: one run of the suite, its summary printed, every violation listed with
// the line that replays it.
import { expect } from 'vitest';
import { type FaultRunResult, removeDataDir, runFaults } from '../../faults/harness.js';

export async function expectNoViolations(seed: number, kills: number): Promise<void> {
  const result: FaultRunResult = await runFaults({ kills, seed });
  console.log(result.summary);
  const violations = result.expectations.violations.map((v) => `${v.kind}: ${v.detail}`);
  // Each violation in the message itself: the assertion's own rendering of a long array is its length.
  expect(
    violations,
    [
      result.summary,
      ...violations,
      `replay: FAULTS_SEED=${seed} FAULTS_KILLS=${kills} npm run test:faults; ` +
        `data folder and the workers' log kept at ${result.dataDir}(.log)`,
    ].join('\n'),
  ).toEqual([]);
  expect(result.kills).toBe(kills);
  await removeDataDir(result);
}
