// One space opened, Personal as any other: its own memory (createMemory on the space's folder), search
// index, run registry and event bus, and the complete handler table over them. The rest of the backend
// (settings, log, host) is shared. Handlers built here can reach only this space's folders: every path
// they touch derives from ctx.space.dir and ctx.memory, never from another space's context.
import path from 'node:path';
import { createMemory } from '../../../memory/index.js';
import { createMemorySearch } from '../../../memory/search/index.js';
import type { Handlers } from '../../../shared/contract.js';
import { closeAgent } from '../agent/index.js';
import { type Listing, leftoversOf, prefetchFolder } from '../conversations/folder-load.js';
import { createHandlers } from '../backend.js';
import type { CoreContext, SettingsStore, SharedContext } from '../context.js';
import { FanOutBus } from '../events.js';
import { finishPendingForgets } from '../forget.js';
import { followForgets } from '../forget-follow.js';
import { memoryLimitsOf } from '../memory-limits.js';
import { RunRegistry } from '../runs.js';
import type { IdleWarmer } from './idle-warm.js';
import type { SpaceRegistry } from './registry.js';
import { spaceSettingsStore } from './space-settings.js';
import { PERSONAL_ID, spaceDir } from './model.js';

/** How long the conversations read at a space's open stay good for its store (a switch asks at once). */
export const PRELOAD_FRESH_MS = 2_000;

/** How long after the last space opened their memory search indexes are built (one at a time). */
export const SEARCH_WARM_DELAY_MS = 2_000;

export interface OpenSpace {
  id: string;
  ctx: CoreContext;
  handlers: Handlers;
  /** This space's events (chat.event, memory.changed, conversations.changed, ...), and only its. */
  bus: FanOutBus;
}

export interface OpenedSpace extends OpenSpace {
  close(): Promise<void>;
}

/**
 * The context of a space over the services every space shares; the settings are the global ones.
 * `early`: the listing of its conversations folder, if one is under way already (createCore starts
 * Personal's before its settings load).
 */
export async function openSpace(
  shared: SharedContext,
  registry: SpaceRegistry,
  globalSettings: SettingsStore,
  id: string,
  warmer: IdleWarmer,
  early?: Promise<Listing>,
): Promise<OpenedSpace> {
  const space = await registry.require(id);
  const dir = spaceDir(shared.dataDir, id);
  // Personal is where a start opens (a new window begins there), not a switch: its memory is hashed and
  // its index built now, and its early listing waits for the window's first list however late that comes.
  // Any other space opens on a switch, which shows its lists first and leaves the rest to the idle queue.
  const personal = id === PERSONAL_ID;
  const bus = new FanOutBus();
  const runs = new RunRegistry(bus);
  let name = space.name;
  const settings = spaceSettingsStore(globalSettings, () => registry.getSync(id)?.settings ?? {});
  // The conversations folder is read beside the memory's open, not after it: a switch to the space
  // waits for both lists. Taken by the store only while fresh: reads older than that may miss what
  // another process wrote since, and the store reads the folder again then.
  const conversationsDir = path.join(dir, 'conversations');
  const listed = early ?? prefetchFolder(conversationsDir);
  listed.catch(() => undefined); // the store lists again, and reports what fails then
  let listing: Promise<Listing> | undefined = listed;
  const listedAt = performance.now();
  if (!personal) setTimeout(() => (listing = undefined), PRELOAD_FRESH_MS).unref();
  // A folder never opened before (restored, copied in) hashes its files once the app is idle, not now.
  const memory = await createMemory({
    dataDir: dir,
    limits: memoryLimitsOf(settings.get()),
    ...(personal ? {} : { idle: (job: () => Promise<unknown>) => void warmer.add(job) }),
  });
  const search = createMemorySearch(memory);
  const warm = () =>
    search.search
      .warm()
      .catch((error: unknown) => shared.log.warn('memory search index not built', { error }));
  // Not at once in a space switched to: building the index reads every file, and the switch shows its
  // lists first. The first search builds it anyway, from the files as they are then.
  let unqueue = (): void => undefined;
  if (personal) void warm();
  else unqueue = warmer.add(warm);
  const ctx: CoreContext = {
    ...shared,
    space: {
      id,
      dir,
      name: () => (name = registry.getSync(id)?.name ?? name),
      recall: () => registry.getSync(id)?.settings.recall !== false,
      setRecall: async (on) => void (await registry.configure(id, { recall: on ? null : false })),
    },
    prefetched: (wanted) => {
      if (wanted !== conversationsDir) return undefined;
      const taken = listing;
      listing = undefined;
      return personal || performance.now() - listedAt < PRELOAD_FRESH_MS ? taken : undefined;
    },
    events: bus,
    runs,
    settings,
    memory,
    memorySearch: search.search,
  };
  const handlers = createHandlers(ctx);
  // Before any conversation is read or continued: a forget a crash cut short is finished first (the
  // leftovers of a redaction the early listing saw: the folder's names not read again).
  try {
    await finishPendingForgets(ctx, undefined, await leftoversOf(listed));
  } catch (error) {
    shared.log.error('could not finish a forget cut short; it is tried again at the next start', { error });
  }
  // Forgets made in another process on this folder: our copies go at once, not at our next start.
  const forgets = followForgets(ctx);
  return {
    id,
    ctx,
    handlers,
    bus,
    close: async () => {
      unqueue();
      await closeContext(ctx, [
        () => forgets.stop(),
        () => closeAgent(ctx),
        () => search.detach(),
        () => memory.close(),
      ]);
    },
  };
}

const RUN_SETTLE_MS = 5_000;

/** Aborts the context's runs, lets them save what they have, then runs `closers` in order. */
export async function closeContext(
  ctx: CoreContext,
  closers: (() => void | Promise<void>)[],
): Promise<number> {
  const running = ctx.runs.running();
  for (const runId of running) ctx.runs.abort(runId);
  const until = Date.now() + RUN_SETTLE_MS;
  while (ctx.runs.running().length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (ctx.runs.running().length > 0)
    ctx.log.warn('runs still going at close', { runs: ctx.runs.running().length });
  for (const fn of closers) {
    try {
      await fn();
    } catch (error) {
      ctx.log.error('error while closing', { error });
    }
  }
  return running.length;
}
