// A child process for the trash test, run from dist/: opens the real backend on a data folder, deletes one
// conversation through the handler the window calls, says so, and waits to be killed (SIGKILL) before
// the Undo could come, so its close (which empties the trash) never runs. With --start instead of an id,
// it only starts (lists the conversations, as a window or a CLI run does first), says so, and closes.
//   node dist/test/integration/agent/trash-worker.js <dataDir> <conversation id | --start>
import { createCore } from '../../../electron/core/create-core.js';
import { testHost } from './harness.js';

async function main(): Promise<void> {
  const [dataDir, id] = process.argv.slice(2);
  const core = await createCore({ dataDir: dataDir!, host: testHost, env: process.env });
  if (id === '--start') {
    await core.handlers['conversations.list']({}, { clientId: 'worker' });
    process.stdout.write('started\n');
    await core.close();
    return;
  }
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
