// One backend instance for one data dir: the services of CoreContext wired together, the complete
// handler table, and the bus the transports subscribe to. Every face (Electron, browser mode, CLI, tests)
// starts here, so they share the same settings, log and memory.
import path from 'node:path';
import { createMemory } from '../../memory/index.js';
import { createMemorySearch } from '../../memory/search/index.js';
import type { Handlers } from '../../shared/contract.js';
import { closeAgent } from './agent/index.js';
import { appVersion } from './app-version.js';
import { createHandlers } from './backend.js';
import { memoryLimitsOf } from './memory-limits.js';
import type { CoreContext } from './context.js';
import { type Listing, leftoversOf, prefetchFolder } from './conversations/folder-load.js';
import { ensureDataDir } from './data-dir.js';
import { FanOutBus } from './events.js';
import { finishPendingForgets } from './forget.js';
import { followForgets } from './forget-follow.js';
import type { HostServices } from './host.js';
import type { KeyCipher } from './key-vault.js';
import { createFileKeyVault } from './key-vault.js';
import { createFileLogger, type FileLogger } from './log.js';
import { RunRegistry } from './runs.js';
import { createSettingsStore, type ConfLike } from './settings-store.js';
import { PERSONAL_ID, SpaceRegistry, Spaces } from './spaces/index.js';
import { spaceSettingsStore } from './spaces/space-settings.js';
import { syncLink } from './sync/link.js';
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
}

export interface Core {
  ctx: CoreContext;
  handlers: Handlers;
  bus: FanOutBus;
  log: FileLogger;
  /**
   * The spaces of this data folder. `ctx`, `handlers` and `bus` above are Personal's; `spaces.open(id)`
   * gives another space's context, handlers and bus (opened on first use, closed by `close`).
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
  // Personal's conversations listed (and their summary cache read) while the memory opens below, once
  // its first reads are under way: the window's first request is that list, and this way the read and
  // its parse fill the start's waits for the disk instead of following them.
  const conversationsDir = path.join(dataDir, 'conversations');
  const early = prefetchFolder(conversationsDir);
  early.catch(() => undefined); // the store lists again, and reports what fails then
  let listing: Promise<Listing> | undefined = early;
  const prefetched = (dir: string): Promise<Listing> | undefined => {
    if (dir !== conversationsDir) return undefined;
    const taken = listing;
    listing = undefined;
    return taken;
  };
  // The logger masks the keys in use: the stored one is handed to it by the settings store whenever that
  // reads the file, because a logger that read the key itself would log the read's warning, and so on.
  const keyHolder: { stored?: string | undefined } = {};
  const log = createFileLogger({
    dataDir,
    secrets: () => [env.ANTHROPIC_API_KEY, keyHolder.stored],
    ...(options.logEcho ? { echo: options.logEcho } : env.MNEMO_DEBUG ? { echo: stderrEcho } : {}),
  });
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
  const registry = new SpaceRegistry(dataDir);
  // Personal's write mode and backfill budget, where it has its own, over the global settings.
  const settings = spaceSettingsStore(globalSettings, () => registry.getSync(PERSONAL_ID)?.settings ?? {});
  const bus = new FanOutBus();
  const runs = new RunRegistry(bus);
  const memory = await createMemory({ dataDir, limits: memoryLimitsOf(settings.get()) });
  const memorySearch = createMemorySearch(memory);
  // Build the search index in the background, so the first search does not pay for it.
  memorySearch.search.warm().catch((error: unknown) => log.warn('memory search index not built', { error }));
  const ctx: CoreContext = {
    dataDir,
    space: {
      id: PERSONAL_ID,
      dir: dataDir,
      name: () => registry.getSync(PERSONAL_ID)?.name ?? 'Personal',
      recall: () => registry.getSync(PERSONAL_ID)?.settings.recall !== false,
      setRecall: async (on) => void (await registry.configure(PERSONAL_ID, { recall: on ? null : false })),
    },
    prefetched,
    events: bus,
    runs,
    host: options.host,
    settings,
    log,
    memory,
    memorySearch: memorySearch.search,
    baseUrl: nonEmpty(env.ANTHROPIC_BASE_URL),
    version: options.version ?? appVersion(),
  };
  const handlers = createHandlers(ctx);
  const spaces = new Spaces(registry, { id: PERSONAL_ID, ctx, handlers, bus }, globalSettings);
  // Before any space is opened: each copies the link from this context.
  ctx.spaces = spaces;
  // Every space's recall index loads through the same queue as the search indexes: never during a switch.
  ctx.idle = (job) => spaces.whenIdle(job);
  const sync = new SyncService(
    { ctx, spaces },
    { ...options.syncTiming, ...(options.keyCipher ? { cipher: options.keyCipher } : {}) },
  );
  ctx.sync = syncLink({ ctx, spaces }, sync);
  void spaces.emptyTrashSoon();
  // Before any conversation is read or continued: a forget a crash cut short is finished first.
  try {
    // The leftovers of a redaction cut short that the early listing saw: the folder's names not read again.
    await finishPendingForgets(ctx, undefined, await leftoversOf(early));
  } catch (error) {
    log.error('could not finish a forget cut short; it is tried again at the next start', { error });
  }
  // Forgets made in another process on this folder: our copies go at once, not at our next start.
  const forgets = followForgets(ctx);
  log.info('core started', {
    host: options.host.kind,
    version: ctx.version,
    keySource: globalSettings.apiKeyStatus().source,
    customBaseUrl: ctx.baseUrl !== undefined,
  });

  // Run in reverse: stop following changes, then flush and close the memory last.
  // The agent closes first: its conversation files flush pending appends after the aborted runs settled.
  const closers: (() => void | Promise<void>)[] = [
    () => memory.close(),
    () => memorySearch.detach(),
    () => closeAgent(ctx),
    () => forgets.stop(),
    // First of all: the other spaces' runs abort and their memories close before Personal's.
    () => spaces.close(),
    // Before the spaces close: each sends what waits.
    () => sync.stop(),
  ];
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      const running = runs.running();
      for (const runId of running) runs.abort(runId);
      // Let aborted runs save their partial answer (marked interrupted) before memory and files close.
      if (!(await settled(() => runs.running().length === 0, RUN_SETTLE_MS))) {
        log.warn('runs still going at close', { runs: runs.running().length });
      }
      for (const fn of closers.reverse()) {
        try {
          await fn();
        } catch (error) {
          log.error('error while closing', { error });
        }
      }
      log.info('core closed', { abortedRuns: running.length });
    })());

  return { ctx, handlers, bus, log, spaces, sync, onClose: (fn) => void closers.push(fn), close };
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
