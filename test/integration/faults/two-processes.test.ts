// The app's backend and the CLI (run again and again with --continue) drive one data folder, one
// conversation and one memory file at once for a few seconds (30 s in `npm run test:faults`): no
// acknowledged record lost, no invalid request, no hang.
import { describe, expect, it } from 'vitest';
import { runTwoProcesses } from '../../faults/two-processes.js';

describe('two processes on one conversation', () => {
  it('lose no record, send no invalid request and never hang', async () => {
    const result = await runTwoProcesses({ ms: 6_000 });
    console.log(result.summary);
    expect(result.problems, result.summary).toEqual([]);
    expect(result.cliRuns).toBeGreaterThan(0);
    expect(result.appAcked).toBeGreaterThan(0);
  }, 180_000);
});
