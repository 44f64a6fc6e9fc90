// A space's first open does not build its memory search index (that reads every file, and a switch to
// the space shows its lists first): the index is built a while later, or by the first search, from the
// files as they are then: one written by the memory API or by hand before that search is found. A space's
// recall index, asked to load by its conversation list, waits in the same idle queue: not while the window
// keeps calling (switching through spaces), and once it pauses. Its conversations folder is read while
// its memory opens; a store made later than that reading stays fresh reads the folder again.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import type { MessageRecord } from '../../../electron/core/conversations/records.js';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import { RecallIndex } from '../../../electron/core/recall/recall-index.js';
import { PRELOAD_FRESH_MS } from '../../../electron/core/spaces/open-space.js';
import { type Harness, call, startHarness } from '../agent/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const USER = { kind: 'user' } as const;

it('a space opens without its search index, and the first search finds what was written before it', async () => {
  h = await startHarness();
  const { space } = await h.core.spaces.ensure('Work');
  const work = await h.core.spaces.open(space.id);
  await work.ctx.memory.create('/memories/api.md', 'ZEBRA-API noted\n', USER);
  writeFileSync(path.join(work.ctx.space!.dir, 'memories', 'by-hand.md'), 'ZEBRA-HAND noted\n');
  // Long enough for a build begun at open to have read these two files.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(work.ctx.memorySearch.fileCount).toBe(0);

  const { hits } = await work.handlers['memory.search']({ query: 'zebra', limit: 10 }, call);
  expect(hits.map((hit) => hit.path).sort()).toEqual(['/memories/api.md', '/memories/by-hand.md']);
});

it('the index of an open space is built soon without a search', async () => {
  h = await startHarness();
  const { space } = await h.core.spaces.ensure('Work');
  const work = await h.core.spaces.open(space.id);
  await work.ctx.memory.create('/memories/a.md', 'text\n', USER);
  const until = Date.now() + 10_000;
  while (work.ctx.memorySearch.fileCount === 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(work.ctx.memorySearch.fileCount).toBe(1);
});

it("a space's recall index does not load while calls keep coming, and loads once they pause", async () => {
  const opens = vi.spyOn(RecallIndex.prototype, 'open');
  try {
    h = await startHarness();
    const { space } = await h.core.spaces.ensure('Work');
    const work = await h.core.spaces.route(space.id);
    await work.handlers['conversations.list']({}, call); // asks for the recall index "soon"
    // A person going through spaces: a call every 400 ms for 3 s, longer than the index's own 2 s delay.
    for (let t = 0; t < 3_000; t += 400) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await h.core.spaces.route(space.id);
    }
    expect(opens).not.toHaveBeenCalled();
    const until = Date.now() + 10_000;
    while (opens.mock.calls.length === 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(opens).toHaveBeenCalled();
  } finally {
    opens.mockRestore();
  }
});

const said = (id: string, text: string): MessageRecord => ({
  t: 'msg',
  id,
  kind: 'user',
  role: 'user',
  content: [{ type: 'text', text }],
  text,
  at: new Date().toISOString(),
});

it('a store made after what the space read at its open went stale reads the folder again', async () => {
  h = await startHarness();
  const { space } = await h.core.spaces.ensure('Work');
  const dir = path.join(h.dataDir, 'spaces', space.id, 'conversations');
  const before = new ConversationStore(dir);
  await before.init();
  const id = (await before.create({ memory: true, title: 'Plans', records: [said('m1', 'one')] })).meta.id;
  await before.close();
  const work = await h.core.spaces.route(space.id); // reads the folder (the cache, a stat per file)
  await new Promise((resolve) => setTimeout(resolve, 100));
  // Another process adds to the conversation after that reading, while nothing here uses the space.
  const elsewhere = new ConversationStore(dir);
  await elsewhere.init();
  await elsewhere.append(id, [said('m2', 'two')]);
  await elsewhere.close();
  await new Promise((resolve) => setTimeout(resolve, PRELOAD_FRESH_MS + 100));

  const { conversations } = await work.handlers['conversations.list']({}, call);
  expect(conversations.map((c) => [c.title, c.messageCount])).toEqual([['Plans', 2]]);
});
