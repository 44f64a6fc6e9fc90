// When a space syncs while the app runs: at start, a few seconds after each change (batched: a burst of
// writes is one commit), when asked (the window got focus, a new conversation is about to load its
// memory), on a periodic check of the remote (default every 60 s), and once more before quitting. One sync
// at a time per space; a request during a sync makes one more afterwards. Nothing waits for it unless it
// asks to (`now()`), so typing and answers are never blocked. Its status is what the sidebar shows.
import type { SpaceSync, SyncChoice } from './engine.js';
import { SyncError, type SyncErrorKind, type SyncReport } from './report.js';

export const DEFAULT_PERIOD_MS = 60_000;
export const DEFAULT_DEBOUNCE_MS = 2_000;

export type SyncStatus =
  | { state: 'off' }
  | { state: 'syncing'; lastSyncAt?: number }
  | { state: 'synced'; lastSyncAt: number; waiting: number }
  | { state: 'error'; kind: SyncErrorKind; message: string; lastSyncAt?: number; waiting: number };

export interface SchedulerOptions {
  periodMs?: number;
  debounceMs?: number;
  /** Subscribe to the space's changes (memory and conversations); returns the unsubscribe function. */
  onChange?: (listener: () => void) => () => void;
  onStatus?: (status: SyncStatus) => void;
  /** Each sync's end: the choice it ran with (if any), and its report or its error. */
  onSettled?: (ran: SyncChoice | undefined, result: SyncSettled) => void;
}

export type SyncSettled = { report: SyncReport } | { error: SyncError };

export class SyncScheduler {
  private timer: NodeJS.Timeout | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  /** A choice for the next sync (after a rewritten remote): it runs once, in turn with the others. */
  private choice: SyncChoice | undefined;
  private stopped = false;
  private waiting = 0;
  private lastSyncAt: number | undefined;
  /** When the sync running now started (undefined: none running). */
  private runningSince: number | undefined;
  private current: SyncStatus = { state: 'off' };
  private readonly unsubscribe: () => void;

  constructor(
    private readonly sync: SpaceSync,
    private readonly options: SchedulerOptions = {},
  ) {
    this.unsubscribe =
      options.onChange?.(() => {
        this.waiting++;
        this.publish();
        this.soon();
      }) ?? (() => undefined);
  }

  status(): SyncStatus {
    return this.current;
  }

  /** How long the sync running now has been at it (undefined: none is running). */
  runningFor(): number | undefined {
    return this.runningSince === undefined ? undefined : Date.now() - this.runningSince;
  }

  /** Starts: a sync now, then the periodic check. */
  start(): void {
    if (!this.sync.configured() || this.stopped) return;
    void this.now();
    this.setPeriod(this.options.periodMs ?? DEFAULT_PERIOD_MS);
  }

  /** A new interval for the periodic check (Settings → Sync), from now on. */
  setPeriod(ms: number): void {
    clearInterval(this.timer);
    if (this.stopped) return;
    this.timer = setInterval(() => void this.now(), ms);
    this.timer.unref();
  }

  /** A sync a few seconds from now; further changes meanwhile join it. */
  soon(): void {
    if (this.stopped || !this.sync.configured()) return;
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.now(), this.options.debounceMs ?? DEFAULT_DEBOUNCE_MS);
    this.debounce.unref();
  }

  /** A sync now (or right after the one running); resolves when it is done, never rejects. */
  now(choice?: SyncChoice): Promise<void> {
    if (this.stopped || !this.sync.configured()) return Promise.resolve();
    if (choice) this.choice = { ...this.choice, ...choice };
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        const choice = this.choice;
        this.choice = undefined;
        await this.once(choice);
      } while (this.again && !this.stopped);
    })().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Before quitting: stop the timers, finish the running sync, and sync once more if changes wait. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearTimeout(this.debounce);
    this.unsubscribe();
    await this.running;
    if (this.waiting > 0 && this.sync.configured()) await this.once();
    this.stopped = true;
  }

  private async once(choice?: SyncChoice): Promise<void> {
    const before = this.waiting;
    this.runningSince = Date.now();
    this.set({ state: 'syncing', ...(this.lastSyncAt ? { lastSyncAt: this.lastSyncAt } : {}) });
    try {
      const report = await this.sync.sync(choice ?? {});
      this.waiting = Math.max(0, this.waiting - before);
      this.lastSyncAt = Date.now();
      this.options.onSettled?.(choice, { report });
      this.set({ state: 'synced', lastSyncAt: this.lastSyncAt, waiting: this.waiting });
    } catch (error) {
      const e =
        error instanceof SyncError
          ? error
          : new SyncError('failed', 'The sync failed unexpectedly; it is tried again.');
      this.options.onSettled?.(choice, { error: e });
      this.set({
        state: 'error',
        kind: e.kind,
        message: e.message,
        waiting: this.waiting,
        ...(this.lastSyncAt ? { lastSyncAt: this.lastSyncAt } : {}),
      });
    } finally {
      this.runningSince = undefined;
    }
  }

  private publish(): void {
    if (this.current.state === 'synced') this.set({ ...this.current, waiting: this.waiting });
    else if (this.current.state === 'error') this.set({ ...this.current, waiting: this.waiting });
  }

  private set(status: SyncStatus): void {
    this.current = status;
    this.options.onStatus?.(status);
  }
}
