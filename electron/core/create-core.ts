// One backend instance for one data dir: the services every space shares (settings, log, API key, host,
// sync), the spaces, and Personal's context, handler table and bus for the faces that start there. Every
// face (Electron, browser mode, CLI, tests) starts here, so they share the same settings, log and memory.
import path from 'node:path';
import type { Handlers } from '../../shared/contract.js';
import { appVersion } from './app-version.js';
import type { CoreContext, SettingsStore, SharedContext } from './context.js';
import { prefetchFolder } from './conversations/folder-load.js';
import { ensureDataDir, tightenDataDir } from './data-dir.js';
import type { FanOutBus } from './events.js';
import type { HostServices } from './host.js';
import type { KeyCipher } from './key-vault.js';
import { createFileKeyVault } from './key-vault.js';
import { createFileLogger, type FileLogger } from './log.js';
import { createSettingsStore, type ConfLike } from './settings-store.js';
import { type OpenSpace, PERSONAL_ID, SpaceRegistry, Spaces } from './spaces/index.js';
import { syncLink } from './sync/link.js';
import { syncFilesOf } from './sync/space-files.js';
import { SyncService, type SyncServiceOptions } from './sync/service.js';

export interface CreateCoreOptions {
  /** Absolute data dir (resolve it with data-dir.ts's resolveDataDir). Created 0700 if missing. */
  dataDir: string;
  host: HostServices;
  env?: NodeJS.ProcessEnv;
  version?: string;
  /** Electron plugs in safeStorage here; plain Node keeps the key in a 0600 plain-text file. */
  keyCipher?: KeyCipher;
  /** Electron passes a factory of its electron-store (same file: userData/config.json). */
  conf?: ConfLike | (() => ConfLike);
  /** Echo log lines (e.g. to stderr when MNEMO_DEBUG=1). */
  logEcho?: (line: string) => void;
  /** When sync runs by itself: after a write (debounce) and between checks (period). The app's defaults otherwise. */
  syncTiming?: Pick<SyncServiceOptions, 'debounceMs' | 'periodMs'>;
  /**
   * Whether Personal opens before createCore resolves (the default: the window's first list is
   * Personal's, so the app's faces open it while they start, and `ctx`, `handlers` and `bus` are ready).
   * false: Personal opens only when something asks for it (`spaces.open('personal')`, a call routed
   * there), so a process working in another space never opens, locks or writes Personal's folders.
   */
  openPersonal?: boolean;
}

export interface Core {
  /**
   * Personal's context, handlers and bus. Opened before createCore resolves unless `openPersonal` was
   * false; then they throw until Personal has been opened (`await core.spaces.open('personal')`).
   */
  readonly ctx: CoreContext;
  readonly handlers: Handlers;
  readonly bus: FanOutBus;
  /** The data folder (absolute), whatever the space. */
  dataDir: string;
  /** The global settings and API key; each space's `ctx.settings` overlays its own on them. */
  settings: SettingsStore;
  log: FileLogger;
  /**
   * The spaces of this data folder. `spaces.open(id)` gives a space's context, handlers and bus (opened
   * on first use, Personal too, closed by `close`).
   */
  spaces: Spaces;
  /**
   * Every space's sync through its git remote (the sync.* channels). Its schedulers run only once a face
   * calls `sync.start()` (the app's faces; a one-off CLI run does not); `close` stops them first.
   */
  sync: SyncService;
  /** Registers work to do on close (flush conversations, stop watchers); run in reverse order. */
  onClose(fn: () => void | Promise<void>): void;
  /** Aborts running runs and flushes what must be saved. Idempotent. */
  close(): Promise<void>;
}

export async function createCore(options: CreateCoreOptions): Promise<Core> {
  const env = options.env ?? process.env;
  const dataDir = ensureDataDir(options.dataDir);
  const tightened = tightenDataDir(dataDir);
  // Personal's conversations listed (and their summary cache read) while the settings load and its
  // memory opens: the window's first request is that list, and this way the read and its parse fill the
  // start's waits for the disk instead of following them.
  const early =
    options.openPersonal === false ? undefined : prefetchFolder(path.join(dataDir, 'conversations'));
  early?.catch(() => undefined); // the store lists again, and reports what fails then
  // The logger masks the keys in use: the stored one is handed to it by the settings store whenever that
  // reads the file, because a logger that read the key itself would log the read's warning, and so on.
  const keyHolder: { stored?: string | undefined } = {};
  const log = createFileLogger({
    dataDir,
    secrets: () => [env.ANTHROPIC_API_KEY, keyHolder.stored],
    ...(options.logEcho ? { echo: options.logEcho } : env.MNEMO_DEBUG ? { echo: stderrEcho } : {}),
  });
  for (const t of tightened) log.info('data folder made owner-only (0700)', t);
  const globalSettings = createSettingsStore({
    dataDir,
    log,
    env,
    vault: createFileKeyVault({
      dataDir,
      ...(options.keyCipher ? { cipher: options.keyCipher } : {}),
    }),
    onStoredKey: (key) => (keyHolder.stored = key),
    ...(options.conf ? { conf: options.conf } : {}),
  });
  // A space's sync files (DIR/sync/<id>.*) live outside its folder: the trash erases them with it.
  const registry = new SpaceRegistry(dataDir, syncFilesOf(dataDir));
  const shared: SharedContext = {
    dataDir,
    host: options.host,
    log,
    baseUrl: nonEmpty(env.ANTHROPIC_BASE_URL),
    version: options.version ?? appVersion(),
  };
  const spaces = new Spaces(registry, shared, globalSettings);
  // Before any space is opened: each copies these links from the shared context.
  shared.spaces = spaces;
  // Every space's recall index loads through the same queue as the search indexes: never during a switch.
  shared.idle = (job) => spaces.whenIdle(job);
  const backend = { ctx: { dataDir }, spaces };
  const sync = new SyncService(backend, {
    ...options.syncTiming,
    ...(options.keyCipher ? { cipher: options.keyCipher } : {}),
  });
  shared.sync = syncLink(backend, sync);
  void spaces.emptyTrashSoon();
  if (early) await spaces.open(PERSONAL_ID, early);
  log.info('core started', {
    host: options.host.kind,
    version: shared.version,
    keySource: globalSettings.apiKeyStatus().source,
    customBaseUrl: shared.baseUrl !== undefined,
  });

  const personal = (): OpenSpace => {
    const open = spaces.ifOpen(PERSONAL_ID);
    if (!open)
      throw new Error("Personal is not open in this process: await core.spaces.open('personal') first.");
    return open;
  };
  // Run in reverse: stop sync (each space sends what waits), then close the spaces, Personal last.
  const closers: (() => void | Promise<void>)[] = [() => spaces.close(), () => sync.stop()];
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      const aborted = spaces.abortRuns();
      // Let aborted runs save their partial answer (marked interrupted) before memory and files close.
      if (!(await settled(() => spaces.running() === 0, RUN_SETTLE_MS))) {
        log.warn('runs still going at close', { runs: spaces.running() });
      }
      for (const fn of closers.reverse()) {
        try {
          await fn();
        } catch (error) {
          log.error('error while closing', { error });
        }
      }
      log.info('core closed', { abortedRuns: aborted });
    })());

  return {
    get ctx() {
      return personal().ctx;
    },
    get handlers() {
      return personal().handlers;
    },
    get bus() {
      return personal().bus;
    },
    dataDir,
    settings: globalSettings,
    log,
    spaces,
    sync,
    onClose: (fn) => void closers.push(fn),
    close,
  };
}

const RUN_SETTLE_MS = 5_000;

/** Resolves true once `done()` holds, false after `ms` (checked every 20 ms: a shutdown-only wait). */
async function settled(done: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (!done()) {
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

function stderrEcho(line: string): void {
  process.stderr.write(`${line}\n`);
}
