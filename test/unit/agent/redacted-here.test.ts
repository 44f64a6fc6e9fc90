// The store's note of conversations redacted in place (store-base.ts redactedHere): the recall index asks
// it to re-check such a conversation against its file at the next start. The note is kept only while the
// file may still hold more than the live state, so a long-running process does not collect one per
// conversation it ever redacted.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversationRecord, MessageRecord } from '../../../electron/core/conversations/records.js';
import { ConversationStore } from '../../../electron/core/conversations/store.js';

let dir: string;
let store: ConversationStore;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mnemo-redacted-here-'));
  store = new ConversationStore(path.join(dir, 'conversations'));
  await store.init();
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const user = (text: string): MessageRecord => ({
  t: 'msg',
  id: `m-${text.length}-${Math.random().toString(36).slice(2)}`,
  kind: 'user',
  role: 'user',
  content: [{ type: 'text', text }],
  text,
  at: new Date(Date.UTC(2026, 0, 1)).toISOString(),
});

/** Replaces every message's text by 'gone' (a forget's redactor, in short). */
function redactAll(records: readonly ConversationRecord[]): boolean {
  for (const r of records)
    if (r.t === 'msg') {
      r.text = 'gone';
      r.content = [{ type: 'text', text: 'gone' }];
    }
  return true;
}

const fileDone = async () => true;
const fileFails = async () => {
  throw Object.assign(new Error('no space left'), { code: 'ENOSPC' });
};

describe('conversations redacted in place', () => {
  it('are noted only until their file holds the same', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++)
      ids.push((await store.create({ memory: true, records: [user(`the cedar ${i}`)] })).meta.id);
    for (const id of ids) expect(await store.redact(id, redactAll, fileDone)).toBe(true);
    expect(ids.filter((id) => store.redactedInPlace(id))).toEqual([]);
  });

  it('a file part that fails keeps the note, a later one that reaches the file drops it', async () => {
    const { meta } = await store.create({ memory: true, records: [user('the cedar stands')] });
    await expect(store.redact(meta.id, redactAll, fileFails)).rejects.toThrow();
    expect(store.redactedInPlace(meta.id)).toBe(true);
    await store.redact(meta.id, redactAll, fileDone);
    expect(store.redactedInPlace(meta.id)).toBe(false);
  });

  it('a deleted conversation leaves no note behind', async () => {
    const { meta } = await store.create({ memory: true, records: [user('the cedar stands')] });
    await expect(store.redact(meta.id, redactAll, fileFails)).rejects.toThrow();
    await store.delete(meta.id);
    expect(store.redactedInPlace(meta.id)).toBe(false);
  });
});
