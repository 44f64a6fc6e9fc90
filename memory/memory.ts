// The memory store: the public `Memory` over one data folder. It opens the folder, runs recovery, and
// hands every change to the kernel as a plan (kernel.ts; README.md "The shape").
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { listEntries, listUnreachable } from './checks.js';
import { decodeUtf8, sha256 } from './content.js';
import { MemoryError, toMemoryError } from './errors.js';
import { DIR_MODE, readRegular } from './fs-safe.js';
import {
  diffOf,
  forgetPath,
  historyOf,
  listDeleted,
  restoreEntry,
  revertEntry,
  toPublicEntry,
} from './history.js';
import { readForgetIntents, removeForgetIntent, watchForgetIntents } from './forget-intent.js';
import { Kernel } from './kernel.js';
import { deletePath, renamePath } from './mutations.js';
import { parseMemoryPath, ROOT } from './paths.js';
import { recoverAtStartup } from './recovery.js';
import { createFile, writeFile, writeFiles, type FileWrite, type FileWriteOutcome } from './save.js';
import { loadState, saveState } from './state.js';
import { createTool } from './tool.js';
import { scanDir } from './tree.js';
import type {
  Actor,
  BaseVersion,
  ChangeEvent,
  ChangeResult,
  DiffResult,
  FileContent,
  ForgetTrace,
  JournalEntry,
  Memory,
  MemoryEntry,
  MemoryLimits,
  MemoryOptions,
  MemoryTool,
  UnreachableEntry,
} from './types.js';
import { Watcher } from './watcher.js';

export async function createMemory(options: MemoryOptions): Promise<Memory> {
  const store = new MemoryStore(options);
  await store.open();
  return store;
}

class MemoryStore implements Memory {
  readonly tool: MemoryTool;
  private readonly k: Kernel;
  private watcher: Watcher | undefined;
  private stateTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: MemoryOptions) {
    this.k = new Kernel(options);
    this.tool = createTool(this.k, (paths) => this.touchRead(paths));
    this.k.drainWatcher = () => this.watcher?.drain() ?? Promise.resolve();
    this.k.checkpoints.onDone(() => this.scheduleStateSave(0));
  }

  get root(): string {
    return this.k.root;
  }

  get journalDir(): string {
    return this.k.journalDir;
  }

  // A frozen copy: limits change only through setLimits, which is where a change takes effect.
  get limits(): Readonly<MemoryLimits> {
    return Object.freeze({ ...this.k.limits });
  }

  setLimits(limits: Partial<MemoryLimits>): void {
    this.k.setLimits(limits);
  }

  async open(): Promise<void> {
    const k = this.k;
    await fsp.mkdir(path.resolve(this.options.dataDir), { recursive: true, mode: DIR_MODE });
    for (const dir of [k.root, k.journalDir]) {
      await fsp.mkdir(dir, { mode: DIR_MODE }).catch((err: { code?: string }) => {
        if (err.code !== 'EEXIST') throw err;
      });
      const st = await fsp.lstat(dir);
      if (!st.isDirectory())
        throw new MemoryError('link', 'The memory folder is a link or a file; it must be a real folder.');
    }
    k.setRealRoot(await fsp.realpath(k.root));
    await k.lock.clearDeadOwner();
    await k.lock.run(async () => {
      await k.wal.load(true);
      const scanned = await scanDir(k.root, true);
      if (scanned) k.tree.set([], scanned);
      const state = await loadState(k.journalDir);
      for (const [p, s] of Object.entries(state.files)) if (s.r) k.lastRead.set(p, s.r);
      await k.trash.open();
      await recoverAtStartup(k, state, this.options.idle !== undefined);
      await k.checkpoint();
      // Left for later with the hashes: saving the state would compute them now.
      if (!k.unhashed) await saveState(k);
    });
    if (k.unhashed)
      this.options.idle?.(async () => {
        if (!this.closed && k.unhashed) await k.lock.run(() => saveState(k));
      });
    await k.trash.empty();
    if (this.options.watch !== false) {
      this.watcher = new Watcher(k, this.options.watchDebounceMs ?? 150);
      this.watcher.start();
    }
  }

  list(): Promise<MemoryEntry[]> {
    return listEntries(this.k);
  }

  unreachable(): Promise<UnreachableEntry[]> {
    return listUnreachable(this.k);
  }

  async usage(): Promise<{ totalBytes: number; quotaBytes: number }> {
    await this.k.settle();
    return { totalBytes: this.k.tree.totalBytes, quotaBytes: this.k.limits.quotaBytes };
  }

  async read(input: string): Promise<FileContent> {
    const p = parseMemoryPath(input);
    if (p.segments.length === 0)
      throw new MemoryError('not_a_file', `${ROOT} is the memory folder, not a file.`);
    try {
      const { bytes } = await readRegular(this.k.hostOf(p.segments), this.k.realRoot, p.path);
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
    return writeFile(this.k, input, content, baseVersion, actor);
  }

  writeMany(items: readonly FileWrite[], actor: Actor = { kind: 'user' }): Promise<FileWriteOutcome[]> {
    return writeFiles(this.k, items, actor);
  }

  create(input: string, content: string, actor: Actor = { kind: 'user' }): Promise<ChangeResult> {
    return createFile(this.k, input, content, actor);
  }

  rename(from: string, to: string, actor: Actor = { kind: 'user' }): Promise<{ journalId: string }> {
    return renamePath(this.k, from, to, actor);
  }

  delete(input: string, actor: Actor = { kind: 'user' }): Promise<{ journalId: string }> {
    return deletePath(this.k, input, actor);
  }

  async history(input: string): Promise<JournalEntry[]> {
    await this.k.settle();
    return historyOf(this.k, parseMemoryPath(input).path);
  }

  async journal(): Promise<JournalEntry[]> {
    await this.k.settle();
    return [...this.k.wal.entries].reverse().map((r) => toPublicEntry(this.k, r));
  }

  async changesBy(toolUseId: string): Promise<JournalEntry[]> {
    await this.k.settle();
    return this.k.wal.entries.filter((r) => r.toolUseId === toolUseId).map((r) => toPublicEntry(this.k, r));
  }

  async diff(journalId: string): Promise<DiffResult> {
    await this.k.settle();
    return diffOf(this.k, journalId);
  }

  revert(journalId: string, actor: Actor = { kind: 'user' }): Promise<{ journalId: string }> {
    return revertEntry(this.k, journalId, actor);
  }

  async deleted(): Promise<JournalEntry[]> {
    await this.k.settle();
    return listDeleted(this.k);
  }

  restore(journalId: string, actor: Actor = { kind: 'user' }): Promise<{ journalId: string }> {
    return restoreEntry(this.k, journalId, actor);
  }

  forget(input: string): Promise<ForgetTrace> {
    return forgetPath(this.k, input);
  }

  pendingForgets(options: { tidy?: boolean } = {}): Promise<ForgetTrace[]> {
    return readForgetIntents(this.k, options.tidy !== false);
  }

  watchForgets(onChange: () => void): () => void {
    return watchForgetIntents(this.k, onChange);
  }

  async resumeForget(trace: ForgetTrace): Promise<void> {
    if (!trace.memoryDone) await forgetPath(this.k, trace.path, trace);
  }

  settleForget(id: string): Promise<void> {
    return removeForgetIntent(this.k, id);
  }

  async stale(): Promise<MemoryEntry[]> {
    return (await this.list()).filter((e) => e.stale);
  }

  touchRead(paths: readonly string[]): void {
    const now = this.k.clock();
    for (const p of paths) {
      try {
        this.k.lastRead.set(parseMemoryPath(p).path, now);
      } catch {
        // backfill may pass paths that are not ours; ignore them
      }
    }
    this.scheduleStateSave(2000);
  }

  onChange(listener: (event: ChangeEvent) => void): () => void {
    return this.k.onChange(listener);
  }

  private scheduleStateSave(ms: number): void {
    if (this.stateTimer || this.closed) return;
    this.stateTimer = setTimeout(() => {
      this.stateTimer = undefined;
      void this.k.lock.run(() => saveState(this.k)).catch(() => undefined);
    }, ms);
    this.stateTimer.unref();
  }

  async flush(): Promise<void> {
    if (this.closed) return;
    await this.k.lock.run(async (fresh) => {
      // What a deferred checkpoint or state save still waiting would do is done here, so they are dropped:
      // left, they took the lock again later with nothing to do (an idle space's lock coming and going).
      // A change after this point schedules them anew; a checkpoint that fails here is tried again later.
      this.k.checkpoints.cancel();
      clearTimeout(this.stateTimer);
      this.stateTimer = undefined;
      try {
        if (fresh) await this.k.catchUp();
        await this.k.checkpoint();
        await saveState(this.k);
      } catch (error) {
        this.k.checkpoints.schedule();
        throw error;
      }
    });
    // Outside the lock: nothing else reads the trash, and freeing many files should not hold up writes.
    void this.k.trash.empty();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.watcher?.stop();
    // A folder that cannot be synced leaves the checkpoint unwritten (recovery redoes from the journal);
    // the store still closes and gives the lock back. Not tried again later: nothing runs after a close.
    await this.flush().catch(() => undefined);
    clearTimeout(this.stateTimer);
    this.stateTimer = undefined;
    this.k.checkpoints.cancel();
    await this.k.trash.empty();
    this.closed = true;
    this.k.closed = true;
    await this.k.lock.shutdown();
    await this.k.wal.closeHandles();
  }
}
