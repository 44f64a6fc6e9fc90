// `npm start` once the window is open: Ctrl+C becomes a graceful quit request over the control socket
// (Windows kills without before-quit), the exit code is passed on, and a quit that hangs is cut short.
// The control socket itself is real: a local socket (a named pipe on Windows) between two ends.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { superviseWindow, type HandoverDeps } from '../../../electron/launch-handover.js';
import {
  CONTROL_ENV,
  followLauncher,
  LAUNCHER_ENV,
  openControlServer,
  signalLauncher,
} from '../../../electron/launch-signal.js';
import { RecordedChild } from './recorded-child.js';

afterEach(() => void vi.useRealTimers());

function supervise(over: Partial<HandoverDeps> = {}) {
  const child = new RecordedChild('/opt/e', [], {});
  let handler: ((signal: NodeJS.Signals) => void) | undefined;
  const log: string[] = [];
  let clock = 0;
  superviseWindow(child as unknown as ChildProcess, {
    onSignal: (signals, h) => {
      expect(signals).toEqual(expect.arrayContaining(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK']));
      handler = h;
    },
    requestQuit: () => (log.push('quit requested'), true),
    print: (line) => void log.push(line),
    exit: (code) => void log.push(`exit ${code}`),
    now: () => clock,
    killGroup: () => void log.push('killed'),
    ...over,
  });
  return {
    child,
    log,
    press: (signal: NodeJS.Signals = 'SIGINT', at = clock) => {
      clock = at;
      handler!(signal);
    },
  };
}

describe('after the handover', () => {
  it('Ctrl+C asks the app to quit gracefully instead of killing it, and passes on its exit code', () => {
    const { child, log, press } = supervise();
    press('SIGINT');
    expect(log).toEqual(['Closing Mnemo...', 'quit requested']);
    expect(child.signals).toEqual([]);
    child.exit(0);
    expect(log.at(-1)).toBe('exit 0');
  });

  it('the same for Ctrl+Break and a closing console window on Windows', () => {
    for (const signal of ['SIGBREAK', 'SIGHUP'] as const) {
      const { child, log, press } = supervise();
      press(signal);
      expect(log).toContain('quit requested');
      expect(child.signals).toEqual([]);
    }
  });

  it('with no control link, forwards the signal (Electron quits gracefully on it on Linux and macOS)', () => {
    const { child, press } = supervise({ requestQuit: () => false });
    press('SIGTERM');
    expect(child.signals).toEqual(['SIGTERM']);
  });

  it('an immediate repeat is ignored; a second Ctrl+C a moment later stops it now', () => {
    const { log, press } = supervise();
    press('SIGINT', 0);
    press('SIGINT', 10);
    expect(log).not.toContain('killed');
    press('SIGINT', 1_500);
    expect(log.slice(-2)).toEqual(['Stopping Mnemo now.', 'killed']);
  });

  it('a graceful quit that hangs is cut short', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { log, press } = supervise({ graceMs: 20_000 });
    press('SIGINT');
    await vi.advanceTimersByTimeAsync(19_000);
    expect(log).not.toContain('killed');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(log).toContain('killed');
  });

  it('a crash of the app is passed on as a failure', () => {
    const { child, log } = supervise();
    child.exit(null, 'SIGSEGV');
    expect(log).toEqual(['exit 1']);
  });
});

describe('the control link', () => {
  it('delivers a quit request from the launcher to the main process', async () => {
    const address =
      process.platform === 'win32'
        ? undefined
        : path.join(mkdtempSync(path.join(tmpdir(), 'mnemo ctl é-')), 'c.sock');
    const server = await openControlServer(address);
    try {
      expect(server.requestQuit()).toBe(false);
      const quit = new Promise<void>((resolve) =>
        followLauncher(resolve, { [LAUNCHER_ENV]: '1', [CONTROL_ENV]: server.address }),
      );
      await vi.waitFor(() => expect(server.requestQuit()).toBe(true));
      await quit;
    } finally {
      server.close();
    }
  });

  it('is not followed by a main process the launcher did not start', async () => {
    const server = await openControlServer();
    try {
      followLauncher(() => undefined, { [CONTROL_ENV]: server.address });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(server.requestQuit()).toBe(false);
    } finally {
      server.close();
    }
  });

  it('survives a launcher that is gone', async () => {
    followLauncher(() => undefined, {
      [LAUNCHER_ENV]: '1',
      [CONTROL_ENV]: path.join(tmpdir(), 'mnemo-no-such-launcher.sock'),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it('markers are printed only for the launcher, one line each', () => {
    const lines: string[] = [];
    signalLauncher('startFailed', 'two\nlines', { [LAUNCHER_ENV]: '1' }, (t) => void lines.push(t));
    signalLauncher('ready', undefined, {}, (t) => void lines.push(t));
    expect(lines).toEqual(['MNEMO_START_FAILED two lines\n']);
  });
});
