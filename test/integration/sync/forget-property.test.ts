// The forget-everywhere property (test/faults/forget-property.ts) on one fixed seed: three devices, a
// random interleaving of edits, permanent forgets, conflicts and syncs. `npm run test:faults` runs it
// longer, on new seeds.
import { expect, it } from 'vitest';
import { runForgetProperty } from '../../faults/forget-property.js';

it(
  'a forgotten line never comes back on any device nor on the remote, and nothing else is lost',
  { timeout: 180_000 },
  async () => {
    const result = await runForgetProperty({ seed: 20261206, steps: 45 });
    expect(result.violations).toEqual([]);
    // The run did what it is for: it forgot, synced and kept lines.
    expect(result.summary).toMatch(/\(\d+ edits, [1-9]\d* forgets, \d+ syncs/);
    expect(result.summary).toMatch(/, [1-9]\d* of \d+ lines forgotten/);
  },
);
