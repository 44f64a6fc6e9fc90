// Starts the REAL browser-mode server (`node dist/electron/web-main.js`, what `npm run web` runs after its
// build step) as a child process on a temp data dir, pointed at the fake Anthropic API, and waits for its
// ready line. `npm test` builds dist/ (typecheck emits it) and dist/renderer (build:web) before vitest.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
// From the sources (test/e2e/support) or compiled (dist/test/e2e/support, as bench/ui runs it).
export const ROOT = path.resolve(HERE, HERE.split(path.sep).includes('dist') ? '../../../..' : '../../..');
export const WEB_MAIN = path.join(ROOT, 'dist', 'electron', 'web-main.js');
const READY = /Mnemo is ready: (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]+))/;

export interface AppServer {
  url: string;
  port: number;
  token: string;
  dataDir: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM and wait for a graceful exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  process: ChildProcess;
}

export interface StartAppOptions {
  /** The fake API's base URL (ANTHROPIC_BASE_URL). */
  baseUrl: string;
  /** Default: a new temp folder. */
  dataDir?: string;
  /** Default 'test'; null runs without ANTHROPIC_API_KEY (first-run screen). */
  apiKey?: string | null;
  env?: NodeJS.ProcessEnv;
  args?: string[];
  timeoutMs?: number;
}

export function tempDataDir(prefix = 'mnemo-e2e-'): string {
  return path.join(mkdtempSync(path.join(tmpdir(), prefix)), 'data');
}

export function assertBuilt(): void {
  const missing = [WEB_MAIN, path.join(ROOT, 'dist', 'renderer', 'index.html')].filter((f) => !existsSync(f));
  if (missing.length > 0) {
    throw new Error(
      `Not built: ${missing.map((f) => path.relative(ROOT, f)).join(', ')}. Run \`npm run build\` first ` +
        '(`npm test` and `npm run test:e2e` do it).',
    );
  }
}

export async function startApp(options: StartAppOptions): Promise<AppServer> {
  assertBuilt();
  const dataDir = options.dataDir ?? tempDataDir();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ANTHROPIC_BASE_URL: options.baseUrl,
    MNEMO_DATA_DIR: '',
    ...options.env,
  };
  delete env.ANTHROPIC_API_KEY;
  if (options.apiKey !== null) env.ANTHROPIC_API_KEY = options.apiKey ?? 'test';
  const child = spawn(
    process.execPath,
    [WEB_MAIN, '--data-dir', dataDir, '--port', '0', ...(options.args ?? [])],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`browser mode did not print its ready line in time:\n${output}`));
    }, options.timeoutMs ?? 60_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = READY.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`browser mode exited (code ${code}) before it was ready:\n${output}`));
    });
  });
  const match = await ready;
  return {
    url: match[1]!,
    port: Number(match[2]),
    token: match[3]!,
    dataDir,
    output: () => output,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      return exited;
    },
  };
}
