// One timed start of a face, as a person starts it: a fresh `node` process, timed from just before the
// spawn to the moment that counts for that face (its exit, the fake API seeing its first request, its ready
// line). Every child gets a data folder and a home of its own, so no start reads what an earlier one left.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FakeAnthropic } from '../../test/fixtures/fake-anthropic/index.js';

const LIMIT_MS = 60_000;

/** The environment of a timed child: PATH and a home of its own, nothing else of the host's. */
function envOf(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: home, ...extra };
}

async function withFolder<T>(fn: (folder: string) => Promise<T>): Promise<T> {
  const folder = mkdtempSync(path.join(tmpdir(), 'mnemo-startup-'));
  try {
    return await fn(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

interface Timed {
  /** ms from just before the spawn until `until` resolved. */
  ms: number;
}

/**
 * Spawns `node args` in `cwd` and times it until `until(output)` says so (or the exit, when it never
 * does); a child that fails, or is still running after the limit, fails the sample with its output.
 */
function timeChild(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  until: { output?: RegExp; promise?: Promise<unknown> } = {},
): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let ms: number | undefined;
    const mark = (): void => {
      if (ms !== undefined) return;
      ms = performance.now() - start;
      // Long-running faces are stopped once they have shown what is timed.
      if (until.output) child.kill('SIGTERM');
    };
    const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (until.output?.test(output)) mark();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void until.promise?.then(mark);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const stopped = until.output !== undefined && ms !== undefined && signal === 'SIGTERM';
      if (code !== 0 && !stopped) {
        reject(new Error(`node ${args.join(' ')} exited with ${code ?? signal}:\n${output}`));
        return;
      }
      resolve({ ms: ms ?? performance.now() - start });
    });
  });
}

/** `node -e 0`: the floor every start stands on. */
export const nodeAlone = (root: string): Promise<number> =>
  timeChild(['-e', '0'], root, envOf(tmpdir())).then((t) => t.ms);

/** `node dist/electron/cli.js --help`, to its exit. */
export const cliHelp = (root: string): Promise<number> =>
  withFolder((home) =>
    timeChild([path.join(root, 'dist/electron/cli.js'), '--help'], root, envOf(home)).then((t) => t.ms),
  );

/** A chat on an empty data folder, until the fake API has its first POST /v1/messages. */
export const chatFirstRequest = (root: string, fake: FakeAnthropic): Promise<number> =>
  withFolder(async (folder) => {
    const seen = fake.messageRequests().length;
    const env = envOf(folder, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url });
    const dataDir = path.join(folder, 'data');
    const cli = path.join(root, 'dist/electron/cli.js');
    const first = fake.waitForMessageRequests(seen + 1);
    const timed = await timeChild([cli, '--data-dir', dataDir, 'Hello'], root, env, { promise: first });
    return timed.ms;
  });

/** Browser mode on an empty data folder, until it prints `Mnemo is ready: ...`. */
export const webReady = (root: string, fake: FakeAnthropic): Promise<number> =>
  withFolder(async (folder) => {
    const env = envOf(folder, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url });
    const args = [path.join(root, 'dist/electron/web-main.js'), '--data-dir', path.join(folder, 'data')];
    const timed = await timeChild([...args, '--port', '0'], root, env, { output: /Mnemo is ready: / });
    return timed.ms;
  });
