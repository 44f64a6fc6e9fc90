// A child process for the trash test, run from dist/: opens the real backend on a data folder, deletes one
// conversation through the handler the window calls, says so, and waits to be killed (SIGKILL) before
// the Undo could come, so its close (which empties the trash) never runs.
//   node dist/test/integration/agent/trash-worker.js <dataDir> <conversation id>
import { createCore } from '../../../electron/core/create-core.js';
import { testHost } from './harness.js';

async function main(): Promise<void> {
  const [dataDir, id] = process.argv.slice(2);
  const core = await createCore({ dataDir: dataDir!, host: testHost, env: process.env });
  await core.handlers['conversations.delete']({ id: id! }, { clientId: 'worker' });
  process.stdout.write('deleted\n');
  setInterval(() => undefined, 60_000);
}

if (process.argv[1]?.endsWith('trash-worker.js')) {
  main().catch((err: unknown) => {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  });
}
