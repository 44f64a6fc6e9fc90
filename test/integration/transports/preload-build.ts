// Builds the preload bundle with the project's own config (vite.preload.config.ts) into a temp folder, once
// per test file, so the tests check what `npm run build:node` produces without depending on a prior build.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';

let built: Promise<string> | undefined;

export function buildPreload(): Promise<string> {
  built ??= (async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), 'mnemo-preload-'));
    await build({
      configFile: path.resolve('vite.preload.config.ts'),
      logLevel: 'silent',
      build: { outDir },
    });
    return path.join(outDir, 'preload.cjs');
  })();
  return built;
}
