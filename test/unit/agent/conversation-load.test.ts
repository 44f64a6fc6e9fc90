// The store loads a folder of conversations a batch at a time (a switch to a space lists them): every
// conversation is there with its own state, whatever the order the files finish reading in, and the files
// it must skip (foreign names, a meta naming another id, no meta at all) are skipped as before.
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ConversationStore } from '../../../electron/core/conversations/store.js';

let dir: string;
let store: ConversationStore | undefined;
beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'mnemo-convload-'))));
afterEach(async () => {
  await store?.close();
  store = undefined;
  await rm(dir, { recursive: true, force: true });
});

const meta = (id: string, title: string) =>
  JSON.stringify({ t: 'meta', v: 1, id, title, createdAt: '2026-01-01T00:00:00.000Z' });
const message = (i: number, text: string) =>
  JSON.stringify({
    t: 'msg',
    id: `m${i}`,
    kind: 'user',
    role: 'user',
    content: [{ type: 'text', text }],
    at: '2026-01-01T00:00:00.000Z',
  });

it('loads every conversation of a folder larger than a batch, each with its own messages', async () => {
  mkdirSync(dir, { recursive: true });
  const ids: string[] = [];
  for (let i = 0; i < 53; i++) {
    const id = `conv-${i}`;
    ids.push(id);
    // Sizes differ (conversation i has i + 1 messages) so the reads finish out of order.
    const lines = [meta(id, `Title ${i}`)];
    for (let m = 0; m <= i; m++) lines.push(message(m, `${id} says ${m}`));
    writeFileSync(path.join(dir, `${id}.jsonl`), `${lines.join('\n')}\n`);
  }
  writeFileSync(path.join(dir, 'not a conversation.jsonl'), `${meta('not a conversation', 'x')}\n`);
  writeFileSync(path.join(dir, 'someone-else.jsonl'), `${meta('another-id', 'Stolen')}\n`);
  writeFileSync(path.join(dir, 'no-meta.jsonl'), `${message(0, 'orphan')}\n`);
  writeFileSync(path.join(dir, 'notes.txt'), 'not jsonl\n');

  store = new ConversationStore(dir);
  await store.init();
  const listed = store.list();
  expect(listed.map((c) => c.id).sort()).toEqual([...ids].sort());
  for (let i = 0; i < 53; i++) {
    const state = store.get(`conv-${i}`);
    expect(state.meta.title).toBe(`Title ${i}`);
    expect(state.messages).toHaveLength(i + 1);
    expect(JSON.stringify(state.messages.at(-1))).toContain(`conv-${i} says ${i}`);
  }
  // The tails were kept too: an append lands after what was loaded.
  const after = await store.append('conv-7', [
    {
      t: 'msg',
      id: 'm-new',
      kind: 'user',
      role: 'user',
      content: [{ type: 'text', text: 'later' }],
      at: '2026-01-02T00:00:00.000Z',
    },
  ]);
  expect(after.messages).toHaveLength(9);
  const again = new ConversationStore(dir);
  await again.init();
  expect(again.get('conv-7').messages).toHaveLength(9);
  await again.close();
});
