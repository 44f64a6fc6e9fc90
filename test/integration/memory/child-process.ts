// Shared by the multi-process and crash tests: the compiled worker and a build of dist/ before they run.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '../../..');
export const worker = path.join(root, 'dist/test/integration/memory/process-worker.js');

export async function buildDist(): Promise<void> {
  // Errors in files other engineers are editing do not stop tsc -b from emitting ours.
  await promisify(execFile)('npx', ['tsc', '-b', 'tsconfig.node.json'], { cwd: root }).catch(() => undefined);
}
