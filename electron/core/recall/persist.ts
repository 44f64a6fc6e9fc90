// The recall index on disk: a folder in the space's conversations folder (a dot name, so nothing lists it
// as a conversation), one JSON file per shard (conversations are spread over SHARDS by a hash of their
// id, so saving after a change writes a sixteenth of the index). Each file is written whole to a temp
// file, synced and renamed over the old one, so a crash leaves the old shard or the new one; anything
// unreadable (torn, hand-edited, another version or text scheme) is simply rebuilt from the
// conversations, which are the truth.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AsPlainObject } from 'minisearch';
import { TEXT_SCHEME } from './text.js';

export const INDEX_DIR = '.recall-index';
export const SHARDS = 16;

export function shardFile(dir: string, shard: number): string {
  return path.join(dir, `shard-${String(shard).padStart(2, '0')}.json`);
}

/** Which shard holds a conversation: FNV-1a of its id. */
export function shardOf(conversationId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < conversationId.length; i++) h = Math.imul(h ^ conversationId.charCodeAt(i), 0x01000193);
  return (h >>> 0) % SHARDS;
}
const VERSION = 1;

/** Per conversation: the cheap key it was indexed at, and each indexed document's id and text hash. */
export type Manifest = Record<string, [key: string, docs: [docId: string, hash: string][]]>;

export interface Persisted {
  manifest: Manifest;
  index: AsPlainObject;
}

interface FileShape {
  v: number;
  scheme: string;
  manifest: Manifest;
  index: AsPlainObject;
}

/** The stored index, or null when there is none or it cannot be used (then it is rebuilt). */
export async function readIndex(file: string): Promise<{ data: Persisted | null; problem?: string }> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { data: null };
    return { data: null, problem: 'unreadable' };
  }
  try {
    const parsed = JSON.parse(text) as Partial<FileShape> | null;
    if (!parsed || parsed.v !== VERSION || parsed.scheme !== TEXT_SCHEME)
      return { data: null, problem: 'old' };
    if (typeof parsed.manifest !== 'object' || parsed.manifest === null || typeof parsed.index !== 'object')
      return { data: null, problem: 'corrupt' };
    return { data: { manifest: parsed.manifest, index: parsed.index as AsPlainObject } };
  } catch {
    return { data: null, problem: 'corrupt' };
  }
}

export async function writeIndex(file: string, data: Persisted): Promise<void> {
  const body: FileShape = { v: VERSION, scheme: TEXT_SCHEME, manifest: data.manifest, index: data.index };
  const text = JSON.stringify(body);
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const handle = await fs.open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, file);
}

/**
 * Temp files of a save cut short (a crash between write and rename): they may hold text since deleted or
 * forgotten. Removed at the next load once older than any save in progress could be.
 */
export async function removeLeftovers(dir: string, olderThanMs = 60_000): Promise<void> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.tmp'))) {
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > olderThanMs) await fs.rm(file, { force: true });
  }
}

/** FNV-1a over UTF-16 code units: tells a message's text changed in place (a redaction) from unchanged. */
export function textHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${(h >>> 0).toString(36)}.${text.length.toString(36)}`;
}
