// Each face that Node starts, bundled into as few files as it needs (`npm run build:node`, after tsc): its
// entry (which only checks the Node version, node-check.ts) and one chunk with the rest of what it runs, its
// dependencies included, plus the chunks it imports lazily (work off the first request's path). Reading one
// file instead of some eight hundred modules is most of what a start costs. Entries keep the paths tsc gives
// them, which scripts and tests run; their chunks go to dist/electron/chunks/<face>/, a folder tsc never
// writes, rebuilt whole each time so no stale chunk is left behind.
//
// `npm run build:node` runs this file with Node (`node rolldown.config.ts`), which builds every face and
// prints only warnings and errors; the rolldown CLI (`rolldown -c`) builds the same but lists every file.
import { chmodSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { defineConfig, rolldown, type OutputOptions, type RolldownOptions } from 'rolldown';

const OUT = 'dist/electron';

/**
 * Entry name (its file in dist/electron) → source. Not main.ts: it runs inside Electron, whose Node is
 * new enough, loads its heavy part after `ready` (shell/desktop.ts), and stays tsc's output, the code that
 * Electronegativity scans and electron-builder packages.
 */
export const FACES: Record<string, string> = {
  cli: 'electron/cli.ts',
  'web-main': 'electron/web-main.ts',
  launch: 'electron/launch.ts',
};

// Loaded by the platform, never bundled: Node's own modules, Electron's API (no face here imports it; kept
// out in case one ever does), and ws's optional native speed-ups (ws falls back to JavaScript without them).
// isomorphic-git too: only the sync engine loads it, never on the way to a first request, and its HTTP
// client calls url.parse(), which Node warns about on stderr unless the caller is under node_modules.
const EXTERNAL = [
  'electron',
  /^node:/,
  ...builtinModules,
  'bufferutil',
  'utf-8-validate',
  /^isomorphic-git(\/|$)/,
];

/**
 * Not faces: the fault suite's worker (test/faults/worker.ts), which a fault run starts again after every
 * kill, so each start reads one file as a face's does; the workload and the checks it runs are unchanged.
 * Built to dist/test/faults/bundled/, beside tsc's output, never packaged (electron-builder leaves dist/test
 * out).
 */
export const FAULT_WORKERS: Record<string, string> = {
  worker: 'test/faults/worker.ts',
};
const FAULTS_OUT = 'dist/test/faults/bundled';

function face(name: string, input: string): RolldownOptions {
  return bundle(name, input, OUT, path.join('chunks', name));
}

/** `input` as the entry `out/<name>.js`, its chunks in `out/<chunkDir>/` (emptied first). */
function bundle(name: string, input: string, out: string, chunkDir: string): RolldownOptions {
  const chunks = path.join(out, chunkDir);
  return {
    input: { [name]: input },
    platform: 'node',
    external: EXTERNAL,
    logLevel: 'warn',
    plugins: [{ name: 'clean-chunks', buildStart: () => rmSync(chunks, { recursive: true, force: true }) }],
    output: {
      dir: out,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: `${chunkDir}/[name].js`,
      sourcemap: true,
      charset: 'ascii',
      comments: { legal: true, annotation: false, jsdoc: false },
    },
  };
}

const configs = [
  ...Object.entries(FACES).map(([name, input]) => face(name, input)),
  ...Object.entries(FAULT_WORKERS).map(([name, input]) => bundle(name, input, FAULTS_OUT, `chunks/${name}`)),
];
export default defineConfig(configs);

if (import.meta.main) {
  for (const config of configs) {
    const build = await rolldown(config);
    try {
      await build.write(config.output as OutputOptions);
    } finally {
      await build.close();
    }
  }
  // The `mnemo` bin is this file itself, run by its shebang.
  chmodSync(path.join(OUT, 'cli.js'), 0o755);
}
