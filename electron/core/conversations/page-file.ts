// The page index's sidecar: one small file per conversation (conversations/.pages/<id>.json) saying where
// in the conversation's file each page-sized turn starts (page-index.ts), how many entries and view items
// each holds, and which messages are pinned, for the file as it was at one stat (size, inode, mtime). An
// open after a restart then reads this and the tail of the file its last page needs (page-view.ts)
// instead of replaying the whole file. It holds byte offsets, counts and message ids, never text, so a
// forget has nothing to redact in it; it vouches only for a file with exactly that stat (any append,
// rewrite, sync or hand edit makes it stale), and a stale, torn or foreign sidecar is just not used: the
// file is replayed, as without one, and the sidecar written again. It can be deleted at any time.
// Version 2 added what the context meter shows of the same file (agent/context-snapshot.ts: numbers and
// ids only), opaque here; version 3 keeps the turns as bytes after a first line of JSON (TurnTable). A
// sidecar of an earlier version is not used, and written again at the next replay.
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { type FileStamp, sameStamp, stampOf } from './summary-cache.js';

export const PAGES_DIR = '.pages';
const VERSION = 3;
/** Bytes per turn: its first line's byte offset (float64), its entries and its view items (uint32 each). */
export const TURN_BYTES = 16;

/**
 * Per turn, in order: the byte offset of its first entry's line, its entries, its view items. Kept as the
 * sidecar's bytes, read where a page needs them: an open reads the last turns of a conversation with tens of
 * thousands, and parsing them all (JSON, then a pass to check each) took 2-7 ms of a just-started process.
 */
export class TurnTable {
  private constructor(private readonly bytes: Buffer) {}

  static of(turns: readonly { offset: number; entries: number; items: number }[]): TurnTable {
    const bytes = Buffer.alloc(turns.length * TURN_BYTES);
    turns.forEach((t, i) => {
      bytes.writeDoubleLE(t.offset, i * TURN_BYTES);
      bytes.writeUInt32LE(t.entries, i * TURN_BYTES + 8);
      bytes.writeUInt32LE(t.items, i * TURN_BYTES + 12);
    });
    return new TurnTable(bytes);
  }

  /** The table in `bytes` (a whole number of turns), or null. */
  static read(bytes: Buffer): TurnTable | null {
    return bytes.length % TURN_BYTES === 0 ? new TurnTable(bytes) : null;
  }

  get length(): number {
    return this.bytes.length / TURN_BYTES;
  }

  offset(t: number): number {
    return this.bytes.readDoubleLE(t * TURN_BYTES);
  }

  entries(t: number): number {
    return this.bytes.readUInt32LE(t * TURN_BYTES + 8);
  }

  items(t: number): number {
    return this.bytes.readUInt32LE(t * TURN_BYTES + 12);
  }

  /**
   * Turns [first, last) as a page may use them, in a file of `size` bytes: whole offsets, strictly
   * increasing and inside the file, and an entry at least in each. Checked where used, not all at the read.
   */
  sound(first: number, last: number, size: number): boolean {
    for (let t = first; t < last; t++) {
      const at = this.offset(t);
      if (!Number.isSafeInteger(at) || at < 0 || at >= size || this.entries(t) === 0) return false;
      if (t > first && at <= this.offset(t - 1)) return false;
    }
    return true;
  }

  get raw(): Buffer {
    return this.bytes;
  }
}

export interface PageFile {
  /** The conversation file's stat this describes. */
  stamp: FileStamp;
  /** Ids of the pinned messages (the projection marks them). */
  pinned: string[];
  turns: TurnTable;
  /** The context meter's figures for this file (the store's owner makes and reads them). */
  context?: unknown;
}

export const pageFileOf = (dir: string, id: string): string => path.join(dir, PAGES_DIR, `${id}.json`);

const isCount = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;
const NEWLINE = 0x0a;

/**
 * The sidecar if it is whole and well-formed and describes a file with `stamp`; otherwise null. Its first
 * line is JSON (the stamp, the pins, the number of turns, the context figures), the turn table follows as
 * bytes. Read synchronously: it is on the way to a first screen, and reading it through the thread pool
 * cost more of the CPU than the read itself (as the summary cache's, summary-read.ts).
 */
export async function readPageFile(dir: string, id: string, stamp: FileStamp): Promise<PageFile | null> {
  let data: Buffer;
  let parsed: unknown;
  try {
    data = readFileSync(pageFileOf(dir, id));
    const end = data.indexOf(NEWLINE);
    if (end < 0) return null;
    parsed = JSON.parse(data.toString('utf8', 0, end));
    data = data.subarray(end + 1);
  } catch {
    return null; // none, or its first line torn or not JSON
  }
  const f = parsed as Record<string, unknown> | null;
  if (f?.v !== VERSION || f.id !== id || !Array.isArray(f.stamp) || f.stamp.length !== 3) return null;
  if (!f.stamp.every(isCount) || !isCount(f.turns)) return null;
  const [size, ino, mtimeMs] = f.stamp as [number, number, number];
  const saved = { size, ino, mtimeMs };
  if (!sameStamp(saved, stamp)) return null;
  const { pinned } = f;
  if (!Array.isArray(pinned) || !pinned.every((p) => typeof p === 'string')) return null;
  // As many turns as the first line says (a cut or a longer file is not this sidecar).
  const turns = data.length === f.turns * TURN_BYTES ? TurnTable.read(data) : null;
  if (!turns) return null;
  const context = f.context;
  return { stamp: saved, pinned: pinned as string[], turns, ...(context ? { context } : {}) };
}

/** The context figures the sidecar holds, if it describes the conversation's file as it is now. */
export async function readPageContext(dir: string, id: string): Promise<unknown> {
  const file = path.join(dir, `${id}.jsonl`);
  const before = await fs.stat(file).then(stampOf, () => null);
  const page = before && (await readPageFile(dir, id, before));
  // Stat, read, stat: the figures are this file's only if nothing changed it meanwhile.
  const after = page && (await fs.stat(file).then(stampOf, () => null));
  return after && sameStamp(after, before) ? (page.context ?? null) : null;
}

/** Replaces the sidecar: written whole to a temp file and renamed, so a kill leaves the old one or the new. */
export async function writePageFile(dir: string, id: string, file: PageFile): Promise<void> {
  const { size, ino, mtimeMs } = file.stamp;
  const head = JSON.stringify({
    v: VERSION,
    id,
    stamp: [size, ino, mtimeMs],
    pinned: file.pinned,
    turns: file.turns.length,
    ...(file.context ? { context: file.context } : {}),
  });
  const target = pageFileOf(dir, id);
  const tmp = `${target}.${process.pid}.tmp`;
  try {
    await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    // Not synced: one lost or emptied by a power loss is just not used, and written again.
    await fs.writeFile(tmp, Buffer.concat([Buffer.from(`${head}\n`), file.turns.raw]), { mode: 0o600 });
    await fs.rename(tmp, target);
  } catch (error) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
}

export async function removePageFile(dir: string, id: string): Promise<void> {
  await fs.rm(pageFileOf(dir, id), { force: true });
}

/** Temp files of a save cut short (a kill mid-write): only offsets and counts, but clutter. */
export async function removePageLeftovers(dir: string, olderThanMs = 60_000): Promise<void> {
  const folder = path.join(dir, PAGES_DIR);
  const names = await fs.readdir(folder).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    if (!name.endsWith('.tmp')) continue;
    const file = path.join(folder, name);
    const stat = await fs.stat(file).catch(() => null);
    if (stat && now - stat.mtimeMs > olderThanMs) await fs.rm(file, { force: true });
  }
}
