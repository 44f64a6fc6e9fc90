// The kernel: the one path every change takes (README.md "The shape"). An operation (the tool's commands,
// the panel's saves, revert, restore, import, forget, recovery's redo) is a plan: it reads what it needs
// and says which records to journal and which steps to apply. `transact` owns the sequence around it:
// per-path queue, the data folder's lock and catch-up (catch-up.ts), error mapping (guard), the plan,
// quota, journal, apply, emit, prune; the deferred checkpoint (checkpoint.ts) follows.
import { renameSync } from 'node:fs';
import * as path from 'node:path';
import { catchUp, rehashUnknown } from './catch-up.js';
import { Checkpoints } from './checkpoint.js';
import { MemoryError, toMemoryError } from './errors.js';
import { closeLater, crashPoint, ensureFolders, renameTemp, unlinkQuietly, writeTemp } from './fs-safe.js';
import { randomId } from './ids.js';
import { Journal, type JournalRecord } from './journal.js';
import { PathQueue, ProcessLock } from './lock.js';
import { joinModel, toHost, type ParsedPath } from './paths.js';
import { Trash } from './trash.js';
import { Tree } from './tree.js';
import { defaultLimits, type Actor, type ChangeEvent, type MemoryLimits } from './types.js';

/** What a change does to the files, applied in order after the journal append. */
export type Step =
  /** Replace (or create) a file; `oldSize` is what the quota check subtracts (default: the cached size). */
  | { kind: 'put'; path: ParsedPath; bytes: Buffer; hash: string; oldSize?: number }
  | { kind: 'move'; from: ParsedPath; to: ParsedPath }
  /** Out of the memory folder into the trash (a file, a planted link or a whole folder). */
  | { kind: 'remove'; path: ParsedPath; folder: boolean };

export interface Change<T> {
  records: JournalRecord[];
  /** Contents the records name (the journal stores each distinct one once). */
  blobs?: ReadonlyMap<string, Buffer>;
  steps: Step[];
  /** What listeners hear; default one event per record. */
  events?: ChangeEvent[];
  /**
   * Checks that do not shape the records, run while the journal's append syncs (its write is made), so
   * their system calls cost nothing on top of the sync: a throw refuses the change, whose records are then
   * withdrawn (a cancel line) before anything is applied. Only those that recovery's redo makes again
   * (recovery.ts `cannotMove`): a kill between the append and the cancel must leave nothing to redo.
   */
  verify?(): void;
  result: T;
}

export interface Plan<T> {
  /** Paths the change touches: changes on overlapping paths run in arrival order. */
  paths: readonly string[];
  /** The path raw file-system errors are reported against (never a host path). */
  errorPath: string;
  /** Read and check under the lock; throw a MemoryError to refuse (nothing is journaled or changed). */
  prepare(k: Kernel): Promise<Change<T>>;
  /**
   * 'append' (default): journal the records, then apply. 'journaled': the records are in the journal
   * already (recovery's redo). 'rewrite': the plan's `finish` rewrites the journal itself (forget).
   * 'outside': record a change another program made (the watcher while running, recovery at start): the
   * files are as they are, so there are no steps and no quota to check, only records and events.
   */
  journal?: 'append' | 'journaled' | 'rewrite' | 'outside';
  /** After the steps are applied, still under the lock. */
  finish?(k: Kernel, change: Change<T>): Promise<void>;
}

/** The most replaced files one change keeps open until its end (holdReplaced). */
const MAX_HELD = 8;

export interface KernelOptions {
  dataDir: string;
  limits?: Partial<MemoryLimits>;
  clock?: () => number;
}

export class Kernel {
  readonly root: string;
  readonly journalDir: string;
  readonly limits: MemoryLimits;
  readonly clock: () => number;
  readonly tree = new Tree();
  readonly wal: Journal;
  readonly lock: ProcessLock;
  readonly trash: Trash;
  readonly checkpoints: Checkpoints = new Checkpoints(this);
  readonly lastRead = new Map<string, number>();
  /** Set by the owner: pending watcher events are processed before a read of the cache. */
  drainWatcher: () => Promise<void> = () => Promise.resolve();
  private readonly queue = new PathQueue();
  private readonly listeners = new Set<(e: ChangeEvent) => void>();
  private rootReal = '';
  closed = false;
  /** A first open left the files' hashes for later (MemoryOptions.idle): hashPending computes them. */
  unhashed = false;
  private hashing: Promise<void> | null = null;
  /** Descriptors of the files the running change replaces (holdReplaced), closed when it ends. */
  private held: number[] = [];

  constructor(options: KernelOptions) {
    this.root = path.join(path.resolve(options.dataDir), 'memories');
    this.journalDir = path.join(path.resolve(options.dataDir), 'memory-journal');
    this.limits = { ...defaultLimits, ...options.limits };
    this.clock = options.clock ?? Date.now;
    // The journal syncs what changed before any checkpoint record it writes itself (flush, a rewrite).
    this.wal = new Journal(this.journalDir, () => this.checkpoints.syncChanged());
    this.lock = new ProcessLock(this.journalDir);
    this.trash = new Trash(path.join(this.journalDir, 'trash'));
  }

  setRealRoot(real: string): void {
    this.rootReal = real;
  }

  get realRoot(): string {
    return this.rootReal;
  }

  /** Limits apply from the next change on (settings change them while the app runs). */
  setLimits(limits: Partial<MemoryLimits>): void {
    for (const [k, v] of Object.entries(limits) as [keyof MemoryLimits, number | undefined][])
      if (typeof v === 'number') this.limits[k] = v;
  }

  /** The host path of a memory path's segments: each name in its on-disk form (tree.ts diskNames). */
  hostOf(segments: readonly string[]): string {
    return toHost(this.root, this.tree.diskSegments(segments));
  }

  /** Computes the hashes a first open left for later (journal records need the content's hash). */
  hashPending(): Promise<void> {
    if (!this.unhashed) return Promise.resolve();
    this.hashing ??= rehashUnknown(this).then(() => {
      this.unhashed = false;
      this.hashing = null;
    });
    return this.hashing;
  }

  /**
   * Keep the file a change is about to replace open until the change is over (its read under the lock
   * hands the descriptor here): the rename over it then only unlinks the name, and the file itself, whose
   * blocks ext4 frees when its last reference goes (~150 µs, more than the rest of the apply), is freed
   * by the close, in the thread pool after the change. As the trash does for a delete. Not on Windows,
   * where a rename over an open file can fail, and at most a few per change (a batch of thousands would
   * run out of descriptors). True: the descriptor is ours to close.
   */
  holdReplaced(fd: number): boolean {
    if (process.platform === 'win32' || this.held.length >= MAX_HELD) return false;
    this.held.push(fd);
    return true;
  }

  /** The one transaction path. */
  transact<T>(plan: Plan<T>, options: { locked?: boolean } = {}): Promise<T> {
    const run = async (): Promise<T> => {
      await this.hashPending();
      const change = await plan.prepare(this);
      const mode = plan.journal ?? 'append';
      // A journaled change is redone whatever the limits say now: it was accepted when it was made.
      if (mode === 'append') this.checkQuota(change.steps);
      const append = (mode === 'append' || mode === 'outside') && change.records.length > 0;
      await this.applyJournaled(change, append);
      if (plan.finish) await plan.finish(this, change);
      for (const e of change.events ?? change.records.map(eventOf)) this.emit(e);
      if (append && this.wal.bytes > this.limits.journalCapBytes) await this.maybePrune();
      return change.result;
    };
    const body = (): Promise<T> => {
      const done = run();
      done.then(this.releaseHeld, this.releaseHeld);
      return done;
    };
    const mapped = (err: unknown): Promise<T> => Promise.reject(toMemoryError(err, plan.errorPath));
    if (options.locked) return body().catch(mapped);
    if (this.closed) return Promise.reject(new MemoryError('closed', 'The memory store is closed.'));
    // Taking the lock and catching up fail like the change itself (a full disk refuses the lock's folder).
    return this.queue
      .run(plan.paths, () =>
        this.lock.run(async (fresh) => {
          if (fresh) await this.catchUp();
          return body();
        }),
      )
      .catch(mapped);
  }

  /**
   * Journal (when `append`) and apply. The journal's write is made and its sync under way when `append`
   * returns its promise (journal.ts), so the temp files of content steps are written while the disk syncs;
   * the renames come only after the append is durable. If a step fails, the records are withdrawn with a
   * cancel line so recovery does not redo them.
   */
  private async applyJournaled(change: Change<unknown>, append: boolean): Promise<void> {
    const synced = append ? this.wal.append(change.records, change.blobs ?? new Map()) : undefined;
    synced?.catch(() => undefined); // awaited below, after the temp files are written
    const temps = new Map<Step, Temp>();
    /**
     * The source on disk of a change's only move or remove, found while the journal syncs (nothing changes
     * the tree meanwhile). With several steps, an earlier one can change where a later one's source is.
     */
    let host: string | undefined;
    let failed: { err: unknown } | undefined;
    try {
      change.verify?.();
      for (const s of change.steps)
        if (s.kind === 'put')
          // No sync of their own: the journal append is the change's one sync (README "Durability").
          temps.set(s, { ...writeTemp(this.folderOf(s.path), s.bytes), renamed: false });
      const only = change.steps.length === 1 ? change.steps[0]! : undefined;
      if (only && only.kind !== 'put') host = this.sourceOf(only);
    } catch (err) {
      failed = { err };
    }
    if (synced) {
      try {
        await synced;
        crashPoint('after-journal');
      } catch (err) {
        dropTemps(temps);
        throw err;
      }
    }
    try {
      if (failed) throw failed.err;
      for (const s of change.steps) {
        // Synchronous but for a remove the trash could not take (apply says why).
        const removing = this.apply(s, temps.get(s), host ?? (s.kind === 'put' ? '' : this.sourceOf(s)));
        if (removing) await removing;
      }
    } catch (err) {
      dropTemps(temps);
      if (append) await this.wal.cancel(change.records.map((r) => r.id)).catch(() => undefined);
      throw err;
    }
    if (change.steps.length) this.checkpoints.schedule();
  }

  /**
   * At the next turn of the event loop: handing a close to the thread pool costs the caller a wake-up of
   * one of its threads (~15 µs on a loaded machine), which the change's caller need not wait for.
   */
  private readonly releaseHeld = (): void => {
    if (this.held.length === 0) return;
    const fds = this.held.splice(0);
    setImmediate(() => {
      for (const fd of fds) closeLater(fd);
    });
  };

  /** Where a move or remove finds what it moves or removes. */
  private sourceOf(s: Exclude<Step, { kind: 'put' }>): string {
    return this.hostOf(s.kind === 'move' ? s.from.segments : s.path.segments);
  }

  /** The folders of `p` (all but the last) made real and link-free: the host path of the deepest. */
  private folderOf(p: ParsedPath, disk = this.tree.diskSegments(p.segments)): string {
    return ensureFolders(this.root, disk.slice(0, -1), (n) => joinModel(p.segments.slice(0, n)));
  }

  /**
   * One step, in system calls of microseconds (fs-safe lstatOrNull says why they are synchronous): a
   * promise only for a removal the trash could not take by a rename. `host` is the source of a move or
   * the path removed.
   */
  private apply(s: Step, temp: Temp | undefined, host: string): Promise<void> | undefined {
    if (s.kind === 'put') {
      crashPoint('after-temp-write');
      // Checked again just before the rename: no folder on the way became a link meanwhile.
      const disk = this.tree.diskSegments(s.path.segments);
      const dir = this.folderOf(s.path, disk);
      renameTemp(temp!.tmp, path.join(dir, disk[disk.length - 1]!));
      temp!.renamed = true;
      const { size, mtimeMs } = temp!.stat;
      this.tree.set(s.path.segments, { kind: 'file', size, mtimeMs, hash: s.hash });
      this.checkpoints.dirty(dir);
    } else if (s.kind === 'move') {
      // Checked again just before the rename, as for a put: no folder on the way became a link meanwhile.
      const disk = this.tree.diskSegments(s.to.segments);
      const dir = this.folderOf(s.to, disk);
      renameSync(host, path.join(dir, disk[disk.length - 1]!));
      const node = this.tree.remove(s.from.segments);
      if (node) this.tree.set(s.to.segments, node);
      this.checkpoints.dirty(path.dirname(host));
      this.checkpoints.dirty(dir);
    } else {
      const removing = this.trash.take(host, s.folder);
      const removed = (): void => {
        this.tree.remove(s.path.segments);
        this.checkpoints.dirty(path.dirname(host));
      };
      if (removing) return removing.then(removed);
      removed();
    }
    return undefined;
  }

  private checkQuota(steps: readonly Step[]): void {
    let oldSize = 0;
    let newSize = 0;
    for (const s of steps) {
      if (s.kind !== 'put') continue;
      const node = this.tree.get(s.path.segments);
      oldSize += s.oldSize ?? (node?.kind === 'file' ? node.size : 0);
      newSize += s.bytes.length;
    }
    const next = this.tree.totalBytes - oldSize + newSize;
    if (newSize > oldSize && next > this.limits.quotaBytes)
      throw new MemoryError(
        'quota',
        `Refused: memory would use ${next} bytes, above its quota of ${this.limits.quotaBytes} bytes. ` +
          'Delete or shorten files that are no longer needed first.',
      );
  }

  async maybePrune(): Promise<void> {
    if (this.wal.bytes > this.limits.journalCapBytes) await this.wal.prune(this.limits.journalCapBytes);
  }

  record(
    actor: Actor,
    command: string,
    p: string,
    before: string | null,
    after: string | null,
    extra?: Partial<JournalRecord>,
  ): JournalRecord {
    const at = this.clock();
    const rec: JournalRecord = {
      id: `${at.toString(36)}-${randomId()}`,
      at,
      actor: actor.kind,
      command,
      path: p,
      before,
      after,
      ...extra,
    };
    if (actor.kind === 'agent') {
      rec.conversationId = actor.conversationId;
      rec.toolUseId = actor.toolUseId;
      if (actor.messageId) rec.messageId = actor.messageId;
      if (actor.conversationTitle) rec.conversationTitle = actor.conversationTitle;
    } else if (actor.kind === 'sync') {
      rec.device = actor.device;
      if (actor.origin) rec.origin = actor.origin;
      if (actor.conversationId) rec.conversationId = actor.conversationId;
      if (actor.conversationTitle) rec.conversationTitle = actor.conversationTitle;
      if (actor.toolUseId) rec.toolUseId = actor.toolUseId;
    }
    if (actor.kind === 'user') {
      if (actor.fromSpace) rec.fromSpace = { id: actor.fromSpace.id, name: actor.fromSpace.name };
      if (actor.toSpace) rec.toSpace = { id: actor.toSpace.id, name: actor.toSpace.name };
    }
    return rec;
  }

  emit(event: ChangeEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // a listener's failure must not undo or block a committed change
      }
    }
  }

  onChange(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Make the cache reflect other processes' journaled changes and pending watcher events. */
  async settle(): Promise<void> {
    await this.drainWatcher();
    await this.lock.runLocal((stale) => (stale ? this.catchUp() : Promise.resolve()));
  }

  /** Apply changes other processes journaled since we last looked (catch-up.ts). */
  catchUp(): Promise<void> {
    return catchUp(this);
  }

  emitRecord(r: JournalRecord): void {
    this.emit(eventOf(r));
  }

  /** Mark everything journaled so far as settled (the journal syncs what changed first). Under the lock. */
  async checkpoint(): Promise<void> {
    await this.wal.checkpoint();
  }
}

interface Temp {
  tmp: string;
  stat: { size: number; mtimeMs: number };
  renamed: boolean;
}

/** Remove the temp files of a change that failed (the ones not renamed into place yet). */
function dropTemps(temps: ReadonlyMap<Step, Temp>): void {
  for (const t of temps.values()) if (!t.renamed) unlinkQuietly(t.tmp);
}

export function eventOf(r: JournalRecord): ChangeEvent {
  const event: ChangeEvent = { actor: r.actor, command: r.command, path: r.path, journalId: r.id };
  if (r.newPath) event.newPath = r.newPath;
  if (r.conversationId) event.conversationId = r.conversationId;
  if (r.toolUseId) event.toolUseId = r.toolUseId;
  return event;
}
