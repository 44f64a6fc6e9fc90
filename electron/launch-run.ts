// `npm start`: open the desktop app, or, when the Electron runtime cannot be loaded within 10 seconds
// (its binary was never downloaded, there is no display, it does not run), say so in one line and serve
// the same app in browser mode instead. `npm start` has already compiled dist/electron. The decisions are
// in launch-electron.ts (tested over a recorded child), the handover in launch-handover.ts.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureRendererBuilt, exitOnStartFailure, serveBrowserMode } from './browser-mode.js';
import { projectRoot } from './core/app-version.js';
import { resolveDataDir } from './core/data-dir.js';
import { launchElectron } from './launch-electron.js';
import { superviseWindow } from './launch-handover.js';
import { openControlServer, type ControlServer } from './launch-signal.js';
import { parseWebArgs, WEB_USAGE, type WebArgs } from './web-args.js';

const DEFAULT_TIMEOUT_MS = 10_000;

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
  // Absolute: Electron runs in the project folder, and a relative path meant the user's own folder.
  const flags = args.dataDir !== undefined ? ['--data-dir', resolveDataDir({ flag: args.dataDir })] : [];
  let control: ControlServer | undefined;
  try {
    control = await openControlServer();
  } catch {
    control = undefined; // Ctrl+C then falls back to forwarding the signal.
  }
  const outcome = await launchElectron(root, flags, {
    spawn,
    platform: process.platform,
    env: process.env,
    execPath: process.execPath,
    timeoutMs: Number(process.env.MNEMO_ELECTRON_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS,
    ...(control ? { controlAddress: control.address } : {}),
    exists: existsSync,
    print,
    stdout: (chunk) => void process.stdout.write(chunk),
    stderr: (chunk) => void process.stderr.write(chunk),
  });
  if (outcome.kind === 'window') {
    superviseWindow(outcome.child, {
      onSignal: (signals, handler) => {
        for (const signal of signals) process.on(signal, handler);
      },
      requestQuit: () => control?.requestQuit() ?? false,
      print,
      exit: (code) => {
        control?.close();
        process.exit(code);
      },
    });
    return;
  }
  control?.close();
  if (outcome.kind === 'second-instance') {
    print('Mnemo is already open on this data folder: its window was brought to the front.');
    return;
  }
  if (outcome.kind === 'start-failed') {
    process.stderr.write(`Mnemo could not start: ${outcome.message}\n`);
    process.exit(1);
  }
  print(`Could not open the Electron window: ${outcome.reason}. Serving Mnemo in your browser instead.`);
  await serveBrowserMode(args, print);
}

main().catch(exitOnStartFailure);
