// Reading the summary cache (summary-cache.ts) at start: its head and list parts only (a start's first
// list needs nothing else), the heads once something needs them, and the folder's stamp that a start's
// check vouched for, with which the next start need not read the folder's names (folder-load.ts).
import { createHash } from 'node:crypto';
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

/** What the cache says of its folder: its stat when the list named exactly its files, and that list's key. */
export interface SavedFolder {
  stamp: FolderStamp;
  /** The list part's key then (CacheRead.key): a list edited in place since may name other files. */
  key: string;
}

/** A list's first rows and whether more follow. */
export interface FirstRows {
  list: ConversationSummary[];
  more: boolean;
}

/**
 * What a read of the cache gives, each part parsed on first use: the list as saved (newest first, absent
 * in a cache from before it held one, or not valid), its first rows alone (a window's first list needs
 * only what fills its sidebar), and the heads by id (nothing before a start's check needs them).
 */
export interface CacheRead {
  readonly list: ConversationSummary[] | null;
  /**
   * The list's first `n` rows, parsed without the rest; null when the part cannot be cut there (written
   * before each row had a line of its own, or edited by hand): then `list`.
   */
  first(n: number): FirstRows | null;
  /** The list has a row per line, so `first` can cut it (false without a list, or one written before). */
  cuttable(): boolean;
  /** The heads; none when the list is not valid (the cache is then not ours to trust). */
  heads(): Map<string, CachedHead>;
  folder: SavedFolder | null;
  /** The list part's length and a hash of its bytes, what a vouch is written with; null without a list. */
  key(): string | null;
  /** The bytes of the head and list parts as read: a vouch writes only into a file that begins with them. */
  prefix: Buffer | null;
}

const NONE: CacheRead = {
  list: null,
  first: () => null,
  cuttable: () => false,
  heads: () => new Map(),
  folder: null,
  key: () => null,
  prefix: null,
};

/** One read takes the head and list parts of a cache of about 1,300 conversations. */
const FIRST_READ = 128 * 1024;

/**
 * The list part's bytes as the folder stamp names them: their length and a hash. Of the bytes, not of the
 * parsed ids: a start that finds the key unchanged takes the list for the folder's names without parsing
 * it (a native hash of a thousand rows takes a sixth of their parse), and the first list parses only its
 * first rows.
 */
const listKey = (part: Buffer): string =>
  `${part.length}/${createHash('sha256').update(part).digest('hex').slice(0, 24)}`;

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
  const part = data.subarray(LIST_AT, at);
  let list: ConversationSummary[] | null | undefined;
  const all = (): ConversationSummary[] | null => (list === undefined ? (list = listOf(part)) : list);
  let heads: Map<string, CachedHead> | undefined;
  const from = at + HEADS_KEY.length;
  // Read later, the file as it is then: if another process saved it since, its heads are newer, and each
  // is checked against its file's stat all the same.
  const rest = (): Map<string, CachedHead> =>
    (heads ??= !all()
      ? new Map()
      : whole
        ? parseRows(() => JSON.parse(data.toString('utf8', from, data.length - 1)))
        : readCache(dir).heads());
  let key: string | undefined;
  const folder = exact ? savedFolder(data.toString('latin1', FOLDER_AT, FOLDER_AT + FOLDER_W)) : null;
  return {
    get list() {
      return all();
    },
    first: (n) => {
      if (list !== undefined) return list && { list: list.slice(0, n), more: list.length > n };
      const cut = rowsEnd(part, n);
      if (cut === null) return null;
      // Every row: parsed as the whole list it is.
      if (cut === part.length) return all() && { list: all()!, more: false };
      const rows = listOf(Buffer.concat([part.subarray(0, cut), CLOSE]));
      return rows && { list: rows, more: true };
    },
    cuttable: () => rowsEnd(part, 1) !== null,
    heads: rest,
    folder,
    key: () => (key ??= listKey(part)),
    prefix: exact ? data.subarray(0, from) : null,
  };
}

const NEWLINE = 0x0a;
const CLOSE = Buffer.from(']');

/**
 * Where the list part's first `n` rows end (before the comma that follows the last of them), its length
 * when it has no more than `n`; null when its rows are not one per line (summary-cache.ts's listText).
 */
function rowsEnd(part: Buffer, n: number): number | null {
  if (part.length === 2 && part.toString('latin1') === '[]') return part.length;
  if (part[0] !== '['.charCodeAt(0) || part[1] !== NEWLINE) return null;
  let at = 1;
  for (let i = 0; i < n; i++) {
    at = part.indexOf(NEWLINE, at + 1);
    if (at < 0) return part.length;
  }
  return part[at - 1] === ','.charCodeAt(0) ? at - 1 : null;
}

/** A list part parsed, each row checked (the file may be hand-edited); null when any is not valid. */
function listOf(part: Buffer): ConversationSummary[] | null {
  let rows: unknown;
  try {
    rows = JSON.parse(part.toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(rows)) return null;
  const list: ConversationSummary[] = [];
  for (const row of rows as unknown[]) {
    const summary = fromListRow(row);
    if (!summary) return null;
    list.push(summary);
  }
  return list;
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
  return parsed && count && hash ? { stamp: parsed, key: `${count}/${hash}` } : null;
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
  const key = list && read.key();
  const field = key && folderField(`${stampText(stamp)}/${key}`);
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
