// Shared by the multi-process and crash tests: the compiled worker (dist/ is emitted by `npm test`'s
// typecheck step, or `npm run test:integration`'s build, before vitest runs). These files never build
// dist/ themselves, so they cannot race another test file reading it; they refuse to run old code.
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');
export const worker = path.join(root, 'dist/test/integration/memory/process-worker.js');

/** Throws a clear message when a memory source is newer than its compiled file (or was never compiled). */
export function assertDistFresh(): void {
  const sources = [
    ...readdirSync(path.join(root, 'memory'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `memory/${f}`),
    'test/integration/memory/process-worker.ts',
  ];
  const stale = sources.filter((rel) => {
    const out = path.join(root, 'dist', rel.replace(/\.ts$/, '.js'));
    return !existsSync(out) || statSync(out).mtimeMs < statSync(path.join(root, rel)).mtimeMs;
  });
  if (stale.length > 0)
    throw new Error(
      `dist/ is older than ${stale.slice(0, 3).join(', ')}${stale.length > 3 ? ' ...' : ''}: ` +
        'run `npx tsc -b tsconfig.node.json` (npm test does it) before these tests.',
    );
}
