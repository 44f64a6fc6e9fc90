// The page index's sidecar: one small file per conversation (conversations/.pages/<id>.json) saying where
// in the conversation's file each page-sized turn starts (page-index.ts), how many entries and view items
// each holds, and which messages are pinned, for the file as it was at one stat (size, inode, mtime). An
// open after a restart then reads this and the tail of the file its last page needs (page-view.ts)
// instead of replaying the whole file. It holds byte offsets, counts and message ids, never text, so a
// forget has nothing to redact in it; it vouches only for a file with exactly that stat (any append,
// rewrite, sync or hand edit makes it stale), and a stale, torn or foreign sidecar is just not used: the
// file is replayed, as without one, and the sidecar written again. It can be deleted at any time.
// Version 2 adds what the context meter shows of the same file (agent/context-snapshot.ts: numbers and
// ids only), opaque here; a version-1 sidecar is not used, and written again at the next replay.
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { type FileStamp, sameStamp, stampOf } from './summary-cache.js';

export const PAGES_DIR = '.pages';
const VERSION = 2;

export interface PageFile {
  /** The conversation file's stat this describes. */
  stamp: FileStamp;
  /** Ids of the pinned messages (the projection marks them). */
  pinned: string[];
  /** Per turn, in order: the byte offset of its first entry's line, its entries, its view items. */
  offsets: number[];
  entries: number[];
  items: number[];
  /** The context meter's figures for this file (the store's owner makes and reads them). */
  context?: unknown;
}

export const pageFileOf = (dir: string, id: string): string => path.join(dir, PAGES_DIR, `${id}.json`);

const isCount = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;
const counts = (x: unknown): x is number[] => Array.isArray(x) && x.every(isCount);

/**
 * The sidecar if it is whole and well-formed and describes a file with `stamp`; otherwise null. Read
 * synchronously: it is on the way to a first screen, and reading its tens of kilobytes through the thread
 * pool cost more of the CPU than the read itself (as the summary cache's, summary-read.ts).
 */
export async function readPageFile(dir: string, id: string, stamp: FileStamp): Promise<PageFile | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(pageFileOf(dir, id), 'utf8'));
  } catch {
    return null; // none, torn or not JSON
  }
  const f = parsed as Record<string, unknown> | null;
  if (f?.v !== VERSION || f.id !== id || !counts(f.stamp) || f.stamp.length !== 3) return null;
  const [size, ino, mtimeMs] = f.stamp as [number, number, number];
  const saved = { size, ino, mtimeMs };
  if (!sameStamp(saved, stamp)) return null;
  const { pinned, deltas, entries, items } = f;
  if (!Array.isArray(pinned) || !pinned.every((p) => typeof p === 'string')) return null;
  if (!Array.isArray(deltas) || !Array.isArray(entries) || !Array.isArray(items)) return null;
  const turns = deltas.length;
  if (entries.length !== turns || items.length !== turns) return null;
  const offsets: number[] = [];
  let at = 0;
  // One pass over the three (a long conversation has tens of thousands of turns, and this is on the way to
  // its first screen): counts, strictly increasing offsets (every turn has a line), each turn an entry.
  for (let i = 0; i < turns; i++) {
    const d: unknown = deltas[i];
    if (!isCount(d) || !isCount(entries[i]) || !isCount(items[i])) return null;
    if ((i > 0 && d === 0) || entries[i] === 0) return null;
    offsets.push((at += d));
  }
  if (offsets.length > 0 && offsets.at(-1)! >= size) return null;
  const context = f.context;
  return {
    stamp: saved,
    pinned: pinned as string[],
    offsets,
    entries,
    items,
    ...(context ? { context } : {}),
  };
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
  const deltas = file.offsets.map((o, i) => o - (i > 0 ? file.offsets[i - 1]! : 0));
  const text = JSON.stringify({
    v: VERSION,
    id,
    stamp: [size, ino, mtimeMs],
    pinned: file.pinned,
    deltas,
    entries: file.entries,
    items: file.items,
    ...(file.context ? { context: file.context } : {}),
  });
  const target = pageFileOf(dir, id);
  const tmp = `${target}.${process.pid}.tmp`;
  try {
    await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    // Not synced: one lost or emptied by a power loss is just not used, and written again.
    await fs.writeFile(tmp, text, { encoding: 'utf8', mode: 0o600 });
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
