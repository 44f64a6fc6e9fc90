// Reading the summary cache (summary-cache.ts) at start: its head and list parts only (a start's first
// list needs nothing else), the heads once something needs them, and the folder's stamp that a start's
// check vouched for, with which the next start need not read the folder's names (folder-load.ts).
import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { ConversationSummary } from '../../../shared/channels/conversations.js';
import { type FolderStamp, stampFromText, stampText } from './folder-stamp.js';
import {
  CACHE_FILE,
  type CachedHead,
  FOLDER_AT,
  FOLDER_KEY,
  FOLDER_W,
  HEAD,
  HEADS_KEY,
  LIST_AT,
  LIST_BYTES_AT,
  LIST_BYTES_W,
  LIST_KEY,
  folderField,
  fromListRow,
  parseRows,
} from './summary-cache.js';

/** What the cache says of its folder: its stat when the list named exactly its files, and those ids. */
export interface SavedFolder {
  stamp: FolderStamp;
  /** idsKey of the list then: a list edited in place since names other files. */
  ids: string;
}

/**
 * What a read of the cache gives: the list as saved (newest first, absent in a cache from before it held
 * one), at once, and the heads by id, parsed on first use (a start's first list needs only the list).
 */
export interface CacheRead {
  list: ConversationSummary[] | null;
  heads(): Map<string, CachedHead>;
  folder: SavedFolder | null;
  /** The bytes of the head and list parts as read: a vouch writes only into a file that begins with them. */
  prefix: Buffer | null;
}

const NONE: CacheRead = { list: null, heads: () => new Map(), folder: null, prefix: null };

/** One read takes the head and list parts of a cache of about 1,300 conversations. */
const FIRST_READ = 128 * 1024;

/** The list's ids as the folder stamp names them: their count and a hash (FNV-1a) of them in order. */
export function idsKey(list: readonly ConversationSummary[]): string {
  let h = 0x811c9dc5;
  for (const { id } of list) {
    for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 10, 0x01000193);
  }
  return `${list.length}/${(h >>> 0).toString(16)}`;
}

/**
 * The cache as read now, whole; nothing when there is none or it cannot be used. Synchronous: a few
 * hundred kilobytes take well under a millisecond, while the same read through the thread pool waited
 * for it four times (for a start that is not waiting for other disk work meanwhile).
 */
export function readCache(dir: string): CacheRead {
  let data: Buffer;
  try {
    data = readFileSync(path.join(dir, CACHE_FILE));
  } catch {
    return NONE; // none yet: rebuilt from the files
  }
  return parse(data, true, dir) ?? NONE;
}

/**
 * The head and list parts only (a start's first list needs nothing else): the heads part is most of the
 * file, and is read when first needed. Synchronous too, and for the same reason as readCache: the start
 * is bound by the CPU, and reading the first 128 kB through the thread pool (open, read, close) took about
 * 0.5 ms of it, twenty times what the same synchronous reads take.
 */
export function readCacheHead(dir: string): CacheRead {
  let fd: number;
  try {
    fd = openSync(path.join(dir, CACHE_FILE), 'r');
  } catch {
    return NONE; // none yet: rebuilt from the files
  }
  try {
    let data = Buffer.allocUnsafe(FIRST_READ);
    const bytesRead = readSync(fd, data, 0, FIRST_READ, 0);
    data = data.subarray(0, bytesRead);
    if (bytesRead === FIRST_READ) {
      const need = needed(data);
      if (need === null) return readCache(dir);
      if (need > data.length) {
        const more = Buffer.allocUnsafe(need);
        data.copy(more);
        data = more.subarray(
          0,
          data.length + readSync(fd, more, data.length, need - data.length, data.length),
        );
      }
    }
    return parse(data, bytesRead < FIRST_READ, dir) ?? readCache(dir);
  } catch {
    return NONE;
  } finally {
    closeSync(fd);
  }
}

/** The length of the head and list parts (to `,"heads":` included), null when not known from the header. */
function needed(data: Buffer): number | null {
  const bytes = listBytes(data);
  return bytes === null ? null : LIST_AT + bytes + HEADS_KEY.length;
}

function listBytes(data: Buffer): number | null {
  if (data.length < LIST_AT) return null;
  const header = data.toString('latin1', 0, LIST_AT);
  if (
    !header.startsWith(HEAD) ||
    header.slice(LIST_BYTES_AT + LIST_BYTES_W, FOLDER_AT) !== FOLDER_KEY ||
    header.slice(FOLDER_AT + FOLDER_W) !== LIST_KEY
  )
    return null;
  const digits = header.slice(LIST_BYTES_AT, LIST_BYTES_AT + LIST_BYTES_W);
  return /^ *\d+$/.test(digits) ? Number(digits) : null;
}

/**
 * `data` parsed: the whole file (`whole`) or its beginning. Null when the beginning is not enough (its
 * listBytes is wrong, a hand edit changed the list's length): then the whole file is needed.
 */
function parse(data: Buffer, whole: boolean, dir: string): CacheRead | null {
  if (whole && data.at(-1) !== '}'.charCodeAt(0)) return NONE; // torn, or not ours
  const bytes = listBytes(data);
  if (bytes === null) {
    if (!whole) return null;
    return data.subarray(0, HEAD.length).toString('latin1') === HEAD ? NONE : legacy(data);
  }
  let at = LIST_AT + bytes;
  const exact = data.subarray(at, at + HEADS_KEY.length).toString('latin1') === HEADS_KEY;
  if (!exact) {
    if (!whole) return null;
    at = data.indexOf(HEADS_KEY, LIST_AT);
    if (at < 0) return NONE;
  }
  let rows: unknown;
  try {
    rows = JSON.parse(data.toString('utf8', LIST_AT, at));
  } catch {
    return NONE;
  }
  if (!Array.isArray(rows)) return NONE;
  const list: ConversationSummary[] = [];
  for (const row of rows as unknown[]) {
    const summary = fromListRow(row);
    if (!summary) return NONE;
    list.push(summary);
  }
  let heads: Map<string, CachedHead> | undefined;
  const from = at + HEADS_KEY.length;
  // Read later, the file as it is then: if another process saved it since, its heads are newer, and each
  // is checked against its file's stat all the same.
  const rest = (): Map<string, CachedHead> =>
    (heads ??= whole
      ? parseRows(() => JSON.parse(data.toString('utf8', from, data.length - 1)))
      : readCache(dir).heads());
  const folder = exact ? savedFolder(data.toString('latin1', FOLDER_AT, FOLDER_AT + FOLDER_W)) : null;
  return { list, heads: rest, folder, prefix: exact ? data.subarray(0, from) : null };
}

function savedFolder(field: string): SavedFolder | null {
  let text: unknown;
  try {
    text = JSON.parse(field);
  } catch {
    return null; // being written by another process's start: as if there were none
  }
  if (typeof text !== 'string') return null;
  const [stamp, count, hash] = text.split('/');
  const parsed = stampFromText(stamp ?? '');
  return parsed && count && hash ? { stamp: parsed, ids: `${count}/${hash}` } : null;
}

// A cache written before it held the list (version 1): its heads, all of them now.
function legacy(data: Buffer): CacheRead {
  const heads = parseRows(() => {
    const file = JSON.parse(data.toString('utf8')) as { v?: unknown; heads?: unknown } | null;
    return file?.v === 1 ? file.heads : null;
  });
  return { ...NONE, heads: () => heads };
}

/**
 * Writes `stamp` into the cache's folder field, in place (a rename would change the folder itself),
 * if the file still begins with what `read` read. False when it does not or cannot be written.
 */
export function vouchFolder(dir: string, read: CacheRead, stamp: FolderStamp): boolean {
  const { prefix, list } = read;
  const field = list && folderField(`${stampText(stamp)}/${idsKey(list)}`);
  if (!prefix || !field) return false;
  let fd: number;
  try {
    fd = openSync(path.join(dir, CACHE_FILE), 'r+');
  } catch {
    return false;
  }
  try {
    const now = Buffer.alloc(prefix.length);
    if (readSync(fd, now, 0, now.length, 0) !== now.length) return false;
    const end = FOLDER_AT + FOLDER_W;
    if (!now.subarray(0, FOLDER_AT).equals(prefix.subarray(0, FOLDER_AT))) return false;
    if (!now.subarray(end).equals(prefix.subarray(end))) return false;
    return writeSync(fd, field, FOLDER_AT, 'latin1') === FOLDER_W;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
