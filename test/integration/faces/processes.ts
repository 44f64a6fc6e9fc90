// Runs the compiled faces (what `npm run chat|web` and `npm start` run after their build step) as real
// child processes. `npm test` emits dist/ in its typecheck step before vitest runs.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const entry = (name: 'cli' | 'web-main' | 'launch'): string => {
  const file = path.join(ROOT, 'dist', 'electron', `${name}.js`);
  if (!existsSync(file))
    throw new Error(`${path.relative(ROOT, file)} is missing: run \`npm run build\` first.`);
  return file;
};

export const tempDir = (prefix = 'mnemo-face-'): string => mkdtempSync(path.join(tmpdir(), prefix));

/** The environment of a child: ours minus the variables the faces read, plus `env`. */
export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'MNEMO_DATA_DIR', 'MNEMO_DEBUG']) {
    delete base[name];
  }
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete base[k];
    else base[k] = v;
  }
  return base;
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs to completion (with a generous safety timeout that kills only this child). */
export function run(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { cwd: ROOT, env: childEnv(env), stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${path.basename(file)} did not finish:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface Running {
  child: ChildProcess;
  match: RegExpExecArray;
  output(): string;
  /** SIGTERM (or `signal`) and wait for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts a long-running face and resolves once its output matches `ready`. */
export function start(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  timeoutMs = 60_000,
): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { cwd: ROOT, env: childEnv(env), stdio: 'pipe' });
    let output = '';
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${path.basename(file)} never printed ${ready}:\n${output}`));
    }, timeoutMs);
    const onData = (c: Buffer): void => {
      output += c.toString();
      const match = ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      resolve({
        child,
        match,
        output: () => output,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
          child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${path.basename(file)} exited (code ${code}) before ready:\n${output}`));
    });
  });
}

export const READY_URL = /Mnemo is ready: (http:\/\/127\.0\.0\.1:(\d+)\/\?token=[A-Za-z0-9_-]{20,})/;
