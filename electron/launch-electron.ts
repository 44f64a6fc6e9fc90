// `npm start`'s decisions, over an injected spawn (unit-tested with a recorded child process): find the
// Electron binary, start it on the project, and read what its main process says (launch-signal.ts):
//
// - no display, no binary, or no sign of life before the deadline: unavailable (browser mode instead);
// - the main process runs: from then on a slow start is progress, never killed (a first start under a
//   virus scanner can take long); the launcher says once that it is still waiting;
// - the window is ready: hand over; another instance has this data folder: it was focused, not a failure;
//   the start failed: the app showed why, and the launcher repeats it (no browser mode on the same folder).
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { CONTROL_ENV, LAUNCHER_ENV, MARKERS } from './launch-signal.js';

export type SpawnLike = (command: string, args: string[], options: SpawnOptions) => ChildProcess;

export interface LaunchDeps {
  spawn: SpawnLike;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** The Node that runs the launcher (resolves `require('electron')` in a child). */
  execPath: string;
  /** How long Electron may take to show a sign of life (its main process running). */
  timeoutMs: number;
  /** The control socket the main process connects to for a graceful quit (launch-signal.ts). */
  controlAddress?: string;
  exists(file: string): boolean;
  /** The launcher's own lines. */
  print(line: string): void;
  /** The app's output, passed through once the window is open. */
  stdout(chunk: Buffer | string): void;
  stderr(chunk: Buffer | string): void;
  /** Stops a child and what it started (tests record it instead). */
  killGroup?(child: ChildProcess): void;
}

export type LaunchOutcome =
  | { kind: 'window'; child: ChildProcess }
  | { kind: 'second-instance' }
  | { kind: 'start-failed'; message: string }
  | { kind: 'unavailable'; reason: string };

export const STILL_STARTING =
  'The Electron window is still opening (a first start can be slow); waiting for it. Ctrl+C stops.';

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/** Kills a child and everything it started (each child runs in its own process group). */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/**
 * What Electron is given: our environment without ELECTRON_RUN_AS_NODE (terminals inside some editors set
 * it, and Electron would then run as plain Node), plus how to talk back to the launcher.
 */
export function electronEnv(env: NodeJS.ProcessEnv, controlAddress?: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, [LAUNCHER_ENV]: '1' };
  delete out.ELECTRON_RUN_AS_NODE;
  if (controlAddress) out[CONTROL_ENV] = controlAddress;
  else delete out[CONTROL_ENV];
  return out;
}

/** The Electron binary's path, as `require('electron')` gives it, resolved in a child within `ms`. */
export function resolveElectronBinary(root: string, deps: LaunchDeps, ms: number): Promise<string> {
  if (deps.env.MNEMO_ELECTRON_PATH) return Promise.resolve(deps.env.MNEMO_ELECTRON_PATH);
  return new Promise((resolve, reject) => {
    // Requiring the package may start a blocking download: in a child we can kill.
    const child = deps.spawn(deps.execPath, ['-e', "process.stdout.write('\\n' + require('electron'))"], {
      cwd: root,
      env: electronEnv(deps.env),
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(
      () => {
        (deps.killGroup ?? killGroup)(child);
        reject(new Error(`the Electron runtime was still being fetched after ${seconds(ms)}`));
      },
      Math.max(0, ms),
    );
    child.once('error', () => {
      clearTimeout(timer);
      reject(new Error('the Electron runtime could not be looked up'));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      const binary = out.trim().split('\n').pop() ?? '';
      if (code === 0 && binary && deps.exists(binary)) resolve(binary);
      else reject(new Error('the Electron runtime is not installed and could not be downloaded'));
    });
  });
}

export async function launchElectron(
  root: string,
  flags: string[],
  deps: LaunchDeps,
): Promise<LaunchOutcome> {
  if (deps.platform === 'linux' && !deps.env.DISPLAY && !deps.env.WAYLAND_DISPLAY) {
    return { kind: 'unavailable', reason: 'there is no graphical display' };
  }
  const began = Date.now();
  let binary: string;
  try {
    binary = await resolveElectronBinary(root, deps, deps.timeoutMs);
  } catch (error) {
    return { kind: 'unavailable', reason: (error as Error).message };
  }
  const child = deps.spawn(binary, [root, ...flags], {
    cwd: root,
    env: electronEnv(deps.env, deps.controlAddress),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return watchStart(child, deps, Math.max(0, deps.timeoutMs - (Date.now() - began)));
}

function watchStart(child: ChildProcess, deps: LaunchDeps, ms: number): Promise<LaunchOutcome> {
  return new Promise<LaunchOutcome>((resolve) => {
    let started = false;
    let settled = false;
    let partial = '';
    const early: string[] = [];
    const settle = (outcome: LaunchOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (outcome.kind === 'unavailable') (deps.killGroup ?? killGroup)(child);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      if (!started) {
        settle({ kind: 'unavailable', reason: `the window did not open within ${seconds(deps.timeoutMs)}` });
      } else {
        deps.print(STILL_STARTING);
      }
    }, ms);
    const onLine = (line: string): void => {
      const [marker, ...rest] = line.split(' ');
      const detail = rest.join(' ');
      if (marker === MARKERS.started) started = true;
      else if (marker === MARKERS.ready) {
        for (const text of early) deps.stdout(text);
        settle({ kind: 'window', child });
      } else if (marker === MARKERS.secondInstance) settle({ kind: 'second-instance' });
      else if (marker === MARKERS.startFailed) settle({ kind: 'start-failed', message: detail });
      else early.push(`${line}\n`);
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      if (settled) return void deps.stdout(chunk);
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (settled) deps.stdout(`${line}\n`);
        else onLine(line.replace(/\r$/, ''));
      }
      if (settled && partial) deps.stdout(partial);
    });
    // Before the window opens Electron's stderr is noise for this decision; after, it is the app's.
    child.stderr?.on('data', (chunk: Buffer) => settled && deps.stderr(chunk));
    child.once('error', () =>
      settle({ kind: 'unavailable', reason: 'the Electron binary could not be run' }),
    );
    child.once('exit', (code, signal) =>
      settle({ kind: 'unavailable', reason: `it exited early (${signal ?? `code ${code ?? '?'}`})` }),
    );
  });
}
