// `npm run test:faults`: the long fault run (FAULTS_KILLS kills, default 400; FAULTS_SEED to replay one).
// Prints `N kills, 0 bricked conversations, 0 torn files, 0 lost acknowledged writes` and exits 1 on any
// violation, listing each with the seed of its round.
import { removeDataDir, runFaults } from './harness.js';

const kills = Number(process.env.FAULTS_KILLS ?? 400);
const seed = process.env.FAULTS_SEED ? Number(process.env.FAULTS_SEED) : Math.floor(Math.random() * 2 ** 31);
process.stdout.write(`fault suite: ${kills} kills, seed ${seed} (FAULTS_SEED=${seed} replays it)\n`);
const result = await runFaults({ kills, seed, log: (line) => process.stdout.write(`  ${line}\n`) });
process.stdout.write(`${result.summary}\n`);
if (result.expectations.violations.length > 0) {
  process.stdout.write(`data folder kept for inspection: ${result.dataDir}\n`);
  process.exitCode = 1;
} else await removeDataDir(result);
