// The conversations' trash (conversations/.trash/<id>.jsonl): a deletion moves the file there at once, so
// the conversation leaves the list, the recall index and every other window the moment it is deleted,
// and the window's Undo moves it back. What is in the trash is nobody's conversation: no store lists it,
// sync only takes the folder's own .jsonl files, and a forget rewrites it like any other file
// (forget.ts). The process that trashed it deletes it for good after TRASH_KEEP_MS, or at its close.
//
// Beside each trashed file, <id>.owner says which process trashed it and when. A start (any process on
// the folder: the app, a CLI run) deletes for good only what no live process can still undo: a file whose
// owner has ended (a crash, a kill: its Undo went with it), has no owner, or is older than any Undo
// (TRASH_KEEP_MS + UNDO_MARGIN_MS). The rest is left to its owner, and looked at again once that age has
// passed, in case the owner cannot see to it (stuck, or a pid taken over by another program).
//
// Invariant: a conversation's file is in one place, the folder or the trash, each move being one rename;
// a crash mid-move leaves it live or trashed, never torn and never both. Its owner file is written before
// it comes in and removed after it leaves, under the same lock.
import { promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { ContractError } from '../../../shared/errors.js';
import { lockFile, processAlive } from './lock.js';

export const TRASH_DIR = '.trash';

/** How long a move waits for a forget rewriting the trashed file (store-base.ts's LOCK_WAIT_MS). */
const WAIT_MS = 1_500;

/**
 * How long a deleted conversation can still be restored: well past the window's Undo (a few seconds), so
 * an Undo clicked at its last moment, and answered late, still finds it.
 */
export const TRASH_KEEP_MS = 30_000;

/**
 * How much longer than TRASH_KEEP_MS a start leaves a live process's trashed conversation alone: that
 * process's own timer deletes it at TRASH_KEEP_MS, unless it is too busy to run it.
 */
export const UNDO_MARGIN_MS = 30_000;

export const goneForGood = (): ContractError =>
  new ContractError('not_found', 'That conversation was deleted for good.');

export const trashDirOf = (dir: string): string => path.join(dir, TRASH_DIR);
export const trashFileOf = (dir: string, id: string): string => path.join(dir, TRASH_DIR, `${id}.jsonl`);

const ownerFileOf = (dir: string, id: string): string => path.join(dir, TRASH_DIR, `${id}.owner`);

interface Owner {
  pid: number;
  host: string;
  /** When it was trashed (ms since the epoch). */
  at: number;
}

/** Records this process as the one that trashed `id` (before its file moves in, under its lock). */
export async function markTrashed(dir: string, id: string): Promise<void> {
  const owner: Owner = { pid: process.pid, host: hostname(), at: Date.now() };
  await fs.writeFile(ownerFileOf(dir, id), JSON.stringify(owner), { mode: 0o600 });
}

/** `id` left the trash (restored or purged): its owner file goes too (under its lock). */
export async function unmarkTrashed(dir: string, id: string): Promise<void> {
  await fs.rm(ownerFileOf(dir, id), { force: true });
}

async function ownerOf(dir: string, id: string): Promise<Owner | null> {
  try {
    const o = JSON.parse(await fs.readFile(ownerFileOf(dir, id), 'utf8')) as Partial<Owner>;
    return Number.isInteger(o.pid) && typeof o.host === 'string' && Number.isFinite(o.at)
      ? (o as Owner)
      : null;
  } catch {
    return null; // none (trashed by an older version), or garbled (its writer died writing it)
  }
}

/** How long its Undo may still come (ms), or 0 when nobody can bring it back any more. */
function undoLeft(owner: Owner | null, now: number): number {
  if (!owner) return 0;
  if (owner.host === hostname() && owner.pid !== process.pid && !processAlive(owner.pid)) return 0;
  // Its age decides the rest (a process on another machine, sharing the folder, cannot be asked whether
  // it still runs). A time ahead of ours (that machine's clock, or ours set back) counts as just now.
  const age = Math.max(0, now - owner.at);
  return Math.max(0, TRASH_KEEP_MS + UNDO_MARGIN_MS - age);
}

/** A forget's rewrite of a trashed file cut short (redact-files.ts's temp file): it may hold the text. */
const REWRITE_LEFTOVER = /\.redact-(\d+)$/;

/**
 * Deletes for good what is in the trash and no live process can undo any more (see the top of this
 * file). Returns in how many ms the earliest thing kept can no longer be undone, or null if nothing was
 * kept. A trashed file whose lock is busy (a forget rewriting it, its Undo) is kept for then too.
 */
export async function emptyEndedTrash(dir: string, now = Date.now()): Promise<number | null> {
  const names = await fs.readdir(trashDirOf(dir)).catch(() => [] as string[]);
  let next: number | null = null;
  const keep = (ms: number): void => {
    next = Math.min(next ?? ms, ms);
  };
  const ids = new Set(
    names
      .filter((n) => n.endsWith('.jsonl') || n.endsWith('.owner'))
      .map((n) => n.replace(/\.(jsonl|owner)$/, '')),
  );
  for (const id of ids) {
    try {
      const left = await withTrashLock(
        dir,
        id,
        async (file) => {
          const left = undoLeft(await ownerOf(dir, id), now);
          if (left > 0 && (await exists(file))) return left;
          await fs.rm(file, { force: true });
          await unmarkTrashed(dir, id);
          return 0;
        },
        0,
      );
      if (left > 0) keep(left);
    } catch {
      keep(TRASH_KEEP_MS);
    }
  }
  for (const name of names) {
    const pid = REWRITE_LEFTOVER.exec(name)?.[1];
    if (pid !== undefined && !processAlive(Number(pid)))
      await fs.rm(path.join(trashDirOf(dir), name), { force: true }).catch(() => undefined);
  }
  return next;
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
  waitMs = WAIT_MS,
): Promise<T> {
  const file = trashFileOf(dir, id);
  await fs.mkdir(trashDirOf(dir), { recursive: true, mode: 0o700 });
  const lock = await lockFile(file, { waitMs });
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

/**
 * This process's trashed conversations, each deleted for good once its time is up (or at close); and at
 * start, what ended processes left (emptyEndedTrash), looked at again when what was kept is past any Undo.
 */
export class Trash {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly dir: string) {}

  /** Empties what nobody can undo any more; again later for what a live process may still undo. */
  async sweep(): Promise<void> {
    clearTimeout(this.sweepTimer);
    const next = await emptyEndedTrash(this.dir);
    if (next === null || this.closed) return;
    this.sweepTimer = setTimeout(() => void this.sweep().catch(() => undefined), next + 1_000);
    this.sweepTimer.unref();
  }

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
    await withTrashLock(this.dir, id, async (file) => {
      await fs.rm(file, { force: true });
      await unmarkTrashed(this.dir, id);
    });
  }

  /** At close: what this process trashed can no longer be undone by any of its windows. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.sweepTimer);
    await Promise.all([...this.timers.keys()].map((id) => this.purge(id).catch(() => undefined)));
  }
}
