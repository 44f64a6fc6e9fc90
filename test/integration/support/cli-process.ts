// The CLI as a user runs it: `node dist/electron/cli.js` in a process of its own, with a home of its own
// and the fake Messages API as its endpoint, its output collected whole. The CLI tests share this so each
// says only what it runs.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const CLI = path.join(ROOT, 'dist/electron/cli.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Fails the test file at once, with what to do, when the build is missing. */
export function assertCliBuilt(): void {
  if (!existsSync(CLI)) throw new Error('dist/electron/cli.js is missing: run `npm run build:node` first.');
}

/** The environment of a CLI run: nothing of the host's but PATH, the home given, the fake API's URL. */
export function cliEnv(home: string, apiUrl: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: apiUrl,
    ...extra,
  };
}

/** Collects a child's output until it exits; `onStdout` sees the output so far after each chunk. */
export function collect(child: ChildProcess, onStdout?: (soFar: string) => void): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      onStdout?.(stdout);
    });
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the CLI with `args` (stdin closed) and resolves with its exit code and output. */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return collect(
    spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
}
