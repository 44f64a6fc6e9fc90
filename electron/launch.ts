// `npm start`: open the desktop app, or, when the Electron runtime cannot be loaded within 10 seconds
// (e.g. its binary was never downloaded, which requiring `electron` then tries to do), say so in one line
// and serve the same app in browser mode instead. `npm start` has already compiled dist/electron.
//
// Loading Electron happens in child processes we own (each in its own process group, killed whole on
// timeout): requiring the `electron` package may start a blocking download, and the binary may hang.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureRendererBuilt, exitOnStartFailure, serveBrowserMode } from './browser-mode.js';
import { projectRoot } from './core/app-version.js';
import { resolveDataDir } from './core/data-dir.js';
import { LAUNCHER_ENV, WINDOW_READY_MARKER } from './launch-signal.js';
import { parseWebArgs, WEB_USAGE, type WebArgs } from './web-args.js';

const DEFAULT_TIMEOUT_MS = 10_000;

const seconds = (deadline: number, started: number): string =>
  `${Math.round((deadline - started) / 100) / 10} s`;

type Attempt = { ok: true; child: ChildProcess } | { ok: false; reason: string };

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** The Electron binary's path, as `require('electron')` gives it, resolved in a child before `deadline`. */
function resolveElectronBinary(root: string, env: NodeJS.ProcessEnv, deadline: number): Promise<string> {
  const started = Date.now();
  if (env.MNEMO_ELECTRON_PATH) return Promise.resolve(env.MNEMO_ELECTRON_PATH);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', "process.stdout.write('\\n' + require('electron'))"], {
      cwd: root,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(
      () => {
        killGroup(child);
        reject(new Error(`the Electron runtime was still being fetched after ${seconds(deadline, started)}`));
      },
      Math.max(0, deadline - Date.now()),
    );
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      const binary = out.trim().split('\n').pop() ?? '';
      if (code === 0 && binary && existsSync(binary)) resolve(binary);
      else reject(new Error('the Electron runtime is not installed and could not be downloaded'));
    });
  });
}

async function tryElectron(
  root: string,
  args: WebArgs,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<Attempt> {
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return { ok: false, reason: 'there is no graphical display' };
  }
  const deadline = Date.now() + timeoutMs;
  let binary: string;
  try {
    binary = await resolveElectronBinary(root, env, deadline);
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
  // Absolute: Electron runs in the project folder, and a relative path meant the user's own folder.
  const flags = args.dataDir !== undefined ? ['--data-dir', resolveDataDir({ flag: args.dataDir, env })] : [];
  const child = spawn(binary, [root, ...flags], {
    cwd: root,
    env: { ...env, [LAUNCHER_ENV]: '1' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise<Attempt>((resolve) => {
    let buffered = '';
    let settled = false;
    const settle = (attempt: Attempt): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!attempt.ok) killGroup(child);
      resolve(attempt);
    };
    const timer = setTimeout(
      () => settle({ ok: false, reason: `the window did not open within ${timeoutMs / 1000} s` }),
      Math.max(0, deadline - Date.now()),
    );
    child.stdout.on('data', (chunk: Buffer) => {
      if (settled) return void process.stdout.write(chunk);
      buffered += chunk.toString();
      if (buffered.includes(WINDOW_READY_MARKER)) {
        const rest = buffered.replace(`${WINDOW_READY_MARKER}\n`, '');
        if (rest) process.stdout.write(rest);
        settle({ ok: true, child });
      }
    });
    // Before the window opens Electron's stderr is noise for this decision; after, it is the app's.
    child.stderr.on('data', (chunk: Buffer) => settled && process.stderr.write(chunk));
    child.once('error', (error) => settle({ ok: false, reason: error.message }));
    child.once('exit', (code, signal) =>
      settle({ ok: false, reason: `it exited early (${signal ?? `code ${code ?? '?'}`})` }),
    );
  });
}

async function main(): Promise<void> {
  let args: WebArgs | 'help';
  try {
    args = parseWebArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${WEB_USAGE.replace('npm run web', 'npm start')}\n`);
    process.exit(2);
  }
  if (args === 'help') {
    process.stdout.write(`${WEB_USAGE.replace('npm run web', 'npm start')}\n`);
    return;
  }
  const print = (line: string): void => void process.stdout.write(`${line}\n`);
  const root = projectRoot();
  await ensureRendererBuilt(print, root);
  const timeoutMs = Number(process.env.MNEMO_ELECTRON_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;
  const attempt = await tryElectron(root, args, process.env, timeoutMs);
  if (attempt.ok) {
    const child = attempt.child;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    child.once('exit', (code) => process.exit(code ?? 0));
    return;
  }
  print(`Could not open the Electron window: ${attempt.reason}. Serving Mnemo in your browser instead.`);
  await serveBrowserMode(args, print);
}

main().catch(exitOnStartFailure);
