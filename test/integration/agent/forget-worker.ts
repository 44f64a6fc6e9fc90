// A child process for the forget crash test, run from dist/: opens the real backend on a data folder and
// forgets one file through the handler the panel calls; MNEMO_CRASH_AT kills it (SIGKILL) on the way.
//   node dist/test/integration/agent/forget-worker.js <dataDir> <memory path>
import { createCore } from '../../../electron/core/create-core.js';
import { testHost } from './harness.js';

async function main(): Promise<void> {
  const [dataDir, target] = process.argv.slice(2);
  const core = await createCore({ dataDir: dataDir!, host: testHost, env: process.env });
  await core.handlers['memory.forget']({ path: target! }, { clientId: 'worker' });
  await core.close();
  process.stdout.write('forgotten\n');
}

if (process.argv[1]?.endsWith('forget-worker.js')) {
  main().catch((err: unknown) => {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  });
}
