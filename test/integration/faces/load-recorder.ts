// Runs a built entry in a child process of its own with Node flags in front (a preload that fakes an old
// Node, or one that records every file the process loads), as the entry tests need and processes.ts's
// helpers do not offer.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { childEnv, ROOT, tempDir, type Finished } from './processes.js';

/** `--import` of a preload that makes this Node say it is `version`. */
export const fakeNodeVersion = (version: string): string[] => [
  '--import',
  `data:text/javascript,Object.defineProperty(process.versions,"node",{value:${JSON.stringify(version)}})`,
];

/** A preload that appends the URL of every module the process loads (builtins left out) to `log`. */
export function recordLoads(): { flags: string[]; loaded: () => string[] } {
  const dir = tempDir('mnemo-loads-');
  const log = path.join(dir, 'loaded.txt');
  const hook = path.join(dir, 'record.mjs');
  writeFileSync(log, '');
  writeFileSync(
    hook,
    `import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
registerHooks({
  load(url, context, next) {
    if (!url.startsWith('node:')) appendFileSync(${JSON.stringify(log)}, url + '\\n');
    return next(url, context);
  },
});
`,
  );
  return {
    flags: ['--import', pathToFileURL(hook).href],
    loaded: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
  };
}

/** `node FLAGS FILE ARGS` in the project folder, to its exit. */
export function runNode(
  flags: string[],
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...flags, file, ...args], {
      cwd: ROOT,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
