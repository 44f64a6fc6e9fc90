// Shared by the multi-process and crash tests: the compiled worker (dist/ is emitted by `npm test`'s
// typecheck step, or `npm run test:integration`'s build, before vitest runs). These files never build
// dist/ themselves, so they cannot race another test file reading it; they refuse to run old code.
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');
export const worker = path.join(root, 'dist/test/integration/memory/process-worker.js');

/**
 * Throws a clear message when the compiled worker or a memory module is missing; only warns when a source
 * is newer than its output, because `tsc -b` leaves an output alone when its source was touched without
 * changing, so an mtime alone cannot prove the build is stale.
 */
export function assertDistFresh(): void {
  const sources = [
    ...readdirSync(path.join(root, 'memory'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => `memory/${f}`),
    'test/integration/memory/process-worker.ts',
  ];
  const output = (rel: string) => path.join(root, 'dist', rel.replace(/\.ts$/, '.js'));
  const missing = sources.filter((rel) => !existsSync(output(rel)));
  if (missing.length > 0) {
    throw new Error(
      `dist/ lacks ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ' ...' : ''}: ` +
        'run `npx tsc -b tsconfig.node.json` (npm test does it) before these tests.',
    );
  }
  const older = sources.filter(
    (rel) => statSync(output(rel)).mtimeMs < statSync(path.join(root, rel)).mtimeMs,
  );
  if (older.length > 0) {
    console.warn(
      `dist/ may be older than ${older.slice(0, 3).join(', ')}: rebuild if these tests misbehave.`,
    );
  }
}
