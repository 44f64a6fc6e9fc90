// The kernel: the one path every change takes (README.md "The shape"). An operation (the tool's commands,
// the panel's saves, revert, restore, import, forget, recovery's redo) is a plan: it reads what it needs
// and says which records to journal and which steps to apply. `transact` owns the sequence around it:
// per-path queue, the data folder's lock and catch-up, error mapping (guard), the plan, quota, journal,
// apply, emit, prune, and the deferred checkpoint that also empties the trash.
import { randomId } from './ids.js';
import { renameSync } from 'node:fs';
import * as path from 'node:path';
import { sha256 } from './content.js';
import { MemoryError, toMemoryError } from './errors.js';
import {
  crashPoint,
  ensureFolders,
  fsyncDirs,
  lstatOrNull,
  readRegular,
  renameTemp,
  syncFiles,
  unlinkQuietly,
  writeTemp,
} from './fs-safe.js';
import { Journal, type JournalRecord } from './journal.js';
import { PathQueue, ProcessLock } from './lock.js';
import { joinModel, ROOT, toHost, type ParsedPath } from './paths.js';
import { Trash } from './trash.js';
import { scanDir, scanPath, Tree } from './tree.js';
import { defaultLimits, type Actor, type ChangeEvent, type MemoryLimits } from './types.js';

/**
 * How long after a change the folders are fsynced and the journal checkpointed. Until then recovery can
 * redo the change from the journal, so this trades only recovery work, never durability.
 */
const CHECKPOINT_MS = 5000;

export const segsOf = (p: string): string[] => (p === ROOT ? [] : p.slice(ROOT.length + 1).split('/'));
export const parsedOf = (p: string): ParsedPath => ({ path: p, segments: segsOf(p) });

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
  readonly lastRead = new Map<string, number>();
  /** Set by the owner: pending watcher events are processed before a read of the cache. */
  drainWatcher: () => Promise<void> = () => Promise.resolve();
  private readonly queue = new PathQueue();
  private readonly listeners = new Set<(e: ChangeEvent) => void>();
  private readonly dirtyDirs = new Set<string>();
  private rootReal = '';
  private flushTimer: NodeJS.Timeout | undefined;
  private onCheckpoint: () => void = () => undefined;
  closed = false;

  constructor(options: KernelOptions) {
    this.root = path.join(path.resolve(options.dataDir), 'memories');
    this.journalDir = path.join(path.resolve(options.dataDir), 'memory-journal');
    this.limits = { ...defaultLimits, ...options.limits };
    this.clock = options.clock ?? Date.now;
    this.wal = new Journal(this.journalDir, () => this.syncChanged());
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

  /** Called after each deferred checkpoint (the owner persists its lazy state then). */
  afterCheckpoint(fn: () => void): void {
    this.onCheckpoint = fn;
  }

  /** The host path of a memory path's segments: each name in its on-disk form (tree.ts diskNames). */
  hostOf(segments: readonly string[]): string {
    return toHost(this.root, this.tree.diskSegments(segments));
  }

  /** The one transaction path. */
  transact<T>(plan: Plan<T>, options: { locked?: boolean } = {}): Promise<T> {
    const body = async (): Promise<T> => {
      const change = await plan.prepare(this);
      const mode = plan.journal ?? 'append';
      // A journaled change is redone whatever the limits say now: it was accepted when it was made.
      if (mode === 'append') this.checkQuota(change.steps);
      const append = (mode === 'append' || mode === 'outside') && change.records.length > 0;
      await this.applyJournaled(change, append);
      await plan.finish?.(this, change);
      for (const e of change.events ?? change.records.map(eventOf)) this.emit(e);
      if (append) await this.maybePrune();
      return change.result;
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
    let failed: { err: unknown } | undefined;
    try {
      // No sync of their own: the journal append is the change's one sync (README "Durability").
      for (const s of change.steps)
        if (s.kind === 'put') temps.set(s, { ...writeTemp(this.folderOf(s.path), s.bytes), renamed: false });
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
      for (const s of change.steps) await this.apply(s, temps.get(s));
    } catch (err) {
      dropTemps(temps);
      if (append) await this.wal.cancel(change.records.map((r) => r.id)).catch(() => undefined);
      throw err;
    }
    if (change.steps.length) this.scheduleCheckpoint();
  }

  /** The folders of `p` (all but the last) made real and link-free: the host path of the deepest. */
  private folderOf(p: ParsedPath): string {
    const disk = this.tree.diskSegments(p.segments);
    return ensureFolders(this.root, disk.slice(0, -1), (n) => joinModel(p.segments.slice(0, n)));
  }

  /** The name the last segment of `p` has on disk (or will have: a new name is its NFC key). */
  private diskLeaf(p: ParsedPath): string {
    const disk = this.tree.diskSegments(p.segments);
    return disk[disk.length - 1]!;
  }

  private async apply(s: Step, temp: Temp | undefined): Promise<void> {
    if (s.kind === 'put') {
      crashPoint('after-temp-write');
      // Checked again just before the rename: no folder on the way became a link meanwhile.
      const dir = this.folderOf(s.path);
      renameTemp(temp!.tmp, path.join(dir, this.diskLeaf(s.path)));
      temp!.renamed = true;
      const { size, mtimeMs } = temp!.stat;
      this.tree.set(s.path.segments, { kind: 'file', size, mtimeMs, hash: s.hash });
      this.dirtyDirs.add(dir);
    } else if (s.kind === 'move') {
      const fromHost = this.hostOf(s.from.segments);
      const dir = this.folderOf(s.to);
      // A rename is a metadata change like the checks: synchronous (fs-safe lstatOrNull says why).
      renameSync(fromHost, path.join(dir, this.diskLeaf(s.to)));
      const node = this.tree.remove(s.from.segments);
      if (node) this.tree.set(s.to.segments, node);
      this.dirtyDirs.add(path.dirname(fromHost));
      this.dirtyDirs.add(dir);
    } else {
      const host = this.hostOf(s.path.segments);
      await this.trash.take(host, s.folder);
      this.tree.remove(s.path.segments);
      this.dirtyDirs.add(path.dirname(host));
    }
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
    const rec: JournalRecord = {
      id: `${this.clock().toString(36)}-${randomId()}`,
      at: this.clock(),
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

  noteDirty(hostDir: string): void {
    this.dirtyDirs.add(hostDir);
    this.scheduleCheckpoint();
  }

  /** Make the cache reflect other processes' journaled changes and pending watcher events. */
  async settle(): Promise<void> {
    await this.drainWatcher();
    await this.lock.runLocal((stale) => (stale ? this.catchUp() : Promise.resolve()));
  }

  /** Apply changes other processes journaled since we last looked (their files are already on disk). */
  async catchUp(): Promise<void> {
    const news = await this.wal.catchUp();
    if (news === 'reloaded') {
      const scanned = await scanDir(this.root, false);
      if (scanned) this.tree.set([], scanned);
      await this.rehashUnknown();
      return;
    }
    for (const r of news) {
      for (const p of [r.path, r.newPath]) {
        if (!p) continue;
        const segs = segsOf(p);
        const node = await scanPath(this.hostOf(segs));
        if (node) {
          if (node.kind === 'file' && (p === r.newPath || !r.newPath) && r.after) node.hash = r.after;
          this.tree.set(segs, node);
        } else {
          this.tree.remove(segs);
          // A folder moved or deleted as a whole is journaled file by file: its folders are gone too.
          for (let n = segs.length - 1; n > 0; n--) {
            const up = segs.slice(0, n);
            if (this.tree.get(up)?.kind !== 'dir' || (await lstatOrNull(this.hostOf(up)))) break;
            this.tree.remove(up);
          }
        }
      }
      await this.rehashUnknown();
      this.emit(eventOf(r));
    }
  }

  /** Fill in the hashes the cache lacks (after a rescan). */
  async rehashUnknown(): Promise<void> {
    for (const f of this.tree.files()) {
      if (f.node.hash) continue;
      try {
        const { bytes } = await readRegular(this.hostOf(f.segments), this.rootReal, joinModel(f.segments));
        f.node.hash = sha256(bytes);
      } catch {
        // unreadable (raced away, or a link): left without a hash, compared by size on the next scan
      }
    }
  }

  private scheduleCheckpoint(): void {
    if (this.flushTimer || this.closed) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.checkpointNow()
        .then(() => {
          this.onCheckpoint();
          return this.trash.empty();
        })
        .catch(() => undefined);
    }, CHECKPOINT_MS);
    this.flushTimer.unref();
  }

  cancelCheckpointTimer(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
  }

  /**
   * Before a checkpoint record: make every change journaled since the last one durable in the files. Taken
   * from the journal, not from what this process wrote, so the changes of another process on the same data
   * folder are covered too: the files they left (fdatasync), then the folders renamed into or out of. What
   * fails stays dirty, and the checkpoint fails.
   */
  private async syncChanged(): Promise<void> {
    const todo = this.changedSinceCheckpoint();
    if (todo) await this.syncFilesAndFolders(todo);
  }

  /** The files and folders the changes since the last checkpoint touched, and the last of those changes. */
  private changedSinceCheckpoint(): { files: string[]; dirs: string[]; lastId?: string } | null {
    const files = new Set<string>();
    const unsettled = this.wal.entries.slice(this.wal.unsettledFrom);
    for (const r of unsettled) {
      for (const p of [r.path, r.newPath]) {
        if (!p || p === ROOT) continue;
        const host = this.hostOf(segsOf(p));
        this.dirtyDirs.add(path.dirname(host));
        if (r.after !== null && (r.newPath === undefined || p === r.newPath)) files.add(host);
      }
    }
    if (files.size === 0 && this.dirtyDirs.size === 0 && unsettled.length === 0) return null;
    const dirs = [...this.dirtyDirs];
    this.dirtyDirs.clear();
    const last = unsettled[unsettled.length - 1];
    return { files: [...files], dirs, ...(last ? { lastId: last.id } : {}) };
  }

  private async syncFilesAndFolders(todo: { files: string[]; dirs: string[] }): Promise<void> {
    try {
      await syncFiles(todo.files);
    } catch (err) {
      todo.dirs.forEach((d) => this.dirtyDirs.add(d));
      throw err;
    }
    await fsyncDirs(todo.dirs, (left) => left.forEach((d) => this.dirtyDirs.add(d)));
  }

  /** Mark everything journaled so far as settled (the journal syncs what changed first). Under the lock. */
  async checkpoint(): Promise<void> {
    await this.wal.checkpoint();
  }

  /**
   * The deferred checkpoint. Under the lock (after a catch-up, so every process's records are known): note
   * what the changes so far touched. Outside it, so that writers go on meanwhile: fdatasync those files,
   * then their folders. Under the lock again: a checkpoint record covering exactly those changes.
   */
  async checkpointNow(): Promise<void> {
    const todo = await this.lock.run(async (fresh) => {
      if (fresh) await this.catchUp();
      return this.changedSinceCheckpoint();
    });
    if (!todo) return;
    await this.syncFilesAndFolders(todo);
    const lastId = todo.lastId;
    if (lastId)
      await this.lock.run(async (fresh) => {
        if (fresh) await this.catchUp();
        await this.wal.checkpointUpTo(lastId);
      });
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
  return event;
}
