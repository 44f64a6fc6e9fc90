// How sync reads and changes a space: memory files only through the Memory API (the guarded write path:
// names, links, sizes, secrets, quota, journal), conversations only under their file lock, by temp file
// and rename. An entry the remote holds is checked here before anything is written; what is refused is
// reported with the reason and never touches the disk.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { isMemoryError, type Memory, type SyncActor } from '../../../memory/index.js';
import { lockFile } from '../conversations/lock.js';
import type { ConversationRecord, MetaRecord } from '../conversations/records.js';
import { rebuild } from '../conversations/state.js';
import { titleOf } from '../conversations/store.js';
import { blobOid, FILE_MODE, type TreeEntry } from './git-store.js';
import { CONVERSATION_CAP_BYTES, overLimit } from './limits.js';
import type { SpaceInfo } from './merge.js';

/** What the engine needs of a space; the backend builds it from `core.spaces.open(id)`. */
export interface SyncSpace {
  id: string;
  memory: Memory;
  /** The space's conversations folder (DIR/conversations or DIR/spaces/<id>/conversations). */
  conversationsDir: string;
  info(): Promise<SpaceInfo>;
  /** Rename or recolour the space (a refusal, e.g. a name taken here, is reported, not thrown on). */
  setInfo(patch: { name?: string; colour?: string }): Promise<void>;
  /** Conversations that sync changed on disk: the open store reloads them. */
  conversationsChanged?(ids: string[]): Promise<void> | void;
  /** Forget permanently (a tombstone from another device): file, history, conversation copies, indexes. */
  forget?(memoryPath: string): Promise<void>;
}

export const CONVERSATION_ID = /^[A-Za-z0-9_-]{1,128}$/;
export { CONVERSATION_CAP_BYTES } from './limits.js';
const LOCK_WAIT_MS = 1_500;

export class Refused extends Error {}
/** The entry cannot be applied now (a conversation answering, a file changed meanwhile): next sync. */
export class Busy extends Error {}

/** The memory path of a tree entry, in NFC as the memory names its files (names.ts). */
export const memoryPathOf = (segs: readonly string[]): string =>
  `/memories/${segs.slice(1).join('/')}`.normalize('NFC');
export const conversationFileOf = (dir: string, id: string): string => path.join(dir, `${id}.jsonl`);

/** Why an entry from the remote cannot even be considered (before any content is read), or null. */
export function structuralRefusal(e: TreeEntry): string | null {
  if (e.segs.some((s) => s === '' || s.includes('/') || s.includes('\\') || s.includes('\0'))) {
    return 'its path is not a plain relative path';
  }
  if (e.mode === '120000') return 'it is a symbolic link';
  if (e.mode === '160000') return 'it is a submodule';
  if (e.mode === '40000') return 'it is nested deeper than a memory folder can be';
  if (e.mode !== FILE_MODE && e.mode !== '100755') return 'it is not a regular file';
  if (e.segs[0] === 'conversations') {
    const name = e.segs[1] ?? '';
    if (e.segs.length !== 2 || !name.endsWith('.jsonl') || !CONVERSATION_ID.test(name.slice(0, -6))) {
      return 'it is not a conversation file name';
    }
  }
  return null;
}

export async function readMemoryFile(
  memory: Memory,
  p: string,
): Promise<{ content: string; version: string } | null> {
  try {
    return await memory.read(p);
  } catch (error) {
    if (isMemoryError(error) && error.code === 'not_found') return null;
    throw error;
  }
}

/**
 * Puts `content` (null: deleted) at a memory path, if the file still holds the content whose blob id is
 * `expectOid` (what sync last saw; null: absent). A guard's refusal becomes Refused with its message.
 */
export async function applyMemory(
  memory: Memory,
  p: string,
  content: Buffer | null,
  expectOid: string | null,
  actor: SyncActor,
): Promise<void> {
  try {
    const cur = await readMemoryFile(memory, p);
    const curOid = cur ? blobOid(Buffer.from(cur.content, 'utf8')) : null;
    if (curOid !== expectOid) throw new Busy('changed on this device meanwhile');
    if (content === null) {
      if (cur) await memory.delete(p, actor);
      return;
    }
    const text = decodeUtf8(content);
    if (text === null) throw new Refused('it is not UTF-8 text');
    if (cur?.content === text) return;
    await memory.write(p, text, cur ? cur.version : null, actor);
  } catch (error) {
    if (error instanceof Busy || error instanceof Refused) throw error;
    if (isMemoryError(error)) {
      if (error.code === 'conflict') throw new Busy('changed on this device meanwhile');
      if (error.code === 'closed' || error.code === 'io') throw error;
      throw new Refused(error.message.replace(/^(Error|Refused): /, ''));
    }
    throw error;
  }
}

export function decodeUtf8(b: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return null;
  }
}

/** Checks a conversation file from the remote: JSON lines, a meta record first with the file's own id. */
export function checkConversation(id: string, content: Buffer): ConversationRecord[] {
  if (content.length > CONVERSATION_CAP_BYTES) throw new Refused(overLimit(CONVERSATION_CAP_BYTES));
  const text = decodeUtf8(content);
  if (text === null) throw new Refused('it is not UTF-8 text');
  let records: ConversationRecord[];
  try {
    records = text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as ConversationRecord);
  } catch {
    throw new Refused('it is not a conversation (not JSON lines)');
  }
  const meta = records[0] as MetaRecord | undefined;
  if (meta?.t !== 'meta' || meta.id !== id || !rebuild(records)) {
    throw new Refused('it is not a conversation (its first line does not name it)');
  }
  return records;
}

/** Replaces (or removes) a conversation's file under its lock, if it still holds what sync last saw. */
export async function applyConversation(
  dir: string,
  id: string,
  content: Buffer | null,
  expectOid: string | null,
): Promise<void> {
  if (content) checkConversation(id, content);
  const file = conversationFileOf(dir, id);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const lock = await lockFile(file, { waitMs: LOCK_WAIT_MS });
  if (!lock) throw new Busy('the conversation is answering');
  try {
    const cur = await fsp.readFile(file).catch(() => null);
    const curOid = cur ? blobOid(completeLines(cur)) : null;
    if (curOid !== expectOid) throw new Busy('changed on this device meanwhile');
    if (content === null) {
      await fsp.rm(file, { force: true });
      return;
    }
    await replaceFile(file, content);
  } finally {
    await lock.release();
  }
}

/**
 * The remote's version of a conversation both devices changed, kept as a conversation of its own titled
 * "… (from DEVICE)". Its id comes from the original's and the version's, so a sync cut short and redone
 * writes the same copy again instead of a second one.
 */
export async function forkConversation(
  dir: string,
  id: string,
  content: Buffer,
  device: string,
): Promise<{ id: string; content: Buffer }> {
  const records = checkConversation(id, content);
  const copyId = `${id.slice(0, 80)}-${createHash('sha1').update(id).update(content).digest('hex').slice(0, 12)}`;
  const state = rebuild(records)!;
  const meta = { ...(records[0] as MetaRecord), id: copyId };
  const title = `${titleOf(state)} (from ${device})`;
  const lines = [meta, ...records.slice(1), { t: 'title', title, at: meta.createdAt }];
  const out = Buffer.from(lines.map((r) => `${JSON.stringify(r)}\n`).join(''), 'utf8');
  const file = conversationFileOf(dir, copyId);
  const exists = await fsp.stat(file).then(
    () => true,
    () => false,
  );
  if (!exists) await replaceFile(file, out);
  return { id: copyId, content: exists ? completeLines(await fsp.readFile(file)) : out };
}

/** What a conversation file holds up to its last complete line (a line being written is left for later). */
export function completeLines(b: Buffer): Buffer {
  const end = b.lastIndexOf(0x0a);
  return end < 0 ? Buffer.alloc(0) : b.subarray(0, end + 1);
}

async function replaceFile(file: string, content: Buffer): Promise<void> {
  const tmp = `${file}.sync-${process.pid}.tmp`;
  const handle = await fsp.open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(content);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await fsp.rename(tmp, file);
}
