// One projection (shared/projection): what a window builds live from a run's events is exactly what it gets
// after a reload from the stored records, card for card and label for label. Each run below is driven
// against the real backend and the fake API; the live side starts from what the window showed before the
// run (the transcript, plus the user's optimistic turn) and applies the run's events as the chat does.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../shared/channels/chat.js';
import type { ViewItem } from '../../../shared/projection/items.js';
import { applyEvents } from '../../../shared/projection/project.js';
import { gate, serverError, text, toolUse } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, startHarness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const wire = (items: readonly ViewItem[]): unknown => JSON.parse(JSON.stringify(items));

async function items(harness: Harness, id: string): Promise<ViewItem[]> {
  return (await harness.core.handlers['conversations.get']({ id }, call)).items;
}

/**
 * Sends `message` (in `conversationId`, or a new conversation), lets `drive` act on the running run, and
 * returns the window's items live and after a reload.
 */
async function turn(
  harness: Harness,
  message: string,
  conversationId?: string,
  drive: (runId: string) => Promise<void> = async () => undefined,
): Promise<{ live: ViewItem[]; reloaded: ViewItem[]; events: RunEvent[]; conversationId: string }> {
  const before = conversationId ? await items(harness, conversationId) : [];
  const window: ViewItem[] = [
    ...before,
    { kind: 'user', id: 'pending:1', text: message, pinned: false, pending: true },
  ];
  const res = await harness.core.handlers['chat.send'](
    { text: message, memory: true, ...(conversationId ? { conversationId } : {}) },
    call,
  );
  await drive(res.runId);
  const events = await harness.finished(res.runId);
  const live = applyEvents(window, events);
  return {
    live,
    reloaded: await items(harness, res.conversationId),
    events,
    conversationId: res.conversationId,
  };
}

function expectSame(result: { live: ViewItem[]; reloaded: ViewItem[] }): void {
  expect(wire(result.live)).toStrictEqual(wire(result.reloaded));
  // Every item keeps its stored time, live and after a reload (tool items: their reply's).
  for (const item of result.reloaded) expect(item).toHaveProperty('at', expect.stringMatching(/^\d{4}-/));
}

const labels = (list: readonly ViewItem[]): string[] =>
  list.flatMap((i) =>
    i.kind === 'event' ? [i.text] : i.kind === 'error' || i.kind === 'review' ? [i.kind] : [],
  );

const search = () => toolUse({ name: 'memory_search', input: { query: 'apple', limit: 200 } });

describe('the same items live and after a reload', () => {
  it('a memory write after the memory was loaded', async () => {
    h = await startHarness();
    await h.core.ctx.memory.create('/memories/tea.md', '- Likes green tea.\n', { kind: 'user' });
    await h.core.ctx.memory.create('/memories/work.md', '- Works on Kestrel.\n', { kind: 'user' });
    h.fake.enqueue(
      toolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/cat.md', file_text: '- Miso\n' },
      }),
      text('Saved.'),
    );
    const result = await turn(h, 'My cat is Miso.');
    expectSame(result);
    expect(labels(result.reloaded)).toEqual([expect.stringMatching(/^Loaded 2 memory files · \d+ tokens$/)]);
    expect(result.reloaded.map((i) => i.kind)).toEqual(['user', 'event', 'tool', 'assistant']);
    expect(result.reloaded[2]).toMatchObject({
      id: expect.stringMatching(/^tool:toolu_/),
      result: expect.any(String),
    });
    // The journal entry it made (the card's diff and Undo) comes with its result, live and stored alike.
    const [entry] = (await h.core.handlers['memory.history']({ path: '/memories/cat.md' }, call)).entries;
    expect(entry).toMatchObject({
      actor: 'agent',
      toolUseId: (result.reloaded[2] as { toolUseId: string }).toolUseId,
    });
    expect(result.reloaded[2]).toHaveProperty('journalId', entry!.id);
    expect(result.events).toContainEqual(
      expect.objectContaining({ type: 'tool.result', journalId: entry!.id }),
    );
  });

  it('a clearing and compactions (local), each with the memory given again', async () => {
    h = await startHarness({
      settings: { contextStrategy: 'local', clearTrigger: 1_000, clearKeep: 1, compactTrigger: 4_000 },
    });
    const lines = Array.from({ length: 300 }, (_, i) => `apple ${i}: ${'crisp and sweet '.repeat(3)}`);
    await h.core.ctx.memory.create('/memories/fruit.md', `${lines.join('\n')}\n`, { kind: 'user' });
    h.fake.rule((r) =>
      typeof r.body.system === 'string' && r.body.system.includes('You summarize')
        ? text('SUMMARY.')
        : undefined,
    );
    h.fake.enqueue(search(), search(), text('Lots of apples.'));
    const first = await turn(h, 'Find apples twice');
    expectSame(first);
    expect(labels(first.reloaded)).toContainEqual(
      expect.stringMatching(/^Cleared 1 old tool result · [\d.]+k? tokens$/),
    );
    let conversationId = first.conversationId;
    for (let i = 0; i < 3; i++) {
      const next = await turn(h, `Topic ${i}: ${'words '.repeat(400)}`, conversationId);
      expectSame(next);
      conversationId = next.conversationId;
    }
    const all = await items(h, conversationId);
    const compacted = all.findIndex((i) => i.kind === 'event' && i.event === 'compacted');
    expect(compacted).toBeGreaterThan(0);
    expect(all[compacted]).toMatchObject({
      text: expect.stringMatching(/^Compacted \d+ earlier messages? · [\d.]+k? → [\d.]+k? tokens$/),
      detail: 'SUMMARY.',
    });
    expect(all[compacted + 1]).toMatchObject({
      event: 'backfill',
      text: expect.stringMatching(/^Loaded \d+ of 1 memory files? · /),
    });
  });

  it('a native compaction: its card, then the memory given again', async () => {
    h = await startHarness({ settings: { compactTrigger: 50_000 } });
    await h.core.ctx.memory.create('/memories/preferences.md', '- Likes green tea.\n', { kind: 'user' });
    h.fake.enqueue(text('Noted.'), text('That log looks fine.'));
    const first = await turn(h, 'Hello.');
    const big = await turn(
      h,
      `Here is my log:\n${'line of a very long log file '.repeat(6_800)}`,
      first.conversationId,
    );
    expectSame(big);
    const cards = big.reloaded.filter((i) => i.kind === 'event').map((i) => (i as { event: string }).event);
    expect(cards).toEqual(['backfill', 'compacted', 'backfill']);
  });

  it('the turn limit', async () => {
    h = await startHarness({ settings: { maxTurns: 2 } });
    const view = () => toolUse({ name: 'memory', input: { command: 'view', path: '/memories' } });
    h.fake.enqueue(view(), view(), view());
    const result = await turn(h, 'Look around');
    expectSame(result);
    expect(labels(result.reloaded)).toEqual(['Stopped after 2 tool turns. Send a message to continue.']);
  });

  it('an API error', async () => {
    h = await startHarness();
    h.fake.enqueue(serverError(), serverError(), serverError());
    const result = await turn(h, 'hello?');
    expectSame(result);
    expect(result.reloaded.at(-1)).toMatchObject({ kind: 'error', errorKind: 'server', retryable: true });
  });

  it('a review, approved and rejected', async () => {
    h = await startHarness({ settings: { memoryWriteMode: 'ask' } });
    const create = (file: string) =>
      toolUse({ name: 'memory', input: { command: 'create', path: `/memories/${file}`, file_text: 'x\n' } });
    const decide = (decision: 'approve' | 'reject') => async (runId: string) => {
      const request = (await h!.waitFor((e) => e.runId === runId && e.type === 'review.request')) as Extract<
        RunEvent,
        { type: 'review.request' }
      >;
      await h!.core.handlers['chat.review']({ reviewId: request.reviewId, decision }, call);
    };
    h.fake.enqueue(create('a.md'), text('Saved.'));
    const approved = await turn(h, 'save a', undefined, decide('approve'));
    expectSame(approved);
    h.fake.enqueue(create('b.md'), text('Not saved.'));
    const rejected = await turn(h, 'save b', approved.conversationId, decide('reject'));
    expectSame(rejected);
    const reviews = rejected.reloaded.filter((i) => i.kind === 'review');
    expect(reviews.map((r) => (r as { outcome: string }).outcome)).toEqual(['approved', 'rejected']);
    // Each review sits right under the tool call it is about.
    for (const r of reviews) {
      const at = rejected.reloaded.indexOf(r);
      expect(rejected.reloaded[at - 1]).toMatchObject({
        kind: 'tool',
        toolUseId: (r as { toolUseId: string }).toolUseId,
      });
    }
  });

  it('a stop mid-answer', async () => {
    h = await startHarness();
    const g = gate({ afterEvents: 6, reply: text('one two three four five six seven') });
    h.fake.enqueue(g);
    const result = await turn(h, 'count', undefined, async (runId) => {
      await g.reached;
      await h!.waitFor((e) => e.runId === runId && e.type === 'text.delta');
      await h!.core.handlers['chat.abort']({ runId }, call);
    });
    g.release();
    expectSame(result);
    expect(result.reloaded.at(-1)).toMatchObject({ kind: 'assistant', interrupted: true, streaming: false });
  });

  it('a reload at any moment of a run: the items then, plus the events after their seq', async () => {
    h = await startHarness({ settings: { memoryWriteMode: 'ask' } });
    const g = gate({ afterEvents: 6, reply: text('one two three four five six seven') });
    h.fake.enqueue(
      toolUse({ name: 'memory', input: { command: 'create', path: '/memories/a.md', file_text: 'x\n' } }),
      g,
    );
    const res = await h.core.handlers['chat.send']({ text: 'save a, then count', memory: true }, call);
    const snapshots: { items: ViewItem[]; seq: number }[] = [];
    const snapshot = async (): Promise<void> => {
      const got = await h!.core.handlers['conversations.get']({ id: res.conversationId }, call);
      expect(got.runs).toEqual([{ runId: res.runId, status: 'running', seq: expect.any(Number) }]);
      snapshots.push({ items: got.items, seq: got.runs![0]!.seq });
    };
    // Waiting for a review: the tool call is stored, its result is not yet.
    const request = (await h.waitFor((e) => e.runId === res.runId && e.type === 'review.request')) as Extract<
      RunEvent,
      { type: 'review.request' }
    >;
    await snapshot();
    await h.core.handlers['chat.review']({ reviewId: request.reviewId, decision: 'approve' }, call);
    // Mid-answer: the text streamed so far is not stored yet.
    await g.reached;
    await h.waitFor((e) => e.runId === res.runId && e.type === 'text.delta');
    await snapshot();
    g.release();
    const events = await h.finished(res.runId);
    const final = await items(h, res.conversationId);
    expect((await h.core.handlers['conversations.get']({ id: res.conversationId }, call)).runs).toEqual([]);
    for (const { items: then, seq } of snapshots) {
      expect(
        wire(
          applyEvents(
            then,
            events.filter((e) => e.seq > seq),
          ),
        ),
      ).toStrictEqual(wire(final));
    }
  });
});
