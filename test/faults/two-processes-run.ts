// The long two-process run of `npm run test:faults` (TWO_PROCESSES_MS, default 30 s).
import { runTwoProcesses } from './two-processes.js';

const ms = Number(process.env.TWO_PROCESSES_MS ?? 30_000);
const result = await runTwoProcesses({ ms });
for (const p of result.problems) process.stdout.write(`  ${p}\n`);
process.stdout.write(`${result.summary}\n`);
if (result.problems.length > 0) process.exitCode = 1;
