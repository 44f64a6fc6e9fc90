// The app's lifecycle, with Electron's app and dialog passed in (main.ts owns the import), so every path
// is reachable from a test: one instance per data folder, start, a start that fails, a second launch,
// and a quit that flushes the core first.
//
// A start failure (a data folder that is a file, memory that cannot open, a throwing window) shows the
// app's own message and exits: never Electron's generic error box, never a process left with no window
// holding the single-instance lock (every relaunch would then exit at once).
import type { LauncherSignal } from '../launch-signal.js';

export interface AppLike {
  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<unknown>;
  // Electron's listener types vary per event; `any` is what its declarations use too.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: string, listener: (...args: any[]) => void): unknown;
  quit(): void;
  exit(code?: number): void;
}

export interface Closable {
  close(): Promise<void>;
}

export interface LifecycleOptions {
  app: AppLike;
  showErrorBox(title: string, content: string): void;
  platform: NodeJS.Platform;
  signal(signal: LauncherSignal, detail?: string): void;
  /** Synchronous setup before the lock is taken (data folder, userData path); may throw. */
  prepare(): void;
  /**
   * After `ready`: create the core and the window. `started` hands over what must be flushed on quit as
   * soon as it exists, so a failure later in start() still flushes it.
   */
  start(started: (core: Closable) => void): Promise<void>;
  /** A second launch on the same data folder: bring the window forward. */
  focus(): void;
  /** macOS dock click with no window open. */
  activate(): void;
  /** How long a failing start may spend flushing a half-started core before it exits anyway. */
  failCloseMs?: number;
}

export const START_FAILED_TITLE = 'Mnemo could not start';

export function runApp(options: LifecycleOptions): void {
  const { app } = options;
  let core: Closable | undefined;
  let failed = false;

  const fail = async (error: unknown): Promise<void> => {
    if (failed) return;
    failed = true;
    const message = messageOf(error);
    options.showErrorBox(START_FAILED_TITLE, message);
    options.signal('startFailed', message);
    if (core) await closeWithin(core, options.failCloseMs ?? 5_000);
    app.exit(1);
  };

  try {
    options.prepare();
  } catch (error) {
    void fail(error);
    return;
  }
  if (!app.requestSingleInstanceLock()) {
    // Not a failure: the running instance gets `second-instance` and comes to the front.
    options.signal('secondInstance');
    app.quit();
    return;
  }
  options.signal('started');
  app.on('second-instance', () => options.focus());
  // One chain, so a throwing start() is caught too (`then(start, fail)` only catches whenReady).
  app
    .whenReady()
    .then(() => options.start((c) => (core = c)))
    .catch(fail);
  app.on('window-all-closed', () => {
    if (options.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (core && !failed) options.activate();
  });
  let closed = false;
  app.on('before-quit', (event: { preventDefault(): void }) => {
    if (closed || !core || failed) return;
    // Graceful quit: abort the run, flush the conversation and memory writes, then really quit.
    event.preventDefault();
    const closing = core;
    void closing.close().finally(() => {
      closed = true;
      app.quit();
    });
  });
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.trim() || 'An unexpected error stopped the start.';
}

async function closeWithin(core: Closable, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    core.close().catch(() => undefined),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))),
  ]);
  clearTimeout(timer);
}
