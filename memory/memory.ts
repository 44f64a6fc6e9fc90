// The memory store: one instance per data folder. Every change goes through `exclusive` (per-path queue,
// then the commit mutex and the cross-process lock), is journaled durably, and only then applied to the
// files (README.md: "Durability and recovery").
import { randomBytes } from 'node:crypto';
import { promises as fsp, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { catchUp } from './catch-up.js';
import { decodeUtf8, sha256 } from './content.js';
import { MemoryError, toMemoryError } from './errors.js';
import {
  atomicWrite,
  crashPoint,
  DIR_MODE,
  ensureFolders,
  fsyncDirs,
  linkError,
  lstatOrNull,
  readRegular,
  renameTemp,
  writeTemp,
} from './fs-safe.js';
import {
  diffOf,
  forgetPath,
  historyOf,
  listDeleted,
  restoreEntry,
  revertEntry,
  toPublicEntry,
} from './history.js';
import { readForgetIntents, removeForgetIntent } from './forget-intent.js';
import { Journal, type JournalRecord } from './journal.js';
import { deletePath, renamePath } from './mutations.js';
import { createFile, writeFile } from './save.js';
import { listEntries, listUnreachable, preflightNew } from './checks.js';
import { PathQueue, ProcessLock } from './lock.js';
import { joinModel, parseMemoryPath, ROOT, toHost, type ParsedPath } from './paths.js';
import { recoverAtStartup } from './recovery.js';
import { loadState, saveState } from './state.js';
import { createTool } from './tool.js';
import { Trash } from './trash.js';
import { scanDir, Tree, type FileNode } from './tree.js';
import { Watcher } from './watcher.js';
import {
  type ForgetTrace,
  defaultLimits,
  type Actor,
  type BaseVersion,
  type ChangeEvent,
  type ChangeResult,
  type DiffResult,
  type FileContent,
  type JournalEntry,
  type Memory,
  type MemoryEntry,
  type MemoryLimits,
  type MemoryOptions,
  type MemoryTool,
  type UnreachableEntry,
} from './types.js';

const DAY_MS = 86_400_000;
/**
 * How long after a change the folders are fsynced and the journal checkpointed. Until then recovery can
 * redo the change from the journal, so this trades only recovery work, never durability.
 */
const CHECKPOINT_MS = 5000;

export interface CurrentFile {
  bytes: Buffer;
  hash: string;
  size: number;
}

export async function createMemory(options: MemoryOptions): Promise<Memory> {
  const store = new MemoryStore(options);
  await store.open();
  return store;
}

export class MemoryStore implements Memory {
  readonly root: string;
  readonly journalDir: string;
  readonly limits: MemoryLimits;
  readonly tool: MemoryTool;
  readonly clock: () => number;
  readonly tree = new Tree();
  readonly wal: Journal;
  readonly lock: ProcessLock;
  readonly trash: Trash;
  readonly lastRead = new Map<string, number>();
  private readonly queue = new PathQueue();
  private readonly listeners = new Set<(e: ChangeEvent) => void>();
  private readonly dirtyDirs = new Set<string>();
  private rootReal = '';
  private watcher: Watcher | undefined;
  private stateTimer: NodeJS.Timeout | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: MemoryOptions) {
    this.root = path.join(path.resolve(options.dataDir), 'memories');
    this.journalDir = path.join(path.resolve(options.dataDir), 'memory-journal');
    this.limits = { ...defaultLimits, ...options.limits };
    this.clock = options.clock ?? Date.now;
    this.wal = new Journal(this.journalDir, () => this.syncDirtyDirs());
    this.lock = new ProcessLock(this.journalDir);
    this.trash = new Trash(path.join(this.journalDir, 'trash'));
    this.tool = createTool(this);
  }

  async open(): Promise<void> {
    await fsp.mkdir(path.resolve(this.options.dataDir), { recursive: true, mode: DIR_MODE });
    for (const dir of [this.root, this.journalDir]) {
      await fsp.mkdir(dir, { mode: DIR_MODE }).catch((err: { code?: string }) => {
        if (err.code !== 'EEXIST') throw err;
      });
      const st = await fsp.lstat(dir);
      if (!st.isDirectory())
        throw new MemoryError('link', 'The memory folder is a link or a file; it must be a real folder.');
    }
    this.rootReal = await fsp.realpath(this.root);
    await this.lock.clearDeadOwner();
    await this.lock.run(async () => {
      await this.wal.load(true);
      const scanned = await scanDir(this.root, true);
      if (scanned) this.tree.set([], scanned);
      const state = await loadState(this.journalDir);
      for (const [p, s] of Object.entries(state.files)) if (s.r) this.lastRead.set(p, s.r);
      await recoverAtStartup(this, state);
      await this.trash.open();
      await this.syncDirsAndCheckpoint();
      await saveState(this);
    });
    if (this.options.watch !== false) {
      this.watcher = new Watcher(this, this.options.watchDebounceMs ?? 150);
      this.watcher.start();
    }
  }

  // ---- plumbing shared by the modules of this folder ----

  /** The host path of a memory path's segments: each name in its on-disk form (tree.ts diskNames). */
  hostOf(segments: readonly string[]): string {
    return toHost(this.root, this.tree.diskSegments(segments));
  }

  /** The folders of `segments` (all but the last) made real and link-free; the target's host path. */
  private async folderAndTarget(segments: readonly string[]): Promise<{ dirHost: string; target: string }> {
    const disk = this.tree.diskSegments(segments);
    const dirHost = await ensureFolders(this.root, disk.slice(0, -1), (n) => joinModel(segments.slice(0, n)));
    return { dirHost, target: path.join(dirHost, disk[disk.length - 1]!) };
  }

  get realRoot(): string {
    return this.rootReal;
  }

  /** Run a change: ordered against overlapping paths, then serialized with every writer of this data folder. */
  exclusive<T>(paths: readonly string[], task: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new MemoryError('closed', 'The memory store is closed.'));
    return this.queue.run(paths, () =>
      this.lock.run(async (fresh) => {
        if (fresh) await catchUp(this);
        return task();
      }),
    );
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
      id: `${this.clock().toString(36)}-${randomBytes(6).toString('hex')}`,
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
    return rec;
  }

  /** Journal the records (durable when this resolves), then prune the journal if it outgrew its cap. */
  async commit(records: readonly JournalRecord[], contents: ReadonlyMap<string, Buffer>): Promise<void> {
    await this.wal.append(records, contents);
    crashPoint('after-journal');
  }

  async maybePrune(): Promise<void> {
    if (this.wal.bytes > this.limits.journalCapBytes) await this.wal.prune(this.limits.journalCapBytes);
  }

  /**
   * The file at `p` right now: its bytes and hash, or null when nothing is there. Folders and links are
   * refused with a clear message; the disk is the truth, not the cache.
   */
  async current(p: ParsedPath): Promise<CurrentFile | null> {
    const host = this.hostOf(p.segments);
    const st = await lstatOrNull(host);
    if (!st) return null;
    if (st.isSymbolicLink()) throw linkError(p.path, 'symbolic');
    if (st.isDirectory()) throw new MemoryError('not_a_file', `The path ${p.path} is a folder, not a file.`);
    const { bytes } = await readRegular(host, this.rootReal, p.path);
    return { bytes, hash: sha256(bytes), size: bytes.length };
  }

  /**
   * The hash the cache holds for the file at `segments`, if the cache entry still describes the file
   * `st` (same size and modification time): saves reading a file we wrote or hashed ourselves.
   */
  cachedHash(segments: readonly string[], st: { size: number; mtimeMs: number }): string | undefined {
    const node = this.tree.get(segments);
    if (node?.kind !== 'file' || !node.hash) return undefined;
    return node.size === st.size && node.mtimeMs === st.mtimeMs ? node.hash : undefined;
  }

  /** Before journaling a new file at `p`: real parent folders, no case-only collision (checks.ts). */
  preflightNew(p: ParsedPath, ignore?: string): Promise<void> {
    return preflightNew(this, p, ignore);
  }

  /** The parent folder of `segments` must be reached without any link (else a delete could act outside). */
  async assertRealParent(segments: readonly string[]): Promise<void> {
    const parent = segments.slice(0, -1);
    let real: string | null;
    try {
      real = realpathSync.native(this.hostOf(parent)); // synchronous: see lstatOrNull
    } catch {
      real = null;
    }
    const disk = this.tree.diskSegments(parent);
    if (real !== (disk.length ? path.join(this.rootReal, ...disk) : this.rootReal))
      throw linkError(joinModel(parent), 'symbolic');
  }

  checkQuota(oldSize: number, newSize: number): void {
    const next = this.tree.totalBytes - oldSize + newSize;
    if (newSize > oldSize && next > this.limits.quotaBytes)
      throw new MemoryError(
        'quota',
        `Refused: memory would use ${next} bytes, above its quota of ${this.limits.quotaBytes} bytes. ` +
          'Delete or shorten files that are no longer needed first.',
      );
  }

  /**
   * Journal `records` and write `bytes` to `p`. The journal append and the temp file are written and
   * fdatasynced in parallel (the file system can fold both into one commit); the rename comes only after
   * both are durable. If the file cannot be written, the records are withdrawn from the journal.
   */
  async commitAndPut(
    records: readonly JournalRecord[],
    blobs: ReadonlyMap<string, Buffer>,
    p: ParsedPath,
    bytes: Buffer,
    hash: string,
  ): Promise<void> {
    const { dirHost, target } = await this.folderAndTarget(p.segments);
    const temp = writeTemp(dirHost, bytes);
    temp.catch(() => undefined); // awaited below; avoid an unhandled rejection while the journal syncs
    try {
      await this.commit(records, blobs);
    } catch (err) {
      void temp.then((t) => fsp.unlink(t.tmp)).catch(() => undefined);
      throw err;
    }
    try {
      const { tmp, stat } = await temp;
      crashPoint('after-temp-write');
      await renameTemp(tmp, target);
      this.tree.set(p.segments, { kind: 'file', size: stat.size, mtimeMs: stat.mtimeMs, hash });
    } catch (err) {
      await this.wal.cancel(records.map((r) => r.id)).catch(() => undefined);
      throw err;
    }
    this.dirtyDirs.add(dirHost);
    this.scheduleFlush();
  }

  /** Write a file whose change is already journaled (recovery's redo, multi-step reverts). */
  async put(p: ParsedPath, bytes: Buffer, hash: string): Promise<void> {
    const { dirHost, target } = await this.folderAndTarget(p.segments);
    const st = await atomicWrite(target, bytes);
    const node: FileNode = { kind: 'file', size: st.size, mtimeMs: st.mtimeMs, hash };
    this.tree.set(p.segments, node);
    this.dirtyDirs.add(dirHost);
    this.scheduleFlush();
  }

  noteDirty(hostDir: string): void {
    this.dirtyDirs.add(hostDir);
    this.scheduleFlush();
  }

  emitRecord(r: JournalRecord): void {
    const event: ChangeEvent = { actor: r.actor, command: r.command, path: r.path, journalId: r.id };
    if (r.newPath) event.newPath = r.newPath;
    if (r.conversationId) event.conversationId = r.conversationId;
    this.emit(event);
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

  // ---- the user API ----

  list(): Promise<MemoryEntry[]> {
    return listEntries(this);
  }

  unreachable(): Promise<UnreachableEntry[]> {
    return listUnreachable(this);
  }

  isStale(p: string, mtimeMs: number, now = this.clock()): boolean {
    const last = Math.max(this.lastRead.get(p) ?? 0, mtimeMs);
    return now - last > this.limits.staleAfterDays * DAY_MS;
  }

  async usage(): Promise<{ totalBytes: number; quotaBytes: number }> {
    await this.settle();
    return { totalBytes: this.tree.totalBytes, quotaBytes: this.limits.quotaBytes };
  }

  /** Make the cache reflect other processes' journaled changes and pending watcher events. */
  async settle(): Promise<void> {
    await this.watcher?.drain();
    await this.lock.runLocal((stale) => (stale ? catchUp(this) : Promise.resolve()));
  }

  async read(input: string): Promise<FileContent> {
    const p = parseMemoryPath(input);
    if (p.segments.length === 0)
      throw new MemoryError('not_a_file', `${ROOT} is the memory folder, not a file.`);
    try {
      const { bytes } = await readRegular(this.hostOf(p.segments), this.rootReal, p.path);
      return { path: p.path, content: decodeUtf8(bytes, p.path), version: sha256(bytes) };
    } catch (err) {
      throw toMemoryError(err, p.path);
    }
  }

  write(
    input: string,
    content: string,
    baseVersion: BaseVersion,
    actor: Actor = { kind: 'user' },
  ): Promise<ChangeResult> {
    return writeFile(this, input, content, baseVersion, actor);
  }

  create(input: string, content: string, actor: Actor = { kind: 'user' }): Promise<ChangeResult> {
    return createFile(this, input, content, actor);
  }

  async rename(from: string, to: string, actor: Actor = { kind: 'user' }): Promise<{ journalId: string }> {
    return renamePath(this, from, to, actor);
  }

  async delete(input: string, actor: Actor = { kind: 'user' }): Promise<{ journalId: string }> {
    return deletePath(this, input, actor);
  }

  /** Map raw file-system errors to MemoryErrors without host paths. */
  async guard<T>(modelPath: string, task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (err) {
      throw toMemoryError(err, modelPath);
    }
  }

  async history(input: string): Promise<JournalEntry[]> {
    await this.settle();
    return historyOf(this, parseMemoryPath(input).path);
  }

  async journal(): Promise<JournalEntry[]> {
    await this.settle();
    return [...this.wal.entries].reverse().map((r) => toPublicEntry(this, r));
  }

  async changesBy(toolUseId: string): Promise<JournalEntry[]> {
    await this.settle();
    return this.wal.entries.filter((r) => r.toolUseId === toolUseId).map((r) => toPublicEntry(this, r));
  }

  async diff(journalId: string): Promise<DiffResult> {
    await this.settle();
    return diffOf(this, journalId);
  }

  revert(journalId: string, actor: Actor = { kind: 'user' }): Promise<{ journalId: string }> {
    return revertEntry(this, journalId, actor);
  }

  async deleted(): Promise<JournalEntry[]> {
    await this.settle();
    return listDeleted(this);
  }

  restore(journalId: string, actor: Actor = { kind: 'user' }): Promise<{ journalId: string }> {
    return restoreEntry(this, journalId, actor);
  }

  forget(input: string): Promise<ForgetTrace> {
    return forgetPath(this, input);
  }

  pendingForgets(): Promise<ForgetTrace[]> {
    return readForgetIntents(this);
  }

  async resumeForget(trace: ForgetTrace): Promise<void> {
    if (!trace.memoryDone) await forgetPath(this, trace.path, trace);
  }

  settleForget(id: string): Promise<void> {
    return removeForgetIntent(this, id);
  }

  async stale(): Promise<MemoryEntry[]> {
    return (await this.list()).filter((e) => e.stale);
  }

  touchRead(paths: readonly string[]): void {
    const now = this.clock();
    for (const p of paths) {
      try {
        this.lastRead.set(parseMemoryPath(p).path, now);
      } catch {
        // backfill may pass paths that are not ours; ignore them
      }
    }
    this.scheduleStateSave();
  }

  onChange(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private scheduleStateSave(): void {
    if (this.stateTimer || this.closed) return;
    this.stateTimer = setTimeout(() => {
      this.stateTimer = undefined;
      void this.lock.run(() => saveState(this)).catch(() => undefined);
    }, 2000);
    this.stateTimer.unref();
  }

  private scheduleFlush(): void {
    if (this.flushTimer || this.closed) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush().catch(() => undefined);
    }, CHECKPOINT_MS);
    this.flushTimer.unref();
  }

  /** fsync the folders changes renamed into or out of; what fails stays dirty, and the checkpoint fails. */
  private async syncDirtyDirs(): Promise<void> {
    const dirs = [...this.dirtyDirs];
    this.dirtyDirs.clear();
    await fsyncDirs(dirs, (left) => left.forEach((d) => this.dirtyDirs.add(d)));
  }

  /** fsync the folders we renamed into, then mark everything journaled so far as settled. */
  async syncDirsAndCheckpoint(): Promise<void> {
    await this.wal.checkpoint(); // syncs the dirty folders first (the Journal's syncChanged)
  }

  async flush(): Promise<void> {
    if (this.closed) return;
    await this.lock.run(async () => {
      await this.syncDirsAndCheckpoint();
      await saveState(this);
    });
    // Outside the lock: nothing else reads the trash, and freeing many files should not hold up writes.
    void this.trash.empty();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.watcher?.stop();
    clearTimeout(this.stateTimer);
    clearTimeout(this.flushTimer);
    this.stateTimer = this.flushTimer = undefined;
    // A folder that cannot be synced leaves the checkpoint unwritten (recovery redoes from the journal);
    // the store still closes and gives the lock back.
    await this.flush().catch(() => undefined);
    await this.trash.empty();
    this.closed = true;
    await this.lock.shutdown();
    await this.wal.closeHandles();
  }
}
