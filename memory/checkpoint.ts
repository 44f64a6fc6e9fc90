// The checkpoint (README "Durability"): the changes journaled since the last checkpoint are made durable in
// the files (the notes replaced, each fdatasynced, then the folders renamed into or out of), and only then
// does the journal say so. Until then recovery redoes them from the journal, so how often this runs
// trades only recovery work, never durability. The changes are taken from the journal, not from what this
// process wrote, so another process's changes on the same data folder are covered too.
import * as path from 'node:path';
import { fsyncDirs, syncFiles } from './fs-safe.js';
import type { Journal } from './journal.js';
import type { ProcessLock } from './lock.js';
import { ROOT, segmentsOf } from './paths.js';
import type { Trash } from './trash.js';

/** How long after a change the deferred checkpoint runs (and `flush`/`close` run one at once). */
const CHECKPOINT_MS = 5000;

/** What the checkpoint needs of the kernel that owns it. */
export interface CheckpointHost {
  readonly wal: Journal;
  readonly lock: ProcessLock;
  readonly trash: Trash;
  readonly closed: boolean;
  hostOf(segments: readonly string[]): string;
  catchUp(): Promise<void>;
}

interface Todo {
  files: string[];
  dirs: string[];
  lastId?: string;
}

export class Checkpoints {
  /** Folders renamed into or out of since the last checkpoint (host paths). */
  private readonly dirtyDirs = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private done: () => void = () => undefined;

  constructor(private readonly k: CheckpointHost) {}

  /** Called after each deferred checkpoint (the owner persists its lazy state then). */
  onDone(fn: () => void): void {
    this.done = fn;
  }

  dirty(hostDir: string): void {
    this.dirtyDirs.add(hostDir);
  }

  /** A change was applied: the deferred checkpoint runs about CHECKPOINT_MS later, then empties the trash. */
  schedule(): void {
    if (this.timer || this.k.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.deferred()
        .then(() => {
          this.done();
          return this.k.trash.empty();
        })
        .catch(() => undefined);
    }, CHECKPOINT_MS);
    this.timer.unref();
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Before any other checkpoint record (the journal calls this: `flush`, `close`, the end of a rewrite),
   * under the lock: sync what changed. What fails stays dirty, and the checkpoint fails.
   */
  async syncChanged(): Promise<void> {
    const todo = this.changedSinceCheckpoint();
    if (todo) await this.sync(todo);
  }

  /**
   * The deferred checkpoint. Under the lock (after a catch-up, so every process's records are known): note
   * what the changes so far touched. Outside it, so that writers go on meanwhile: fdatasync those files,
   * then their folders. Under the lock again: a checkpoint record covering exactly those changes.
   */
  async deferred(): Promise<void> {
    const todo = await this.k.lock.run(async (fresh) => {
      if (fresh) await this.k.catchUp();
      return this.changedSinceCheckpoint();
    });
    if (!todo) return;
    await this.sync(todo);
    const lastId = todo.lastId;
    if (lastId)
      await this.k.lock.run(async (fresh) => {
        if (fresh) await this.k.catchUp();
        await this.k.wal.checkpointUpTo(lastId);
      });
  }

  /** The files and folders the changes since the last checkpoint touched, and the last of those changes. */
  private changedSinceCheckpoint(): Todo | null {
    const files = new Set<string>();
    const unsettled = this.k.wal.entries.slice(this.k.wal.unsettledFrom);
    for (const r of unsettled) {
      for (const p of [r.path, r.newPath]) {
        if (!p || p === ROOT) continue;
        const host = this.k.hostOf(segmentsOf(p));
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

  private async sync(todo: Todo): Promise<void> {
    try {
      await syncFiles(todo.files);
    } catch (err) {
      todo.dirs.forEach((d) => this.dirtyDirs.add(d));
      throw err;
    }
    await fsyncDirs(todo.dirs, (left) => left.forEach((d) => this.dirtyDirs.add(d)));
  }
}
