// The app's lifecycle over a recorded stand-in for Electron's `app` (an EventEmitter with Electron's
// quit semantics: before-quit can be prevented, exit cannot).
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { runApp, START_FAILED_TITLE, type LifecycleOptions } from '../../../electron/shell/lifecycle.js';

class RecordedApp extends EventEmitter {
  readonly calls: string[] = [];
  ready!: () => void;
  private readonly readyPromise = new Promise<void>((resolve) => (this.ready = resolve));
  constructor(private readonly lock = true) {
    super();
  }
  requestSingleInstanceLock(): boolean {
    this.calls.push('lock');
    return this.lock;
  }
  whenReady(): Promise<void> {
    return this.readyPromise;
  }
  quit(): void {
    this.calls.push('quit');
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) this.calls.push('quit:done');
  }
  exit(code = 0): void {
    this.calls.push(`exit ${code}`);
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(over: Partial<LifecycleOptions> & { lock?: boolean } = {}) {
  const app = new RecordedApp(over.lock ?? true);
  const boxes: [string, string][] = [];
  const signals: string[] = [];
  const log: string[] = [];
  runApp({
    app,
    showErrorBox: (title, content) => boxes.push([title, content]),
    platform: 'linux',
    signal: (s, detail) => signals.push(detail ? `${s}: ${detail}` : s),
    prepare: () => log.push('prepare'),
    start: async (started) => {
      started({ close: async () => void log.push('flushed') });
      log.push('started');
    },
    focus: () => log.push('focus'),
    activate: () => log.push('activate'),
    ...over,
  });
  return { app, boxes, signals, log };
}

describe('app lifecycle', () => {
  it('starts once ready and tells the launcher it runs', async () => {
    const { app, log, signals, boxes } = setup();
    expect(log).toEqual(['prepare']);
    expect(signals).toEqual(['started']);
    app.ready();
    await tick();
    expect(log).toEqual(['prepare', 'started']);
    expect(boxes).toEqual([]);
  });

  it('a start() that throws shows the app’s message and exits (no ghost holding the lock)', async () => {
    const { app, boxes, signals } = setup({
      start: async () => {
        throw new Error('The data folder /tmp/x exists but is not a folder. Choose another with --data-dir.');
      },
    });
    app.ready();
    await tick();
    expect(boxes).toEqual([
      [
        START_FAILED_TITLE,
        'The data folder /tmp/x exists but is not a folder. Choose another with --data-dir.',
      ],
    ]);
    expect(signals.at(-1)).toMatch(/^startFailed: The data folder/);
    expect(app.calls.at(-1)).toBe('exit 1');
  });

  it('a start() that throws synchronously is caught too', async () => {
    const { app, boxes } = setup({
      start: () => {
        throw new Error('boom');
      },
    });
    app.ready();
    await tick();
    expect(boxes).toEqual([[START_FAILED_TITLE, 'boom']]);
    expect(app.calls.at(-1)).toBe('exit 1');
  });

  it('a failure after the core opened flushes it before exiting', async () => {
    const { app, log } = setup({
      start: async (started) => {
        started({ close: async () => void log.push('flushed') });
        throw new Error('the window could not be created');
      },
    });
    app.ready();
    await tick();
    await tick();
    expect(log).toContain('flushed');
    expect(app.calls.at(-1)).toBe('exit 1');
  });

  it('a failing prepare (before ready) shows the message and exits without taking the lock', async () => {
    const { app, boxes, signals } = setup({
      prepare: () => {
        throw new Error('Failed to set path');
      },
    });
    await tick();
    expect(boxes).toEqual([[START_FAILED_TITLE, 'Failed to set path']]);
    expect(signals).toEqual(['startFailed: Failed to set path']);
    expect(app.calls).toEqual(['exit 1']);
  });

  it('a non-Error rejection still gets a message', async () => {
    const { app, boxes } = setup({ start: () => Promise.reject('') });
    app.ready();
    await tick();
    expect(boxes[0]![1]).toMatch(/unexpected error/);
  });

  it('a second instance says so and quits, without starting or failing', async () => {
    const { app, log, signals, boxes } = setup({ lock: false });
    app.ready();
    await tick();
    expect(signals).toEqual(['secondInstance']);
    expect(log).toEqual(['prepare']);
    expect(app.calls).toEqual(['lock', 'quit', 'quit:done']);
    expect(boxes).toEqual([]);
  });

  it('the first instance brings its window forward on a second launch', () => {
    const { app, log } = setup();
    app.emit('second-instance', {}, ['electron', '.'], '/');
    expect(log).toContain('focus');
  });

  it('quitting flushes the core first, then really quits', async () => {
    const { app, log } = setup();
    app.ready();
    await tick();
    app.quit();
    expect(app.calls).toEqual(['lock', 'quit']);
    await tick();
    expect(log.at(-1)).toBe('flushed');
    expect(app.calls).toEqual(['lock', 'quit', 'quit', 'quit:done']);
  });

  it('closing the last window quits, except on macOS', async () => {
    const linux = setup();
    linux.app.emit('window-all-closed');
    expect(linux.app.calls).toContain('quit');
    const mac = setup({ platform: 'darwin' });
    mac.app.emit('window-all-closed');
    expect(mac.app.calls).not.toContain('quit');
    mac.app.ready();
    await tick();
    mac.app.emit('activate');
    expect(mac.log).toContain('activate');
  });
});
