// A window that (re)opens a conversation while a run streams into it: the real backend and fake API over
// the in-memory pair; the window does what the chat store does (chat.ts open): takes the opened items and
// the run's seq, then applies the run's events after that seq, each once (the projection throws on a repeat).
// It opens at the worst moments, between a stored record and its event: a reply's record holds its second
// tool call before that call is announced, a review card is stored while the first call's result is not,
// and a reply is half streamed. Every item comes out exactly once, and the window ends with exactly the
// items a reload after the run shows.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../shared/channels/chat.js';
import type { Api } from '../../../shared/contract.js';
import { RpcServer } from '../../../electron/core/rpc/server.js';
import { createMemoryPair } from '../../../electron/core/transports/memory-pair.js';
import type { ViewItem } from '../../../shared/projection/items.js';
import { applyEvents } from '../../../shared/projection/project.js';
import { gate, reply, text, toolUseId } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, startHarness } from '../agent/harness.js';

let h: Harness | undefined;
/** What a test opened (its backend, its window), closed last first. */
const toClose: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of toClose.splice(0).reverse()) await close();
  h = undefined;
});

let live: RunEvent[] = [];

async function window(harness: Harness): Promise<Api> {
  const server = new RpcServer({
    handlers: harness.core.handlers,
    bus: harness.core.bus,
    spaces: harness.core.spaces,
    log: harness.core.log,
  });
  const client = createMemoryPair(server);
  toClose.push(() => client.close());
  const api = client as unknown as Api;
  live = [];
  api.on('chat.event', (e) => live.push(e));
  await api['app.ready']({});
  return api;
}

/** Opens a conversation as a reloaded window: its items, and the seq of the run streaming into it. */
async function open(api: Api, conversationId: string, runId: string) {
  const res = await api['conversations.get']({ id: conversationId, limit: 50 });
  const run = res.runs?.find((r) => r.runId === runId);
  expect(run).toBeDefined();
  return { items: res.items as ViewItem[], seq: run!.seq };
}

const wire = (items: unknown): unknown => JSON.parse(JSON.stringify(items));
const ids = (items: readonly { id: string }[]): string[] => items.map((i) => i.id);

/** The opened window's items once the run has finished: the events after its seq applied, once each. */
async function settled(harness: Harness, opened: { items: ViewItem[]; seq: number }, runId: string) {
  await harness.finished(runId);
  await expect.poll(() => live.some((e) => e.runId === runId && e.type === 'run.finished')).toBe(true);
  return applyEvents(
    opened.items,
    live.filter((e) => e.runId === runId && e.seq > opened.seq),
  );
}

describe('a window opened mid-run', () => {
  it('between a stored card or call and its event: each item once, and what a reload shows', async () => {
    h = await startHarness({ settings: { memoryWriteMode: 'ask' } });
    toClose.push(h.close.bind(h));
    await h.core.ctx.memory.create('/memories/tea.md', '- Likes green tea.\n', { kind: 'user' });
    const api = await window(h);
    const view = toolUseId();
    const create = toolUseId();
    // One reply, two calls: the view's result is not stored (it waits for the create) when the create's
    // review card is.
    h.fake.enqueue(
      reply([
        { type: 'tool_use', id: view, name: 'memory', input: { command: 'view', path: '/memories/tea.md' } },
        {
          type: 'tool_use',
          id: create,
          name: 'memory',
          input: { command: 'create', path: '/memories/cat.md', file_text: '- Miso\n' },
        },
      ]),
      text('Saved.'),
    );
    const sent = await api['chat.send']({ text: 'Note my cat Miso.', memory: true });
    const request = (await h.waitFor(
      (e) => e.runId === sent.runId && e.type === 'review.request',
    )) as Extract<RunEvent, { type: 'review.request' }>;

    // The reload: the window opens the conversation while the review waits.
    const window0 = await open(api, sent.conversationId, sent.runId);
    const opened = window0.items;
    expect(opened.filter((i) => i.kind === 'review')).toHaveLength(1);
    expect(opened.filter((i) => i.kind === 'tool').map((i) => i.kind === 'tool' && i.toolUseId)).toEqual([
      view,
      create,
    ]);

    await api['chat.review']({ reviewId: request.reviewId, decision: 'approve' });
    const shown = await settled(h, window0, sent.runId);
    expect(new Set(ids(shown)).size).toBe(shown.length);
    const reloaded = (await api['conversations.get']({ id: sent.conversationId })).items;
    expect(wire(shown)).toStrictEqual(wire(reloaded));
  });

  it('half way through a streaming reply: the text once, then the rest of it', async () => {
    h = await startHarness();
    toClose.push(h.close.bind(h));
    const api = await window(h);
    const held = gate({ afterEvents: 6, reply: text('one two three four five six seven eight nine ten') });
    h.fake.enqueue(held);
    const sent = await api['chat.send']({ text: 'Count to ten.', memory: false });
    await held.reached;
    await h.waitFor((e) => e.runId === sent.runId && e.type === 'text.delta');

    const window0 = await open(api, sent.conversationId, sent.runId);
    const streaming = window0.items.filter((i) => i.kind === 'assistant');
    expect(streaming).toHaveLength(1);
    expect(streaming[0]).toMatchObject({ streaming: true });

    held.release();
    const shown = await settled(h, window0, sent.runId);
    expect(shown.filter((i) => i.kind === 'assistant')).toMatchObject([
      { text: 'one two three four five six seven eight nine ten', streaming: false },
    ]);
    const reloaded = (await api['conversations.get']({ id: sent.conversationId })).items;
    expect(wire(shown)).toStrictEqual(wire(reloaded));
  });
});
