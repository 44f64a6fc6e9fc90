// Reading a conversations folder at start: every `<id>.jsonl` replayed into its state, with where our view
// of the file ends (the store's catch-up compares against it).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { readJsonl } from './jsonl.js';
import type { ConversationRecord } from './records.js';
import { type ConversationState, rebuild } from './state.js';

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

const LOAD_BATCH = 16;

/** Every conversation of `dir` (created if missing), by id; files that are not one are skipped. */
export async function loadFolder(
  dir: string,
): Promise<Map<string, { state: ConversationState; tail: Tail }>> {
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const ids = (await fs.readdir(dir))
    .map((name) => (name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : ''))
    .filter((id) => ID.test(id));
  const out = new Map<string, { state: ConversationState; tail: Tail }>();
  // A batch of files at a time: one after the other, a space of 100 conversations took longer to list
  // than the 300 ms a switch to it may take; all at once, a big folder would exhaust file handles.
  for (let i = 0; i < ids.length; i += LOAD_BATCH) {
    const batch = ids.slice(i, i + LOAD_BATCH);
    const loaded = await Promise.all(batch.map((id) => loadOne(dir, id)));
    batch.forEach((id, j) => {
      const one = loaded[j];
      if (one) out.set(id, one);
    });
  }
  return out;
}

async function loadOne(
  dir: string,
  id: string,
): Promise<{ state: ConversationState; tail: Tail } | undefined> {
  const file = path.join(dir, `${id}.jsonl`);
  // No repair here: a torn last line may be another process's write in progress. The catch-up cuts
  // it, under the lock, before our next write.
  const [{ records, bytes }, { ino }] = await Promise.all([
    readJsonl<ConversationRecord>(file, { repair: false }),
    fs.stat(file),
  ]);
  const state = rebuild(records);
  return state && state.meta.id === id ? { state, tail: { ino, size: bytes } } : undefined;
}
