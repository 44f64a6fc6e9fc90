// The summary cache: one file per conversations folder (conversations/.summaries.json, a dot name so
// nothing takes it for a conversation) holding every conversation's head and the stat of the file it was
// built from (size, inode, mtime). A start reads this one file and a stat per conversation instead of
// every conversation's body; a head whose file no longer has that stat (another process appended, a crash
// between an append and the next save, a hand edit, a sync) is rebuilt from the file, which stays the
// truth. The cache can be deleted at any time: the next start rebuilds it.
//
// One file, not one per conversation: a start then opens one file instead of a thousand (opening files
// is what a start of a big folder spent its time on), and a save, batched a second or two after changes,
// writes a few hundred bytes per conversation. Written whole to a temp file and renamed over the old one,
// so a kill at any point leaves the old cache or the new one (and a torn or foreign file is just ignored).
// It holds the list too, as the list shows it (newest first), ahead of the heads: a start's first list is
// that part alone, parsed, and the heads follow once it is answered. And the folder's stamp when a
// start's check found the list naming exactly its files (summary-read.ts's vouchFolder, written in
// place): then the next start need not read the folder's names.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ConversationSummary } from '../../../shared/channels/conversations.js';
import { type ConversationHead, parseHead, summaryOf } from './heads.js';
import { byNewest } from './summaries.js';

export const CACHE_FILE = '.summaries.json';
const VERSION = 4;

/** Where a head was built from: the conversation file's stat then. */
export interface FileStamp {
  size: number;
  ino: number;
  mtimeMs: number;
}

export interface CachedHead {
  head: ConversationHead;
  stamp: FileStamp;
}

export const sameStamp = (a: FileStamp, b: FileStamp): boolean =>
  a.size === b.size && a.ino === b.ino && a.mtimeMs === b.mtimeMs;

/** Whole milliseconds: what a copy that keeps times (cp -p, rsync, an unzip) brings back exactly. */
export const stampOf = (s: { size: number; ino: number; mtimeMs: number }): FileStamp => ({
  size: s.size,
  ino: s.ino,
  mtimeMs: Math.floor(s.mtimeMs),
});

// One array per conversation, not an object: a start parses a thousand of them, and named fields made
// the file half as long again and its parse slower.
type Row = [
  id: string,
  rev: string | null,
  title: string,
  createdAt: string,
  updatedAt: string,
  memory: boolean,
  noSearch: boolean,
  messages: number,
  lastMessageId: string,
  shown: number,
  firstLine: string,
  size: number,
  ino: number,
  mtimeMs: number,
];

const toRow = ({ head: h, stamp: s }: CachedHead): Row => [
  h.id,
  h.rev ?? null,
  h.title,
  h.createdAt,
  h.updatedAt,
  h.memory,
  h.noSearch,
  h.messages,
  h.lastMessageId,
  h.shown,
  h.firstLine,
  s.size,
  s.ino,
  s.mtimeMs,
];

function fromRow(x: unknown): CachedHead | null {
  if (!Array.isArray(x) || x.length !== 14) return null;
  const [id, rev, title, createdAt, updatedAt, memory, noSearch, messages, lastMessageId, shown, firstLine] =
    x as unknown[];
  const [size, ino, mtimeMs] = (x as unknown[]).slice(11);
  const head = parseHead(id as string, {
    id,
    ...(rev === null ? {} : { rev }),
    title,
    createdAt,
    updatedAt,
    memory,
    noSearch,
    messages,
    lastMessageId,
    shown,
    firstLine,
  });
  const stamp =
    Number.isSafeInteger(size) && typeof ino === 'number' && typeof mtimeMs === 'number'
      ? { size: size as number, ino, mtimeMs }
      : null;
  return head && typeof id === 'string' && stamp ? { head, stamp } : null;
}

// The file is one JSON object whose header has a fixed length, so that a start reads only its head and
// list parts, and a start's check can write the folder's stamp in place (summary-read.ts):
//   {"v":4,"listBytes":<n, padded to LIST_BYTES_W>,"folder":<null or the stamp, padded to FOLDER_W>,
//    "list":[...n bytes...],"heads":[...]}
// The list holds arrays of strings, numbers and booleans, where a key never appears and a '"' inside a
// string is always escaped, so the first `,"heads":` after it is where it ends even when a hand edit
// made listBytes wrong. Its items are arrays too (ListRow), which parse in half the time objects did, one
// per line (listText).
export const HEAD = `{"v":${VERSION},"listBytes":`;
export const LIST_BYTES_W = 12;
export const FOLDER_KEY = ',"folder":';
export const FOLDER_W = 120;
export const LIST_KEY = ',"list":';
export const HEADS_KEY = ',"heads":';
/** Where listBytes's digits are, where the folder field is, and where the list begins. */
export const LIST_BYTES_AT = HEAD.length;
export const FOLDER_AT = LIST_BYTES_AT + LIST_BYTES_W + FOLDER_KEY.length;
export const LIST_AT = FOLDER_AT + FOLDER_W + LIST_KEY.length;

/** The folder field: JSON null or a string, padded with spaces (JSON allows them before the comma). */
export function folderField(text: string | null): string | null {
  const json = text === null ? 'null' : JSON.stringify(text);
  return json.length <= FOLDER_W ? json.padEnd(FOLDER_W) : null;
}

export function headerOf(listBytes: number): string {
  return `${HEAD}${String(listBytes).padStart(LIST_BYTES_W)}${FOLDER_KEY}${'null'.padEnd(FOLDER_W)}${LIST_KEY}`;
}

type ListRow = [
  id: string,
  title: string,
  createdAt: string,
  updatedAt: string,
  memory: boolean,
  messageCount: number,
  noSearch: 0 | 1,
];

const toListRow = (s: ConversationSummary): ListRow => [
  s.id,
  s.title,
  s.createdAt,
  s.updatedAt,
  s.memory,
  s.messageCount,
  s.noSearch ? 1 : 0,
];

/**
 * The list part: a JSON array with each row on a line of its own (a newline before each), so the first
 * rows can be cut from it at the nth newline and parsed alone (summary-read.ts's `first`): a window's first
 * list of a thousand conversations needs the dozens that fill its sidebar. JSON.stringify escapes every
 * newline inside a string, so each one in the part is a row's start.
 */
const listText = (rows: ListRow[]): string => `[${rows.map((row) => `\n${JSON.stringify(row)}`).join(',')}]`;

/** A saved list item as summaryOf made it, checked field by field (the file may be hand-edited). */
export function fromListRow(x: unknown): ConversationSummary | null {
  if (!Array.isArray(x) || x.length !== 7) return null;
  const [id, title, createdAt, updatedAt, memory, messageCount, noSearch] = x as unknown[];
  if (
    typeof id !== 'string' ||
    typeof title !== 'string' ||
    typeof createdAt !== 'string' ||
    typeof updatedAt !== 'string' ||
    typeof memory !== 'boolean' ||
    !Number.isSafeInteger(messageCount) ||
    (noSearch !== 0 && noSearch !== 1)
  )
    return null;
  const summary = { id, title, createdAt, updatedAt, memory, messageCount: messageCount as number };
  return noSearch === 1 ? { ...summary, noSearch: true } : summary;
}

export function parseRows(parse: () => unknown): Map<string, CachedHead> {
  const out = new Map<string, CachedHead>();
  let rows: unknown;
  try {
    rows = parse();
  } catch {
    return out; // torn, or not JSON: rebuilt from the files
  }
  if (!Array.isArray(rows)) return out;
  for (const row of rows as unknown[]) {
    const cached = fromRow(row);
    if (cached) out.set(cached.head.id, cached);
  }
  return out;
}

/**
 * Replaces the cache with `heads`. `durable`: synced before the rename (after a forget or a deletion,
 * so the old titles cannot come back after a power loss); otherwise not, since a cache lost or emptied by
 * a power loss is only rebuilt.
 */
export async function writeCache(dir: string, heads: Iterable<CachedHead>, durable = false): Promise<void> {
  // Newest first, as the list shows them: the start that reads them back then sorts a sorted list.
  const sorted = [...heads].sort((a, b) => byNewest(a.head.updatedAt, b.head.updatedAt));
  const list = listText(sorted.map((c) => toListRow(summaryOf(c.head))));
  const text = `${headerOf(Buffer.byteLength(list))}${list}${HEADS_KEY}${JSON.stringify(sorted.map(toRow))}}`;
  const file = path.join(dir, CACHE_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const handle = await fs.open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      if (durable) await handle.datasync();
    } finally {
      await handle.close();
    }
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** The cache gone (what a failed save after a deletion or a forget falls back to: a start rebuilds it). */
export async function dropCache(dir: string): Promise<void> {
  await fs.rm(path.join(dir, CACHE_FILE), { force: true });
}

/** Temp files of a save cut short: they may hold titles since deleted or forgotten. */
export async function removeCacheLeftovers(dir: string, olderThanMs = 60_000): Promise<void> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    if (!name.startsWith(`${CACHE_FILE}.`) || !name.endsWith('.tmp')) continue;
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (stat && now - stat.mtimeMs > olderThanMs) await fs.rm(file, { force: true });
  }
}
