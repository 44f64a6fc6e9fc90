// The first build of a space's recall index reports its progress on the space's bus (issue 17, "long work
// shows progress"): a search made on a seeded space (real conversation files, the real index, the real
// backend) waits for the build, and meanwhile conversations.indexing goes out with documents indexed of
// total, never going back, from 0 to total; the search then finds what the files hold.
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import type { EventPayload } from '../../../shared/contract.js';
import { userMessages } from '../../fixtures/user-messages.js';
import { type Harness, call, startHarness } from './harness.js';

let h: Harness | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

const CONVERSATIONS = 40;
const MESSAGES = 25;

async function seed(dataDir: string): Promise<void> {
  const store = new ConversationStore(path.join(dataDir, 'conversations'));
  await store.init();
  const user = userMessages();
  let n = 0;
  for (let c = 0; c < CONVERSATIONS; c++) {
    const records = Array.from({ length: MESSAGES }, () =>
      user(`walnut pecan number${++n} ${c === 7 ? 'a restaurant called Chez Gaston' : 'nothing'}`),
    );
    await store.create({ memory: true, title: `Chat ${c}`, records });
  }
  await store.close();
}

describe('recall index build progress', () => {
  it('a search on a seeded space sees increasing progress ending at 100%, then its hits', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-recall-progress-'));
    await seed(dataDir);
    h = await startHarness({ dataDir });
    const seen: EventPayload<'conversations.indexing'>[] = [];
    h.core.bus.subscribe((name, payload) => {
      if (name === 'conversations.indexing') seen.push(payload as EventPayload<'conversations.indexing'>);
    });

    const res = await h.core.handlers['conversations.search']({ query: 'restaurant' }, call);
    expect(res.results.map((r) => r.title)).toContain('Chat 7');

    // Every message and every title of the seeded conversations, once.
    const total = CONVERSATIONS * (MESSAGES + 1);
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.every((p) => p.total === total)).toBe(true);
    expect(seen[0]!.indexed).toBe(0);
    expect(seen.at(-1)!.indexed).toBe(total);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.indexed).toBeGreaterThan(seen[i - 1]!.indexed);

    // Built once: the next search (and a restart, which loads the saved index) reports nothing new.
    const before = seen.length;
    await h.core.handlers['conversations.search']({ query: 'walnut' }, call);
    expect(seen.length).toBe(before);
    await h.restart();
    h.core.bus.subscribe((name, payload) => {
      if (name === 'conversations.indexing') seen.push(payload as EventPayload<'conversations.indexing'>);
    });
    expect(
      (await h.core.handlers['conversations.search']({ query: 'restaurant' }, call)).results,
    ).not.toEqual([]);
    expect(seen.length).toBe(before);
  });
});
