// `npm start` once the Electron window is open: stay out of the way, pass on the exit code, and turn
// Ctrl+C (or the terminal closing) into a graceful quit, so the app's before-quit flushes the
// conversation and the memory. The request goes over the control socket (launch-signal.ts) because a
// signal cannot do it everywhere: on Windows, killing a process terminates it without before-quit.
import type { ChildProcess } from 'node:child_process';
import { killGroup } from './launch-electron.js';

export const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'];

export interface HandoverDeps {
  onSignal(signals: NodeJS.Signals[], handler: (signal: NodeJS.Signals) => void): void;
  /** Asks the main process to quit gracefully; false when it never connected. */
  requestQuit(): boolean;
  print(line: string): void;
  exit(code: number): void;
  /** How long a graceful quit may take before the app is stopped outright. */
  graceMs?: number;
  now?: () => number;
  killGroup?(child: ChildProcess): void;
}

export function superviseWindow(child: ChildProcess, deps: HandoverDeps): void {
  const now = deps.now ?? Date.now;
  const kill = deps.killGroup ?? killGroup;
  let firstAt: number | undefined;
  let force: NodeJS.Timeout | undefined;
  deps.onSignal(STOP_SIGNALS, (signal) => {
    if (firstAt === undefined) {
      firstAt = now();
      deps.print('Closing Mnemo...');
      // Electron on Linux and macOS quits gracefully on SIGINT/SIGTERM; this is only the fallback.
      if (!deps.requestQuit()) child.kill(signal);
      force = setTimeout(() => kill(child), deps.graceMs ?? 20_000);
      force.unref();
      return;
    }
    // A second Ctrl+C a moment later means "now"; an immediate repeat is the same key press echoed.
    if (now() - firstAt >= 1_000) {
      deps.print('Stopping Mnemo now.');
      kill(child);
    }
  });
  child.once('exit', (code, signal) => {
    clearTimeout(force);
    deps.exit(code ?? (signal ? 1 : 0));
  });
}
