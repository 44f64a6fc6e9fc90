// Reading a conversations folder at start, in two steps: the listing and the summary cache
// (summary-cache.ts), then a stat per file, never a body, except for files the cache does not describe
// as they are now: those are replayed, and their states kept (they have been read anyway). Also the one place that reads a body on demand
// (readBody), with where our view of the file ends (the store's catch-up compares against it).
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  promises as fs,
  readFileSync,
  readdirSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import type { ConversationSummary } from '../../../shared/channels/conversations.js';
import { type ConversationHead, headOf } from './heads.js';
import { parseLines } from './jsonl.js';
import { markRead } from './page-marks.js';
import type { ConversationRecord } from './records.js';
import { type ConversationState, rebuild } from './state.js';
import {
  CACHE_FILE,
  type CacheRead,
  type CachedHead,
  type FileStamp,
  readCache,
  readCacheAsync,
  removeCacheLeftovers,
  sameStamp,
  stampOf,
} from './summary-cache.js';

/** The ids the store accepts: also file names, so no separators, dots or spaces. */
export const ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Where our view of a file ends: its inode and size after the last write or catch-up (with the meta's
 * rev, which tells a replaced file from ours).
 */
export interface Tail {
  /** undefined only while a new conversation's first write is in flight. */
  ino: number | undefined;
  size: number;
}

/** A conversation read from its file. */
export interface Body {
  state: ConversationState;
  tail: Tail;
  /** The file's stat the state is the replay of; absent when the file changed while it was read. */
  stamp?: FileStamp;
}

/** What a start did: how many heads came from the cache and how many files it replayed (tests, benches). */
export interface LoadStats {
  cached: number;
  replayed: number;
}

export interface Folder {
  heads: Map<string, CachedHead | { head: ConversationHead; stamp?: FileStamp }>;
  bodies: Map<string, Body>;
  stats: LoadStats;
}

const LOAD_BATCH = 16;

/** A folder's own stat, taken before its names were read, with when (Date.now()) it was taken. */
export interface FolderStamp {
  ino: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  takenAt: number;
}

export function folderStamp(dir: string): FolderStamp | null {
  try {
    const s = statSync(dir, { bigint: true });
    return { ino: s.ino, mtimeNs: s.mtimeNs, ctimeNs: s.ctimeNs, takenAt: Date.now() };
  } catch {
    return null;
  }
}

/**
 * No name came into `dir` or left it since `stamp` (a folder's modification time moves with every entry
 * created, removed or renamed in it), which must have been old enough when taken: a change in the same
 * tick of the file system's clock leaves the same time. That tick is a few milliseconds where times have
 * a sub-second part, up to two seconds where they have none (FAT, older file systems).
 */
export function unchangedSince(dir: string, stamp: FolderStamp): boolean {
  const ms = Number(stamp.mtimeNs / 1_000_000n);
  const tick = stamp.mtimeNs % 1_000_000_000n === 0n ? 2_000 : 100;
  if (ms > stamp.takenAt - tick) return false;
  const now = folderStamp(dir);
  return (
    now !== null && now.ino === stamp.ino && now.mtimeNs === stamp.mtimeNs && now.ctimeNs === stamp.ctimeNs
  );
}

/** A folder's conversation ids (from its listing) and what the summary cache says of them. */
export interface Listing {
  ids: string[];
  /** The folder's stat just before its names were read (null if it could not be taken). */
  stamp: FolderStamp | null;
  /** The cached heads (parsed on first use). */
  readonly cache: Map<string, CachedHead>;
  /** The list as the cache saved it (what a first list shows before any head is parsed), if it has one. */
  list: ConversationSummary[] | null;
}

/**
 * The first step of a start: one listing and one file read, nothing per conversation. Synchronous, for
 * the reason readCache is: on the way to the first list, each trip through the thread pool is a wait.
 */
export async function listFolder(dir: string): Promise<Listing> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = folderStamp(dir);
  return listing(dir, stamp, readdirSync(dir), readCache(dir));
}

/**
 * listFolder through the thread pool, for a listing taken ahead of need while the caller waits for other
 * disk work (createCore, while the memory opens): the reads overlap that work, and the parse fills a
 * wait of it instead of adding to the first list's time.
 */
export async function prefetchFolder(dir: string): Promise<Listing> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const stamp = folderStamp(dir);
  const [names, cache] = await Promise.all([fs.readdir(dir), readCacheAsync(dir)]);
  return listing(dir, stamp, names, cache);
}

async function listing(
  dir: string,
  stamp: FolderStamp | null,
  names: string[],
  read: CacheRead,
): Promise<Listing> {
  if (names.some((n) => n.startsWith(`${CACHE_FILE}.`))) await removeCacheLeftovers(dir);
  const ids: string[] = [];
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const id = name.slice(0, -'.jsonl'.length);
    if (ID.test(id)) ids.push(id);
  }
  return {
    ids,
    stamp,
    get cache() {
      return read.heads();
    },
    list: read.list,
  };
}

/** The cache names every file listed (then its heads can be shown while they are checked). */
export function covers(l: Listing): boolean {
  if (!l.list) return l.ids.every((id) => l.cache.has(id));
  const listed = new Set(l.list.map((s) => s.id));
  return l.ids.every((id) => listed.has(id));
}

/**
 * The second step: each cached head checked against its file's stat, and the files it does not describe
 * as they are now replayed. Conversations that are not one (foreign names, a meta naming another id, no
 * meta at all) are skipped.
 */
export async function checkFolder(dir: string, { ids, cache }: Listing): Promise<Folder> {
  const heads: Folder['heads'] = new Map();
  const bodies = new Map<string, Body>();
  const stale: string[] = [];
  for (const id of ids) {
    const cached = cache.get(id);
    // A stat each, synchronously: a thousand take a few milliseconds, a tenth of what the same stats
    // queued on the thread pool took.
    let stamp: FileStamp | null = null;
    if (cached) {
      try {
        stamp = stampOf(statSync(path.join(dir, `${id}.jsonl`)));
      } catch {
        continue; // gone since the listing
      }
    }
    if (cached && stamp && sameStamp(cached.stamp, stamp)) heads.set(id, cached);
    else stale.push(id);
  }
  // The rest a batch of files at a time: one after the other, a space of 100 conversations took longer
  // to list than the 300 ms a switch to it may take; all at once, a big folder would exhaust file handles.
  for (let i = 0; i < stale.length; i += LOAD_BATCH) {
    const batch = stale.slice(i, i + LOAD_BATCH);
    const loaded = await Promise.all(batch.map((id) => readBody(dir, id).catch(() => undefined)));
    batch.forEach((id, j) => {
      const body = loaded[j];
      if (!body) return;
      bodies.set(id, body);
      heads.set(id, { head: headOf(body.state), ...(body.stamp ? { stamp: body.stamp } : {}) });
    });
  }
  return { heads, bodies, stats: { cached: heads.size - bodies.size, replayed: bodies.size } };
}

function bodyOf(id: string, data: Buffer, before: FileStamp, after: FileStamp): Body | undefined {
  // No repair here: a torn last line may be another process's write in progress. The catch-up cuts
  // it, under the lock, before our next write.
  const { records, bytes, starts } = parseLines<ConversationRecord>(data);
  markRead(records, starts);
  const state = rebuild(records);
  if (!state || state.meta.id !== id) return undefined;
  const steady = sameStamp(before, after) && data.length === before.size;
  return { state, tail: { ino: after.ino, size: bytes }, ...(steady ? { stamp: after } : {}) };
}

/**
 * A conversation's state from its file: undefined when the file is not that conversation. `beforeReplay`
 * runs between the read and the replay (which takes the thread for a long file).
 */
export async function readBody(
  dir: string,
  id: string,
  beforeReplay?: () => Promise<unknown>,
): Promise<Body | undefined> {
  const handle = await fs.open(path.join(dir, `${id}.jsonl`), 'r');
  try {
    // Stat, read, stat: the state describes that stat only if nothing was appended meanwhile.
    const before = stampOf(await handle.stat());
    const data = await handle.readFile();
    const after = stampOf(await handle.stat());
    await beforeReplay?.();
    return bodyOf(id, data, before, after);
  } finally {
    await handle.close();
  }
}

/** readBody for a synchronous caller (store.get of a conversation nobody opened first). */
export function readBodySync(dir: string, id: string): Body | undefined {
  const fd = openSync(path.join(dir, `${id}.jsonl`), 'r');
  try {
    const before = stampOf(fstatSync(fd));
    const data = readFileSync(fd);
    return bodyOf(id, data, before, stampOf(fstatSync(fd)));
  } finally {
    closeSync(fd);
  }
}
