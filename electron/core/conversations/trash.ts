// The conversations' trash (conversations/.trash/<id>.jsonl): a deletion moves the file there at once, so
// the conversation leaves the list, the recall index and every other window the moment it is deleted,
// and the window's Undo moves it back. What is in the trash is nobody's conversation: no store lists it,
// sync only takes the folder's own .jsonl files, and a forget rewrites it like any other file
// (forget.ts). It stays TRASH_KEEP_MS at most, and a start empties it whole: the Undo that could bring it
// back belonged to a window of the process that ended (a crash, a kill), so "deleted" then means for good.
//
// Invariant: a conversation's file is in one place, the folder or the trash, each move being one rename;
// a crash mid-move leaves it live or trashed, never torn and never both.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ContractError } from '../../../shared/errors.js';
import { lockFile } from './lock.js';

export const TRASH_DIR = '.trash';

/** How long a move waits for a forget rewriting the trashed file (store-base.ts's LOCK_WAIT_MS). */
const WAIT_MS = 1_500;

/**
 * How long a deleted conversation can still be restored: well past the window's Undo (a few seconds), so
 * an Undo clicked at its last moment, and answered late, still finds it.
 */
export const TRASH_KEEP_MS = 30_000;

export const goneForGood = (): ContractError =>
  new ContractError('not_found', 'That conversation was deleted for good.');

export const trashDirOf = (dir: string): string => path.join(dir, TRASH_DIR);
export const trashFileOf = (dir: string, id: string): string => path.join(dir, TRASH_DIR, `${id}.jsonl`);

/** Everything in the trash, deleted for good (a start: nothing there can be restored any more). */
export async function emptyTrash(dir: string): Promise<void> {
  await fs.rm(trashDirOf(dir), { recursive: true, force: true });
}

/** The trash's conversation files (a forget rewrites them). */
export async function trashedFiles(dir: string): Promise<string[]> {
  const names = await fs.readdir(trashDirOf(dir)).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.jsonl')).map((n) => path.join(trashDirOf(dir), n));
}

/**
 * Runs `task` holding the trashed file's lock: a forget rewriting it (forget.ts takes the same lock) and a
 * restore or purge moving it never overlap, so a restore cannot bring back a copy the forget missed.
 */
export async function withTrashLock<T>(
  dir: string,
  id: string,
  task: (file: string) => Promise<T>,
): Promise<T> {
  const file = trashFileOf(dir, id);
  await fs.mkdir(trashDirOf(dir), { recursive: true, mode: 0o700 });
  const lock = await lockFile(file, { waitMs: WAIT_MS });
  if (!lock) throw new ContractError('unavailable', 'That conversation is busy: try again in a moment.');
  try {
    return await task(file);
  } finally {
    await lock.release();
  }
}

export const exists = (file: string): Promise<boolean> =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

/** This process's trashed conversations, each deleted for good once its time is up (or at close). */
export class Trash {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly dir: string) {}

  /** `id` was just moved into the trash. */
  added(id: string): void {
    this.cancel(id);
    const timer = setTimeout(() => void this.purge(id).catch(() => undefined), TRASH_KEEP_MS);
    timer.unref();
    this.timers.set(id, timer);
  }

  /** `id` left the trash (restored). */
  cancel(id: string): void {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
  }

  async purge(id: string): Promise<void> {
    this.cancel(id);
    await withTrashLock(this.dir, id, (file) => fs.rm(file, { force: true }));
  }

  /** At close: what this process trashed can no longer be undone by any of its windows. */
  async close(): Promise<void> {
    await Promise.all([...this.timers.keys()].map((id) => this.purge(id).catch(() => undefined)));
  }
}
