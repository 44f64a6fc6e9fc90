// `npm run test:faults` (after the kill runs): the forget-everywhere property on new seeds, longer than
// `npm test`'s fixed one (FORGET_RUNS runs of FORGET_STEPS steps; FORGET_SEED replays one).
import { runForgetProperty } from './forget-property.js';

const runs = Number(process.env.FORGET_RUNS ?? 3);
const steps = Number(process.env.FORGET_STEPS ?? 150);
const first = process.env.FORGET_SEED ? Number(process.env.FORGET_SEED) : Math.floor(Math.random() * 2 ** 31);
let failed = 0;
for (let i = 0; i < runs; i++) {
  const seed = first + i;
  const result = await runForgetProperty({ seed, steps });
  process.stdout.write(`forget property: ${result.summary} (FORGET_SEED=${seed} replays it)\n`);
  for (const v of result.violations) process.stdout.write(`  ${v}\n`);
  if (result.violations.length > 0) failed++;
}
if (failed > 0) process.exitCode = 1;
