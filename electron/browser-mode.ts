// Browser mode as a function, shared by `npm run web` (web-main.ts) and by `npm start` when the Electron
// runtime cannot be loaded (launch.ts): build the renderer if it is missing, create the core on the data
// dir with the browser host, and serve it on 127.0.0.1 with a random token in the URL.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from './core/app-version.js';
import { createCore, type Core } from './core/create-core.js';
import { resolveDataDir } from './core/data-dir.js';
import { createBrowserHost } from './core/host-browser.js';
import { startWebServer, type WebServer } from './web.js';

/** Printed before the URL on one line; tests and launchers wait for it. */
export const READY_MARKER = 'Mnemo is ready:';

export interface BrowserModeOptions {
  dataDir: string;
  port?: number;
  env?: NodeJS.ProcessEnv;
  /** Where progress and the URL go (stdout for the commands). */
  print?: (line: string) => void;
}

export interface BrowserMode {
  url: string;
  core: Core;
  server: WebServer;
  /** Stops the server, aborts runs and flushes conversations and memory. Idempotent. */
  close(): Promise<void>;
}

export function rendererDir(root = projectRoot()): string {
  return path.join(root, 'dist', 'renderer');
}

/** Builds dist/renderer with Vite when its index.html is missing. Resolves once it exists. */
export async function ensureRendererBuilt(
  print: (line: string) => void,
  root = projectRoot(),
): Promise<string> {
  const dir = rendererDir(root);
  if (existsSync(path.join(dir, 'index.html'))) return dir;
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  if (!existsSync(vite)) {
    throw new Error(
      'The interface is not built and Vite is not installed. Run `npm install`, then try again.',
    );
  }
  print('Building the interface (first run only)...');
  const code = await new Promise<number | null>((resolve, reject) => {
    // stdout is kept for our own lines (the URL); Vite's output goes to stderr.
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
      cwd: root,
      stdio: ['ignore', process.stderr, process.stderr],
    });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0 || !existsSync(path.join(dir, 'index.html'))) {
    throw new Error('Building the interface failed (see the messages above). Try `npm run build:web`.');
  }
  return dir;
}

export async function startBrowserMode(options: BrowserModeOptions): Promise<BrowserMode> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const dir = await ensureRendererBuilt(print);
  // Uploads (memory imports) are transient: a private temp folder, removed on close.
  const uploadDir = mkdtempSync(path.join(tmpdir(), 'mnemo-uploads-'));
  const host = createBrowserHost({ uploadDir });
  const core = await createCore({
    dataDir: options.dataDir,
    host,
    ...(options.env ? { env: options.env } : {}),
  });
  let server: WebServer;
  try {
    server = await startWebServer({
      handlers: core.handlers,
      bus: core.bus,
      spaces: core.spaces,
      rendererDir: dir,
      port: options.port ?? 0,
      logger: core.log,
      host,
    });
  } catch (error) {
    await core.close();
    rmSync(uploadDir, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new Error(`Port ${options.port} is already in use. Choose another with --port, or 0 for any.`, {
        cause: error,
      });
    }
    throw error;
  }
  core.log.info('browser mode started', { port: server.port });
  // Spaces with a git remote sync in the background while the app runs, and once more before it stops.
  const sync = core.sync;
  sync.start().catch((error: unknown) => core.log.warn('sync not started', { error }));

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      await server.close();
      await core.close();
      await host.dispose();
      rmSync(uploadDir, { recursive: true, force: true });
    })());

  return { url: server.url, core, server, close };
}

/** Prints the URL and the data folder; the first line is the one launchers and tests parse. */
export function announce(mode: BrowserMode, print: (line: string) => void): void {
  print(`${READY_MARKER} ${mode.url}`);
  print(`Data folder: ${mode.core.ctx.dataDir}`);
  const key = mode.core.ctx.settings.apiKeyStatus();
  if (!key.hasApiKey) {
    print(key.problem ?? 'No API key yet: set ANTHROPIC_API_KEY, or enter one in the app (Settings).');
  }
  print('Open the link above in your browser. Press Ctrl+C to stop.');
}

/**
 * SIGINT/SIGTERM: close gracefully once. A second signal a second or more later (the user pressing
 * Ctrl+C again) exits at once; an immediate repeat is ignored, because `conf`'s dependency when-exit
 * re-sends the signal it received to the process. A close that hangs is cut short after 20 s.
 */
export function closeOnSignals(close: () => Promise<void>, print: (line: string) => void): void {
  let firstAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (firstAt !== undefined) {
      if (Date.now() - firstAt >= 1_000) process.exit(130);
      return;
    }
    firstAt = Date.now();
    print(signal === 'SIGINT' ? '\nStopping Mnemo...' : 'Stopping Mnemo...');
    setTimeout(() => {
      process.stderr.write('Mnemo took too long to stop; exiting now.\n');
      process.exit(1);
    }, 20_000).unref();
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Mnemo did not stop cleanly: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/**
 * A server that keeps running for hours must not die of one forgotten promise: unhandled rejections are
 * logged and it goes on. An uncaught exception leaves the process in an unknown state, so it is logged
 * and the server stops gracefully with a one-line message instead of a stack trace.
 */
export function guardProcess(mode: BrowserMode): void {
  process.on('unhandledRejection', (reason) => mode.core.log.error('unhandled rejection', { error: reason }));
  process.on('uncaughtException', (error) => {
    mode.core.log.error('uncaught exception', { error });
    process.stderr.write(
      `Mnemo hit an unexpected error and is stopping: ${error.message} (details in ${mode.core.log.file})\n`,
    );
    void mode.close().finally(() => process.exit(1));
  });
}

/** The browser-mode face as a whole process: serve, print the URL, stop gracefully on signals. */
export async function serveBrowserMode(
  args: { dataDir?: string | undefined; port?: number | undefined },
  print: (line: string) => void,
): Promise<void> {
  const mode = await startBrowserMode({
    dataDir: resolveDataDir({ flag: args.dataDir }),
    port: args.port,
    print,
  });
  closeOnSignals(mode.close, print);
  guardProcess(mode);
  announce(mode, print);
}

/** The faces' last line of defence: one line on stderr, never a stack trace. */
export function exitOnStartFailure(error: unknown): never {
  process.stderr.write(`Mnemo could not start: ${(error as Error).message ?? String(error)}\n`);
  process.exit(1);
}
