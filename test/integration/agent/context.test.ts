// Context management against the fake API: native clearing and compaction reported as events, the
// compaction block round-tripped and the memory given again after it; local clearing placeholders and
// local summaries (pinned messages kept); "Compact now" both ways; the context meter.
import { afterEach, describe, expect, it } from 'vitest';
import type { LoggedRequest } from '../../fixtures/fake-anthropic/index.js';
import { BETA_COMPACT_ON_DEMAND, text, toolUse } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, cardsOf, startHarness, validRequests, of, send } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A memory file whose every line matches "apple", so memory_search returns a large result. */
async function seedApples(harness: Harness): Promise<void> {
  const lines = Array.from({ length: 300 }, (_, i) => `apple ${i}: ${'crisp and sweet '.repeat(3)}`);
  await harness.core.ctx.memory.create('/memories/fruit.md', `${lines.join('\n')}\n`, { kind: 'user' });
}

const search = () => toolUse({ name: 'memory_search', input: { query: 'apple', limit: 200 } });
const isSummarizer = (r: LoggedRequest): boolean =>
  typeof r.body.system === 'string' && r.body.system.includes('You summarize');

describe('native', () => {
  it('reports tool-result clearing the API applied (a cleared card)', async () => {
    h = await startHarness({ settings: { clearTrigger: 1_000, clearKeep: 1 } });
    await seedApples(h);
    h.fake.enqueue(search(), search(), search(), text('Lots of apples.'));
    const { events } = await send(h, 'Find apples three times');
    const cleared = cardsOf(events, 'cleared');
    expect(cleared.length).toBeGreaterThan(0);
    expect(cleared[0]).toMatchObject({ strategy: 'native' });
    expect(cleared[0]!.count).toBeGreaterThan(0);
    expect(cleared[0]!.tokens).toBeGreaterThan(0);
    const conversationId = events[0]!.conversationId;
    const usage = await h.core.handlers['context.get']({ conversationId }, call);
    expect(usage.history.some((x) => x.kind === 'cleared' && x.strategy === 'native')).toBe(true);
    // The client keeps sending the full history; the edit goes out every time.
    for (const r of h.fake.messageRequests()) expect(r.betas).toContain('context-management-2025-06-27');
    expect(validRequests(h.fake)).toBe(4);
  });

  it('compaction: the block is round-tripped first, the memory given again, later requests start there', async () => {
    h = await startHarness({ settings: { compactTrigger: 50_000 } });
    await h.core.ctx.memory.create('/memories/preferences.md', '- Likes green tea.\n', { kind: 'user' });
    h.fake.setCompactionSummary('The user pasted a long log and asked about it.');
    h.fake.enqueue(text('Noted.'), text('That log looks fine.'), text('Tea it is.'));
    const pinned = await send(h, 'Pinned fact: my server is called Kestrel.');
    const firstUser = (await h.core.handlers['conversations.get']({ id: pinned.res.conversationId }, call))
      .items[0]!;
    await h.core.handlers['chat.pin'](
      { conversationId: pinned.res.conversationId, messageId: firstUser.id, pinned: true },
      call,
    );
    const big = `Here is my log:\n${'line of a very long log file '.repeat(6_800)}`;
    const { res, events } = await send(h, big, pinned.res.conversationId);
    const [compacted] = cardsOf(events, 'compacted');
    expect(compacted).toMatchObject({
      strategy: 'native',
      summary: 'The user pasted a long log and asked about it.',
    });
    expect(compacted!.tokensBefore).toBeGreaterThan(50_000);
    expect(of(events, 'run.finished')[0]!.status).toBe('done');

    const requests = h.fake.messageRequests();
    const after = requests[2]!.body;
    expect(after.messages[0].role).toBe('assistant');
    expect(after.messages[0].content[0]).toMatchObject({ type: 'compaction', content: compacted!.summary });
    // The memory again, right after the summary, as a view result.
    expect(after.messages[0].content[1]).toMatchObject({ type: 'tool_use', name: 'memory' });
    expect(JSON.stringify(after.messages[1])).toContain('Likes green tea.');
    // Pinned messages come back after the summary, quoted as data.
    expect(JSON.stringify(after.messages[1])).toContain('my server is called Kestrel');
    expect(JSON.stringify(after)).not.toContain('line of a very long log file line of');

    await send(h, 'What should I drink?', res.conversationId);
    const later = h.fake.messageRequests().at(-1)!.body;
    expect(later.messages[0].content[0].type).toBe('compaction');
    expect(later.messages.at(-1).content.at(-1)).toMatchObject({
      type: 'text',
      text: 'What should I drink?',
    });
    expect(validRequests(h.fake)).toBe(4);

    // After a restart the same history goes out.
    await h.restart();
    h.fake.enqueue(text('Still tea.'));
    await send(h, 'And now?', res.conversationId);
    const resumed = h.fake.messageRequests().at(-1)!.body;
    expect(resumed.messages.slice(0, later.messages.length - 1).map(stripCache)).toEqual(
      later.messages.slice(0, -1).map(stripCache),
    );
  });

  it('Compact now sends the on-demand request and puts the signed block first afterwards', async () => {
    h = await startHarness();
    h.fake.enqueue(text('Answer one.'), text('Answer two.'));
    const { res } = await send(h, 'Question one');
    await send(h, 'Question two', res.conversationId);
    h.fake.setCompactionSummary('Two questions were asked and answered.');
    const compact = await h.core.handlers['context.compact']({ conversationId: res.conversationId }, call);
    const events = await h.finished(compact.runId);
    expect(of(events, 'run.finished')[0]!.status).toBe('done');
    expect(cardsOf(events, 'compacted')[0]).toMatchObject({
      strategy: 'native',
      summary: 'Two questions were asked and answered.',
    });
    const onDemand = h.fake.messageRequests().at(-1)!;
    expect(onDemand.body.compaction).toEqual({ type: 'summarize' });
    expect(onDemand.body.context_management).toBeUndefined();
    expect(onDemand.betas).toContain(BETA_COMPACT_ON_DEMAND);

    h.fake.enqueue(text('Answer three.'));
    await send(h, 'Question three', res.conversationId);
    const next = h.fake.messageRequests().at(-1)!;
    expect(next.body.messages[0].content[0].type).toBe('compaction');
    expect(next.betas).toContain(BETA_COMPACT_ON_DEMAND);
    expect(JSON.stringify(next.body.messages)).not.toContain('Answer one.');
    expect(validRequests(h.fake)).toBe(4);
  });
});

describe('local', () => {
  it('clears old tool results to a placeholder that keeps the tool_use_id', async () => {
    h = await startHarness({ settings: { contextStrategy: 'local', clearTrigger: 1_000, clearKeep: 1 } });
    await seedApples(h);
    h.fake.enqueue(search(), search(), search(), text('Done searching.'));
    const { events } = await send(h, 'Search a lot');
    const cleared = cardsOf(events, 'cleared');
    expect(cleared[0]).toMatchObject({ strategy: 'local' });
    const last = h.fake.messageRequests().at(-1)!.body;
    const results = last.messages.flatMap((m: { content: { type: string }[] }) =>
      m.content.filter((b) => b.type === 'tool_result'),
    ) as { tool_use_id: string; content: unknown }[];
    const placeholders = results.filter((r) =>
      JSON.stringify(r.content).includes('was cleared to save context'),
    );
    expect(placeholders.length).toBeGreaterThanOrEqual(2);
    expect(placeholders.every((p) => p.tool_use_id.startsWith('toolu_'))).toBe(true);
    // The latest search result and the backfill are kept in full.
    expect(JSON.stringify(results.at(-1)!.content)).toContain('apple');
    expect(last.context_management).toBeUndefined();
    expect(validRequests(h.fake)).toBe(4);
  });

  it('summarizes older turns past the budget, keeps pinned messages and gives the memory again', async () => {
    h = await startHarness({
      settings: { contextStrategy: 'local', compactTrigger: 1_500, clearTrigger: 1_000_000 },
    });
    await h.core.ctx.memory.create('/memories/preferences.md', '- Answers in French.\n', { kind: 'user' });
    h.fake.rule((r) =>
      isSummarizer(r) ? text('SUMMARY: the user discussed several long topics.') : undefined,
    );
    const { res } = await send(h, `Pin me: my cat is called Miso. ${'filler '.repeat(50)}`);
    const firstUser = (
      await h.core.handlers['conversations.get']({ id: res.conversationId }, call)
    ).items.find((i) => i.kind === 'user')!;
    await h.core.handlers['chat.pin'](
      { conversationId: res.conversationId, messageId: firstUser.id, pinned: true },
      call,
    );
    for (let i = 0; i < 3; i++) await send(h, `Topic ${i}: ${'words '.repeat(400)}`, res.conversationId);
    const { events } = await send(h, 'And the last question?', res.conversationId);
    const all = h.events.filter((e) => e.conversationId === res.conversationId);
    const compacted = cardsOf(all, 'compacted');
    expect(compacted.length).toBeGreaterThan(0);
    expect(compacted[0]).toMatchObject({
      strategy: 'local',
      summary: 'SUMMARY: the user discussed several long topics.',
    });
    expect(of(events, 'run.finished')[0]!.status).toBe('done');
    const last = h.fake
      .messageRequests()
      .filter((r) => !isSummarizer(r))
      .at(-1)!.body;
    expect(last.messages[0].role).toBe('user');
    expect(last.messages[0].content[0].text).toContain('SUMMARY: the user discussed');
    const sent = JSON.stringify(last.messages);
    expect(sent).toContain('my cat is called Miso');
    expect(sent).toContain('Answers in French.');
    expect(last.messages.at(-1).content.at(-1)).toMatchObject({ text: 'And the last question?' });
    expect(validRequests(h.fake)).toBe(h.fake.messageRequests().length);
  });

  it('Compact now uses the same summarizer', async () => {
    h = await startHarness({ settings: { contextStrategy: 'local' } });
    h.fake.rule((r) => (isSummarizer(r) ? text('SUMMARY: one exchange about the weather.') : undefined));
    h.fake.enqueue(text('Sunny.'));
    const { res } = await send(h, 'Weather?');
    const compact = await h.core.handlers['context.compact']({ conversationId: res.conversationId }, call);
    const events = await h.finished(compact.runId);
    expect(cardsOf(events, 'compacted')[0]).toMatchObject({ strategy: 'local', messages: 4 });
    h.fake.enqueue(text('Still sunny.'));
    await send(h, 'And tomorrow?', res.conversationId);
    const next = h.fake.messageRequests().at(-1)!.body;
    expect(next.messages[0].content[0].text).toContain('SUMMARY: one exchange about the weather.');
    expect(JSON.stringify(next.messages)).not.toContain('Sunny.');
    expect(validRequests(h.fake)).toBe(h.fake.messageRequests().length);
  });
});

describe('the context meter', () => {
  it('reports the parts, the measured total and the window from the models endpoint', async () => {
    h = await startHarness();
    await h.core.ctx.memory.create('/memories/preferences.md', '- Short answers.\n', { kind: 'user' });
    h.fake.enqueue(text('Hi.'));
    const { res } = await send(h, 'hello');
    const usage = await h.core.handlers['context.get']({ conversationId: res.conversationId }, call);
    expect(usage.contextWindow).toBe(200_000);
    expect(usage.measured).toBe(true);
    expect(usage.parts.system).toBeGreaterThan(0);
    expect(usage.parts.memory).toBeGreaterThan(0);
    const { system, memory, messages, toolResults } = usage.parts;
    expect(system + memory + messages + toolResults).toBe(usage.total);
    expect(usage.strategy).toBe('native');
    expect(h.fake.requests.some((r) => r.method === 'GET' && r.path.startsWith('/v1/models/'))).toBe(true);
  });
});

function stripCache<T>(message: T): T {
  return JSON.parse(JSON.stringify(message), (key, value) =>
    key === 'cache_control' ? undefined : value,
  ) as T;
}
