// A child process for the spaces crash test, run from dist/: one registry change, killed (SIGKILL) by
// MNEMO_CRASH_AT at a named point inside it.
//   node dist/test/integration/spaces/crash-worker.js <dataDir> create <name> | rename <id> <name> |
//     recolour <id> <#rrggbb> | delete <id> | restore <id> | empty
import { SpaceRegistry } from '../../../electron/core/spaces/index.js';

async function main(): Promise<void> {
  const [dataDir, op, a, b] = process.argv.slice(2);
  const registry = new SpaceRegistry(dataDir!);
  if (op === 'create') await registry.create({ name: a! });
  else if (op === 'rename') await registry.rename(a!, b!);
  else if (op === 'recolour') await registry.recolour(a!, b!);
  else if (op === 'delete') await registry.delete(a!);
  else if (op === 'restore') await registry.restore(a!);
  else if (op === 'empty') await registry.emptyTrash(0, Date.now() + 1);
  await registry.close();
  process.stdout.write('done\n');
}

void main();
