// Sync for a running backend, every space at once: what Settings → Sync, the sidebar's status and the
// app's lifecycle call (the CLI's commands too). Joining a remote lives here so every face asks the same
// question before merging another space into this one; the schedulers run only where start() is called
// (the app's faces, not a one-off CLI run).
import type { KeyCipher } from '../key-vault.js';
import {
  defaultDeviceName,
  MAX_CHECK_SECONDS,
  MIN_CHECK_SECONDS,
  parseRemoteUrl,
  SyncConfigStore,
  syncPaths,
} from './config.js';
import type { SpaceSync, SyncChoice } from './engine.js';
import { spaceChanges, spaceSyncOf, type SyncBackend } from './for-core.js';
import { SyncError, type SyncReport } from './report.js';
import { DEFAULT_PERIOD_MS, SyncScheduler, type SyncSettled, type SyncStatus } from './scheduler.js';

export interface JoinInput {
  url: string;
  token: string;
  /** Else the URL's user name. */
  username?: string;
  /** This device's name (default: the host name, or the name it had). */
  device?: string;
  /** The person agreed to merge a remote that holds another space into this one. */
  confirmOtherSpace?: boolean;
}

export type JoinResult =
  | { joined: true; url: string; device: string }
  | { joined: false; otherSpace: { id: string; name: string }; memoryFiles: number; conversations: number };

export interface SyncServiceOptions {
  cipher?: KeyCipher;
  periodMs?: number;
  debounceMs?: number;
}

/**
 * The longest a new conversation waits, counted from the start of the sync it waits for, for what the
 * other devices learned (then it goes on without it: README, "Before a new conversation").
 */
export const BEFORE_CONVERSATION_MS = 1_500;

type SettledListener = (ran: SyncChoice | undefined, result: SyncSettled) => void;
type SyncedListener = (spaceId: string, report: SyncReport) => void;

/** Whether a sync that ran with `ran` carried every part of `choice` (choices asked together merge). */
const carries = (ran: SyncChoice | undefined, choice: SyncChoice): boolean =>
  (Object.keys(choice) as (keyof SyncChoice)[]).every((k) => ran?.[k] === choice[k]);

/** A sync that failed for one of these would fail again at once: a new conversation does not wait. */
const NOT_WORTH_WAITING = new Set(['offline', 'auth', 'rewritten', 'other_space', 'not_configured']);

export class SyncService {
  private readonly syncs = new Map<string, Promise<SpaceSync>>();
  private readonly schedulers = new Map<string, SyncScheduler>();
  private readonly listeners = new Set<(spaceId: string, status: SyncStatus) => void>();
  private readonly syncedListeners = new Set<SyncedListener>();
  private started = false;

  constructor(
    private readonly core: SyncBackend,
    private readonly options: SyncServiceOptions = {},
  ) {}

  of(spaceId: string): Promise<SpaceSync> {
    let s = this.syncs.get(spaceId);
    if (!s) {
      s = spaceSyncOf(this.core, spaceId, this.options.cipher);
      this.syncs.set(spaceId, s);
      s.catch(() => this.syncs.delete(spaceId));
    }
    return s;
  }

  /**
   * Schedules every space that has a remote (at start; each syncs at once). Whether one has is read from
   * its remote file alone: opening every space to ask (its memory, its conversations) made a start with
   * 50 spaces read all of them, where the issue wants the others opened only when used.
   */
  async start(): Promise<void> {
    this.started = true;
    for (const space of await this.core.spaces.list()) {
      if (this.hasRemote(space.id)) await this.schedule(space.id);
    }
  }

  /**
   * Whether the space has a remote, from its remote file alone: asking the space's sync (`of`) loads the
   * git engine and opens the space, which a chat in a space without a remote never needs.
   */
  hasRemote(spaceId: string): boolean {
    return new SyncConfigStore(syncPaths(this.core.ctx.dataDir, spaceId)).remote() !== undefined;
  }

  status(spaceId: string): SyncStatus {
    return this.schedulers.get(spaceId)?.status() ?? { state: 'off' };
  }

  /** How long the space's running sync has been at it (undefined: none is running, or not scheduled). */
  runningFor(spaceId: string): number | undefined {
    return this.schedulers.get(spaceId)?.runningFor();
  }

  onStatus(listener: (spaceId: string, status: SyncStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Sets a space's remote and joins it: the credentials are tried first (a refusal saves nothing), and a
   * remote holding another space is joined only when confirmed, if this space holds anything to merge.
   */
  async join(spaceId: string, input: JoinInput): Promise<JoinResult> {
    let parsed;
    try {
      parsed = parseRemoteUrl(input.url);
    } catch (error) {
      // The window shows a SyncError's message; any other error would reach it as an internal one.
      throw new SyncError('not_configured', (error as Error).message);
    }
    const username = parsed.username ?? input.username?.trim();
    if (!username)
      throw new SyncError(
        'not_configured',
        'Give the user name in the address (https://USER@host/...) or with it.',
      );
    if (!input.token.trim())
      throw new SyncError(
        'not_configured',
        'Give the token: it is stored on this device only and never shown again.',
      );
    const sync = await this.of(spaceId);
    const device = input.device?.trim() || sync.config.remote()?.device || defaultDeviceName();
    sync.config.setRemote({ url: parsed.url, username, device });
    sync.config.setToken(input.token.trim());
    try {
      const remote = await sync.inspectRemote();
      if (remote.otherSpace) {
        const counts = (await this.core.spaces.listWithCounts()).find((s) => s.id === spaceId);
        const memoryFiles = counts?.memoryFiles ?? 0;
        const conversations = counts?.conversations ?? 0;
        if ((memoryFiles > 0 || conversations > 0) && !input.confirmOtherSpace) {
          sync.config.disconnect();
          return { joined: false, otherSpace: remote.otherSpace, memoryFiles, conversations };
        }
        sync.adoptRemoteSpace(remote.otherSpace.id);
      }
    } catch (error) {
      sync.config.disconnect();
      throw error;
    }
    if (this.started) await this.schedule(spaceId);
    return { joined: true, url: parsed.url, device };
  }

  /**
   * Every sync of a space that got through, scheduled or asked for, with its report: what the windows
   * are told beyond the status (the files another device forgot, erased here by it).
   */
  onSynced(listener: SyncedListener): () => void {
    this.syncedListeners.add(listener);
    return () => this.syncedListeners.delete(listener);
  }

  /**
   * Syncs now (Settings' "Sync now", the sidebar's Retry, the CLI); throws a SyncError on failure.
   * `choice.resolve`, after the remote's history was rewritten: push this device's copy over it, or take
   * the remote's (after a backup; the report says where). Where the space is scheduled, the sync runs in
   * turn with the scheduler's, never beside one.
   */
  async syncNow(spaceId: string, choice?: SyncChoice): Promise<SyncReport> {
    const sync = await this.of(spaceId);
    const scheduler = this.schedulers.get(spaceId);
    if (!scheduler) return this.direct(spaceId, sync, choice);
    // The outcome of the sync that ran with this choice: not of one a write's debounce or the timer
    // started right after it (which would carry no backup), nor of one already running without it.
    let settled: SyncSettled | undefined;
    const off = this.onSettled(spaceId, (ran, result) => {
      if (!choice || carries(ran, choice)) settled = result;
    });
    await scheduler.now(choice);
    off();
    if (!settled) return this.direct(spaceId, sync, choice);
    if ('error' in settled) throw settled.error;
    return settled.report;
  }

  /** A sync outside the scheduler (none runs for the space, or it ran without the choice). */
  private async direct(
    spaceId: string,
    sync: SpaceSync,
    choice: SyncChoice | undefined,
  ): Promise<SyncReport> {
    const report = await sync.sync(choice ?? {});
    this.synced(spaceId, report);
    return report;
  }

  /** The remote goes (the space's data stays, and so does its git folder for a later re-join). */
  async disconnect(spaceId: string): Promise<void> {
    const scheduler = this.schedulers.get(spaceId);
    this.schedulers.delete(spaceId);
    await scheduler?.stop();
    (await this.of(spaceId)).config.disconnect();
    this.emit(spaceId, { state: 'off' });
  }

  /** The window got focus: every synced space checks (in the background). */
  focus(): void {
    for (const s of this.schedulers.values()) void s.now();
  }

  /**
   * Before a new conversation loads its memory: what the other devices learned, if it comes quickly. A
   * sync is asked for either way; the conversation waits for it only while it is short: not at all when
   * the last sync failed in a way that would fail again (offline, a refused token, a rewritten remote),
   * nor when the sync running now has already taken longer than the bound (a first sync of a big space),
   * and otherwise until the bound counted from that sync's start. Resolves `true` when the sync it waited
   * for finished in time.
   */
  async beforeConversation(spaceId: string, waitMs = BEFORE_CONVERSATION_MS): Promise<boolean> {
    const scheduler = this.schedulers.get(spaceId);
    if (!scheduler) return false;
    const status = scheduler.status();
    const runningFor = scheduler.runningFor() ?? 0;
    const done = scheduler.now();
    if (status.state === 'error' && NOT_WORTH_WAITING.has(status.kind)) return false;
    const left = waitMs - runningFor;
    if (left <= 0) return false;
    let timer: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([
      done.then(() => true),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), left))),
    ]);
    clearTimeout(timer);
    return inTime;
  }

  /** Before quitting: each space sends what waits. */
  async stop(): Promise<void> {
    this.started = false;
    const all = [...this.schedulers.values()];
    this.schedulers.clear();
    await Promise.all(all.map((s) => s.stop()));
  }

  private readonly settledListeners = new Map<string, Set<SettledListener>>();

  private onSettled(spaceId: string, fn: SettledListener): () => void {
    let set = this.settledListeners.get(spaceId);
    if (!set) this.settledListeners.set(spaceId, (set = new Set()));
    set.add(fn);
    return () => set.delete(fn);
  }

  /** How often a space checks its remote while the app runs: its setting, else the service's default. */
  periodMs(sync: SpaceSync): number {
    const seconds = sync.config.remote()?.checkSeconds;
    return seconds !== undefined ? seconds * 1000 : (this.options.periodMs ?? DEFAULT_PERIOD_MS);
  }

  /** Settings → Sync's "check every": kept with the space's remote on this device, applied at once. */
  async setCheckInterval(spaceId: string, seconds: number): Promise<void> {
    const sync = await this.of(spaceId);
    const remote = sync.config.remote();
    if (!remote) throw new SyncError('not_configured', 'This space has no sync remote yet.');
    if (!Number.isInteger(seconds) || seconds < MIN_CHECK_SECONDS || seconds > MAX_CHECK_SECONDS)
      throw new SyncError(
        'not_configured',
        `Choose a check interval between ${MIN_CHECK_SECONDS} seconds and ${MAX_CHECK_SECONDS / 3600} hours.`,
      );
    sync.config.setRemote({ ...remote, checkSeconds: seconds });
    this.schedulers.get(spaceId)?.setPeriod(seconds * 1000);
  }

  private async schedule(spaceId: string): Promise<void> {
    if (this.schedulers.has(spaceId)) return;
    const sync = await this.of(spaceId);
    const scheduler = new SyncScheduler(sync, {
      periodMs: this.periodMs(sync),
      ...(this.options.debounceMs !== undefined ? { debounceMs: this.options.debounceMs } : {}),
      onChange: await spaceChanges(this.core, spaceId),
      onStatus: (status) => this.emit(spaceId, status),
      onSettled: (ran, result) => {
        if ('report' in result) this.synced(spaceId, result.report);
        for (const fn of this.settledListeners.get(spaceId) ?? []) fn(ran, result);
      },
    });
    this.schedulers.set(spaceId, scheduler);
    scheduler.start();
  }

  private synced(spaceId: string, report: SyncReport): void {
    for (const l of this.syncedListeners) {
      try {
        l(spaceId, report);
      } catch {
        // a listener's failure must not fail the sync that got through
      }
    }
  }

  private emit(spaceId: string, status: SyncStatus): void {
    for (const l of this.listeners) {
      try {
        l(spaceId, status);
      } catch {
        // a listener's failure must not stop a sync
      }
    }
  }
}
