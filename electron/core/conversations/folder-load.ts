// Reading a conversations folder at start, in two steps: the listing and the summary cache
// (summary-cache.ts), then a stat per file, never a body, except for files the cache does not describe
// as they are now: those are replayed, and their states kept (they have been read anyway). The listing
// reads no names when the folder's stat is the stamp a previous start's check vouched for in the cache
// (no name came or went since; a file changed in place is the stats' to find). Also the one place that
// reads a body on demand (readBody), with where our view of the file ends (the store's catch-up compares
// against it).
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
import {
  type FolderStamp,
  folderStamp,
  sameFolder,
  settledWhenTaken,
  unchangedSince,
} from './folder-stamp.js';
import { type ConversationHead, headOf } from './heads.js';
import { parseLines } from './jsonl.js';
import { markRead } from './page-marks.js';
import type { ConversationRecord } from './records.js';
import { isRedactLeftover } from './redact-files.js';
import { type ConversationState, rebuild } from './state.js';
import {
  CACHE_FILE,
  type CachedHead,
  type FileStamp,
  removeCacheLeftovers,
  sameStamp,
  stampOf,
} from './summary-cache.js';
import { type CacheRead, readCacheHead, vouchFolder } from './summary-read.js';

export { type FolderStamp, unchangedSince } from './folder-stamp.js';

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

/** A folder's conversation ids (from its listing) and what the summary cache says of them. */
export interface Listing {
  /** Read from the cache's list on first use when `vouched` (the first list needs none of them). */
  readonly ids: string[];
  /** The folder's stat just before its names were read (null if it could not be taken). */
  stamp: FolderStamp | null;
  /** The cached heads (parsed on first use). */
  readonly cache: Map<string, CachedHead>;
  /**
   * The list as the cache saved it (what a first list shows before any head is parsed), if it has one;
   * parsed on first use (`read.first` gives its first rows alone).
   */
  readonly list: ConversationSummary[] | null;
  /**
   * How the ids were found: the folder's names read, or (`vouched`) the cache's list, which the
   * folder's stat says names its files still (a start's check vouched for it: vouchListing).
   */
  from: 'names' | 'vouched';
  /** Temp files of a redaction cut short that the names showed (finishPendingForgets removes them). */
  redactLeftovers: string[];
  /** No leftover of any kind among the names (then a check may vouch for the listing). */
  clean: boolean;
  readonly read: CacheRead;
}

/**
 * The first step of a start: one listing and one read of the cache's head and list parts, nothing per
 * conversation. Synchronous, for the reason readCacheHead is: on the way to the first list, each trip
 * through the thread pool is a wait, and costs more of the CPU than the read itself.
 */
export async function listFolder(dir: string): Promise<Listing> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = folderStamp(dir);
  const read = readCacheHead(dir);
  return vouched(read, stamp) ?? listing(dir, stamp, readdirSync(dir), read);
}

/**
 * listFolder taken ahead of need by a caller that starts other disk work next (createCore and a space's
 * open: the memory's open). It waits one turn of the microtask queue, so that work's first reads are
 * under way in the thread pool when this one reads: on a cold disk the two waits overlap, and on a warm
 * one nothing waits at all.
 */
export async function prefetchFolder(dir: string): Promise<Listing> {
  await Promise.resolve();
  return listFolder(dir);
}

/**
 * The cache's list as the listing, without reading the folder's names, when its folder stamp is the
 * folder's stat now (no name came or left since a check found the list naming exactly the files) and
 * the list part holds the very bytes vouched for (so it parses, and names only valid ids: the check
 * parsed it then). A file changed in place since is found by the check's stats. Nothing is parsed here.
 */
function vouched(read: CacheRead, now: FolderStamp | null): Listing | null {
  const saved = read.folder;
  if (!saved || !now || !sameFolder(saved.stamp, now) || !settledWhenTaken(saved.stamp)) return null;
  if (read.key() !== saved.key) return null;
  let ids: string[] | undefined;
  return {
    get ids() {
      return (ids ??= (read.list ?? []).map((s) => s.id).filter((id) => ID.test(id)));
    },
    stamp: saved.stamp,
    get cache() {
      return read.heads();
    },
    get list() {
      return read.list;
    },
    from: 'vouched',
    redactLeftovers: [],
    clean: true,
    read,
  };
}

async function listing(
  dir: string,
  stamp: FolderStamp | null,
  names: string[],
  read: CacheRead,
): Promise<Listing> {
  let clean = true;
  if (names.some((n) => n.startsWith(`${CACHE_FILE}.`))) {
    clean = false;
    await removeCacheLeftovers(dir);
  }
  const ids: string[] = [];
  const redactLeftovers: string[] = [];
  for (const name of names) {
    if (isRedactLeftover(name)) redactLeftovers.push(name);
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
    get list() {
      return read.list;
    },
    from: 'names',
    redactLeftovers,
    clean: clean && redactLeftovers.length === 0,
    read,
  };
}

/** The redaction leftovers a listing found; undefined (then the folder is read) if it failed. */
export function leftoversOf(listing: Promise<Listing>): Promise<string[] | undefined> {
  return listing.then(
    (l) => l.redactLeftovers,
    () => undefined,
  );
}

/**
 * After a check that found every head the cache listed as its file is (nothing replayed, nothing gone,
 * no other file), with no name come or gone since the listing: the listing's folder stamp is written
 * into the cache, so the next start can take the cache's list for the folder's names (`vouched`).
 */
export function vouchListing(dir: string, l: Listing, { heads, bodies }: Folder): boolean {
  if (l.from !== 'names' || !l.clean || !l.stamp || !l.list || bodies.size > 0) return false;
  if (heads.size !== l.ids.length || l.list.length !== l.ids.length) return false;
  if (!l.list.every((s) => heads.has(s.id))) return false;
  return unchangedSince(dir, l.stamp) && vouchFolder(dir, l.read, l.stamp);
}

/** The cache names every file listed (then its heads can be shown while they are checked). */
export function covers(l: Listing): boolean {
  if (l.from === 'vouched') return true; // its ids are its list's
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
