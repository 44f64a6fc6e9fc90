// The spaces of one backend: the registry, and each space's context opened on first use and kept until
// close. Personal is opened the same way as the others, only when something asks for it (createCore asks
// at once for the app's faces; a terminal run in another space never does), so a process working in one
// space opens, locks and writes no other space's folders: none of them costs anything until it is used.
import type { EventName, EventPayload } from '../../../shared/contract.js';
import type { SpaceGoneDetails } from '../../../shared/channels/spaces.js';
import { ContractError } from '../../../shared/errors.js';
import type { CoreContext, SettingsStore, SharedContext } from '../context.js';
import type { Listing } from '../conversations/folder-load.js';
import type { FanOutBus } from '../events.js';
import { memoryLimitsOf } from '../memory-limits.js';
import { countSpace } from './counts.js';
import { PERSONAL_ID, type Space, type SpaceCounts, type SpaceSettings } from './model.js';
import { IdleWarmer } from './idle-warm.js';
import { openSpace, SEARCH_WARM_DELAY_MS, type OpenedSpace, type OpenSpace } from './open-space.js';
import type { SpaceRegistry } from './registry.js';
import type { TrashedSpace } from './trash.js';

/** How long after start the trash is looked at. */
const TRASH_DELAY_MS = 60_000;
/**
 * How long a space's counts are answered from memory. A change made here (any space's memory.changed or
 * conversations.changed) drops its entry at once; only another process (a CLI run) can leave a count
 * older than this.
 */
export const COUNTS_FRESH_MS = 30_000;

export type SpaceEventListener = <E extends EventName>(
  spaceId: string,
  name: E,
  payload: EventPayload<E>,
) => void;

export class Spaces {
  private readonly opened = new Map<string, Promise<OpenedSpace>>();
  /** The spaces whose open has finished (kept after close: createCore's `ctx` still answers then). */
  private readonly ready = new Map<string, OpenedSpace>();
  private readonly listeners = new Set<SpaceEventListener>();
  private closed = false;
  private trashTimer: NodeJS.Timeout | undefined;
  private emptying: Promise<unknown> = Promise.resolve();
  private readonly warmer = new IdleWarmer(SEARCH_WARM_DELAY_MS);
  private readonly counts = new Map<string, { at: number; counts: Promise<SpaceCounts> }>();

  constructor(
    readonly registry: SpaceRegistry,
    private readonly shared: SharedContext,
    private readonly globalSettings: SettingsStore,
  ) {}

  list(): Promise<Space[]> {
    return this.registry.list();
  }

  get(id: string): Promise<Space | undefined> {
    return this.registry.get(id);
  }

  /** The list with counts of conversations and memory files (folder listings: only when asked). */
  async listWithCounts(): Promise<(Space & SpaceCounts)[]> {
    const spaces = await this.registry.list();
    return Promise.all(spaces.map(async (s) => ({ ...s, ...(await this.countsOf(s.id)) })));
  }

  /** Counted again only after a change here or COUNTS_FRESH_MS (the switcher asks each time it opens). */
  private countsOf(id: string): Promise<SpaceCounts> {
    const now = performance.now();
    const cached = this.counts.get(id);
    if (cached && now - cached.at < COUNTS_FRESH_MS) return cached.counts;
    const counts = countSpace(this.registry.dataDir, id);
    this.counts.set(id, { at: now, counts });
    counts.catch(() => this.counts.delete(id));
    return counts;
  }

  find(name: string): Promise<Space | undefined> {
    return this.registry.find(name);
  }

  /** The space of that name, created if there is none. */
  async ensure(name: string): Promise<{ space: Space; created: boolean }> {
    const found = await this.registry.find(name);
    if (found) return { space: found, created: false };
    try {
      return { space: await this.registry.create({ name }), created: true };
    } catch (error) {
      // Another process created it meanwhile.
      const now =
        error instanceof ContractError && error.code === 'conflict'
          ? await this.registry.find(name)
          : undefined;
      if (now) return { space: now, created: false };
      throw error;
    }
  }

  create(input: { name: string; colour?: string }): Promise<Space> {
    return this.registry.create(input);
  }

  rename(id: string, name: string): Promise<Space> {
    return this.registry.rename(id, name);
  }

  recolour(id: string, colour: string): Promise<Space> {
    return this.registry.recolour(id, colour);
  }

  configure(id: string, patch: { [K in keyof SpaceSettings]?: SpaceSettings[K] | null }): Promise<Space> {
    return this.registry.configure(id, patch);
  }

  /** Runs `job` once no space has opened and no call has come for a while (idle-warm.ts). */
  whenIdle(job: () => Promise<unknown>): void {
    this.warmer.add(job);
  }

  /**
   * A space's context and handlers, opened on first use. `early`: its conversations folder's listing, if
   * one is under way already (createCore starts Personal's before its settings load).
   */
  open(id: string, early?: Promise<Listing>): Promise<OpenSpace> {
    if (this.closed) return Promise.reject(new ContractError('unavailable', 'Mnemo is closing.'));
    let opening = this.opened.get(id);
    if (!opening) {
      this.warmer.busy();
      opening = openSpace(this.shared, this.registry, this.globalSettings, id, this.warmer, early).then(
        (space) => {
          this.follow(space);
          this.ready.set(id, space);
          return space;
        },
      );
      this.opened.set(id, opening);
      opening.catch(() => this.opened.delete(id));
    }
    return opening;
  }

  /** The space if its open has finished, without opening it. */
  ifOpen(id: string): OpenSpace | undefined {
    return this.ready.get(id);
  }

  /**
   * The space a call names, checked to exist now (another process may have deleted it since it was
   * opened: its open context is dropped then, never written through into the trash).
   */
  async route(id: string): Promise<OpenSpace> {
    // A window is using the app: the index builds of opened spaces wait until it pauses.
    this.warmer.busy();
    // Personal cannot be deleted: there is nothing to check.
    if (id === PERSONAL_ID) return this.open(id);
    if (!(await this.registry.get(id))) {
      const stale = this.opened.get(id);
      if (stale) {
        this.opened.delete(id);
        this.ready.delete(id);
        void stale.then(
          (s) => s.close(),
          () => undefined,
        );
      }
      const details: SpaceGoneDetails = { spaceGone: id };
      throw new ContractError(
        'not_found',
        'That space does not exist any more (it may have been deleted). Switch to another space.',
        details,
      );
    }
    return this.open(id);
  }

  isOpen(id: string): boolean {
    return this.opened.has(id);
  }

  /** To the trash, once nothing runs in it; its open memory and conversations are closed first. */
  async delete(id: string): Promise<TrashedSpace> {
    if (id === PERSONAL_ID) return this.registry.delete(id); // refuses with the reason
    await this.registry.require(id);
    const opening = this.opened.get(id);
    if (opening) {
      const space = await opening;
      if (space.ctx.runs.running().length > 0) {
        throw new ContractError(
          'unavailable',
          'A reply is still being written in that space: stop it before deleting.',
        );
      }
      this.opened.delete(id);
      this.ready.delete(id);
      await space.close();
    }
    const trashed = await this.registry.delete(id);
    // Deleting is when old trash is looked at: never at start, never for a space just deleted. Close waits
    // for it (a CLI run ends right after the delete), so an erase is not cut short between its steps.
    const emptying = this.registry
      .emptyTrash()
      .catch((error: unknown) => this.shared.log.warn('space trash not emptied', { error }));
    const before = this.emptying;
    this.emptying = Promise.all([before, emptying]);
    return trashed;
  }

  /**
   * Erases, `delayMs` from now, the spaces deleted longer ago than the trash keeps them. Not at start (the
   * app reads nothing but the list then); the timer never keeps the process alive, and close waits for it.
   */
  emptyTrashSoon(delayMs = TRASH_DELAY_MS): Promise<number> {
    if (this.closed) return Promise.resolve(0);
    clearTimeout(this.trashTimer);
    return new Promise((resolve) => {
      this.trashTimer = setTimeout(() => {
        const done = this.registry.emptyTrash().catch((error: unknown) => {
          this.shared.log.warn('space trash not emptied', { error });
          return 0;
        });
        this.emptying = Promise.all([this.emptying, done]);
        void done.then(resolve);
      }, delayMs);
      this.trashTimer.unref();
    });
  }

  trashed(): Promise<TrashedSpace[]> {
    return this.registry.trashed();
  }

  restore(id: string): Promise<Space> {
    this.counts.delete(id);
    return this.registry.restore(id);
  }

  /** Every space's events, tagged with its id (the transports add the space to what they forward). */
  onEvent(listener: SpaceEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Aborts the runs of every open space; returns how many there were. */
  abortRuns(): number {
    let aborted = 0;
    for (const space of this.ready.values()) {
      const running = space.ctx.runs.running();
      for (const runId of running) space.ctx.runs.abort(runId);
      aborted += running.length;
    }
    return aborted;
  }

  /** How many runs go on in the open spaces. */
  running(): number {
    let n = 0;
    for (const space of this.ready.values()) n += space.ctx.runs.running().length;
    return n;
  }

  /** Closes every space opened here, Personal last (the others' runs abort and memories close first). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.trashTimer);
    this.warmer.stop();
    await this.emptying;
    const personal = this.opened.get(PERSONAL_ID);
    this.opened.delete(PERSONAL_ID);
    const opened = [...this.opened.values()];
    this.opened.clear();
    const closeOne = (p: Promise<OpenedSpace> | undefined) =>
      p?.then(
        (s) => s.close(),
        () => undefined,
      );
    await Promise.all(opened.map(closeOne));
    await closeOne(personal);
    await this.registry.close();
  }

  private follow(space: { id: string; bus: FanOutBus; ctx: CoreContext }): void {
    space.bus.subscribe((name, payload) => {
      // Memory limits are global: a change made through any space applies to every open memory.
      if (name === 'settings.changed') this.applyLimits();
      if (name === 'memory.changed' || name === 'conversations.changed') this.counts.delete(space.id);
      for (const listener of this.listeners) listener(space.id, name, payload);
    });
  }

  private applyLimits(): void {
    const limits = memoryLimitsOf(this.globalSettings.get());
    for (const opening of this.opened.values())
      void opening.then(
        (s) => s.ctx.memory.setLimits(limits),
        () => undefined,
      );
  }
}
