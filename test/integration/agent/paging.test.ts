// Paging a conversation (issue 14, item 5), through the backend's handlers against the fake API: the pages
// a window walks, from the end or from a message it was opened at, are exactly the full transcript, live
// and after a restart that found a torn last line (a kill mid-write), and each is about `limit` items
// however long the conversation is.
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../shared/channels/conversations.js';
import { type Paged, mergePage } from '../../../shared/projection/page-merge.js';
import type { ConversationRecord } from '../../../electron/core/conversations/records.js';
import { getAgent } from '../../../electron/core/agent/index.js';
import { text } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, send, startHarness } from './harness.js';
import { garbleHead, longChat } from './long-chat.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Every item, page by page from where the window opened, as a window scrolling both ways collects them. */
async function walk(harness: Harness, id: string, limit: number, around?: string): Promise<TranscriptItem[]> {
  const handlers = harness.core.handlers;
  const first = await handlers['conversations.get']({ id, limit, ...(around ? { around } : {}) }, call);
  const items = [...first.items];
  for (let older = first.older; older;) {
    const page = await handlers['conversations.page']({ id, before: older, limit }, call);
    expect(page.runs).toBeUndefined();
    items.unshift(...page.items);
    older = page.older;
  }
  for (let newer = first.newer; newer;) {
    const page = await handlers['conversations.page']({ id, from: newer, limit }, call);
    items.push(...page.items);
    newer = page.newer;
    // The page that reaches the end says where a live run's events continue, as an open does.
    if (newer === null) expect(page.runs).toEqual([]);
  }
  return items;
}

const all = async (harness: Harness, id: string): Promise<TranscriptItem[]> =>
  (await harness.core.handlers['conversations.get']({ id }, call)).items;

describe('conversation pages', () => {
  it('from the end and around a message, live and after a kill mid-write, are the whole transcript', async () => {
    h = await startHarness();
    const id = await longChat(h, 12, 3, { pin: false });
    const full = await all(h, id);
    expect(full.filter((i) => i.kind === 'user')).toHaveLength(13);

    const opened = await h.core.handlers['conversations.get']({ id, limit: 4 }, call);
    // The last turns only: the newest question and its answer, not the start.
    expect(opened.items.map((i) => (i as { text?: string }).text)).toContain('Reply 11.');
    expect(opened.items.some((i) => (i as { text?: string }).text === 'Start')).toBe(false);
    expect(opened.newer).toBeNull();
    expect(opened.runs).toEqual([]);

    for (const limit of [1, 3, 50]) expect(await walk(h, id, limit)).toEqual(full);
    // Opened at a message (a search result): the page around it has it, the rest comes on scrolling.
    const hit = (await h.core.handlers['conversations.search']({ query: 'Ask 4' }, call)).results[0]!;
    const around = await h.core.handlers['conversations.get']({ id, limit: 3, around: hit.messageId! }, call);
    expect(around.items.map((i) => i.id)).toContain(hit.messageId);
    expect(around.older).not.toBeNull();
    expect(around.newer).not.toBeNull();
    expect(await walk(h, id, 3, hit.messageId)).toEqual(full);
    // A tool call's item id opens at it too (a memory file's provenance names the call).
    const tool = full.find((i) => i.kind === 'tool')!;
    expect(
      (await h.core.handlers['conversations.get']({ id, limit: 2, around: tool.id }, call)).items,
    ).toContainEqual(tool);

    // Killed in the middle of writing a record: the torn line is not part of the conversation.
    await appendFile(
      path.join(h.dataDir, 'conversations', `${id}.jsonl`),
      '{"t":"msg","id":"torn","kind":"us',
    );
    await h.restart();
    expect(await all(h, id)).toEqual(full);
    for (const limit of [1, 5]) expect(await walk(h, id, limit)).toEqual(full);
    expect(await walk(h, id, 2, hit.messageId)).toEqual(full);
  });

  it('the first open after a restart reads the page index and the file’s tail, not the whole file', async () => {
    h = await startHarness();
    const id = await longChat(h, 30, 4);
    const full = await all(h, id);
    await h.restart();
    const store = () => getAgent(h!.core.ctx).store;
    await h.core.handlers['conversations.list']({}, call);
    // Every page, walked back from the end, through the index: the same items, and no file replayed.
    expect(await walk(h, id, 4)).toEqual(full);
    expect(store().indexedPages).toBeGreaterThan(1);
    expect(store().stats).toMatchObject({ replayed: 0, opened: 0 });

    // The file's first nine tenths overwritten with garbage of the same size, its stat kept: a replay
    // reads nothing of it now, while the last page, all of it in the tail, still opens.
    await h.restart();
    garbleHead(h, id, 0.9);
    const opened = await h.core.handlers['conversations.get']({ id, limit: 4 }, call);
    expect(opened.items).toEqual(full.slice(-opened.items.length));
    expect(opened.items.map((i) => (i as { text?: string }).text)).toContain('Reply 29.');
  });

  it('a call answered turns later (a crash, then questions Mnemo could not answer) leaves no gap above a window', async () => {
    h = await startHarness();
    h.fake.enqueue(text('Hello there.'));
    const { res } = await send(h, 'Start');
    const id = res.conversationId;
    const store = getAgent(h.core.ctx).store;
    const at = new Date().toISOString();
    const user = (n: number): ConversationRecord => ({
      t: 'msg',
      id: `u${n}`,
      kind: 'user',
      role: 'user',
      text: `Still there ${n}?`,
      content: [{ type: 'text', text: `Still there ${n}?` }],
      at,
    });
    // Killed while a call ran (its result never recorded); then questions stored whose runs never got
    // to record it (no API key yet, say): each its own turn, so a window's last page starts after the call.
    await store.append(id, [
      user(0),
      {
        t: 'msg',
        id: 'a0',
        kind: 'assistant',
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: 'toolu_crashed',
            name: 'memory',
            input: { command: 'view', path: '/memories' },
          },
        ],
        at,
      },
      ...[1, 2, 3, 4, 5, 6].map(user),
    ]);
    const opened = await h.core.handlers['conversations.get']({ id, limit: 3 }, call);
    expect(opened.items.map((i) => i.id)).toEqual(['u4', 'u5', 'u6']);
    // The next run records the call's result first (recover.ts), after the questions: one turn now.
    h.fake.enqueue(text('Back.'));
    await send(h, 'Again', id);
    const full = await all(h, id);
    expect(full.find((i) => i.id === 'tool:toolu_crashed')).toMatchObject({ isError: true });
    // Scrolling up from the window, page by page, as the chat slice puts them together.
    const paged = (p: {
      items: TranscriptItem[];
      older?: string | null;
      newer?: string | null;
    }): Paged<TranscriptItem> => ({
      items: p.items,
      older: p.older ?? null,
      newer: p.newer ?? null,
    });
    let window = paged(opened);
    while (window.older !== null) {
      const cursor = window.older;
      const page = await h.core.handlers['conversations.page']({ id, before: cursor, limit: 3 }, call);
      window = mergePage(window, 'older', cursor, paged(page));
    }
    expect(window.items).toEqual(full);
  });

  it('refuses a page with no cursor or an unknown one, with a message to act on; opens at the end instead of a message that is gone', async () => {
    h = await startHarness();
    h.fake.enqueue(text('Hi.'));
    const { res } = await send(h, 'Start');
    const page = h.core.handlers['conversations.page'];
    await expect(page({ id: res.conversationId, limit: 5 }, call)).rejects.toThrow(
      /exactly one of before and from/,
    );
    await expect(page({ id: res.conversationId, before: 'gone', limit: 5 }, call)).rejects.toThrow(
      /no longer in this conversation/,
    );
    // Opened at a message that is gone (edited away since the link was made): it opens at its end.
    const opened = await h.core.handlers['conversations.get'](
      { id: res.conversationId, limit: 5, around: 'gone' },
      call,
    );
    expect(opened.items.map((i) => i.kind)).toEqual(['user', 'assistant']);
    expect(opened.newer).toBeNull();
  });
});
