// Recall end to end through the backend, the real SDK and the fake Messages API: a fact said in one
// conversation (never saved to memory) is found by the model with conversation_search in a new
// conversation of the same space and used in its answer; it is not found from another space, from a
// temporary conversation, or once its conversation is deleted (also after a restart); the space's switch
// takes the tools away.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeAnthropic } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, startHarness, validRequests } from './harness.js';
import { QUESTION, scriptModel } from '../../fixtures/recall-model.js';
import { ask } from './recall-support.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const toolNames = (fake: FakeAnthropic) =>
  ((fake.lastMessageRequest().body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);

describe('recall (conversation_search) against the fake API', () => {
  it('finds what was said in another conversation of the space, and only there', async () => {
    h = await startHarness();
    scriptModel(h.fake);
    const { handlers, bus } = h.core;
    const told = await ask(handlers, bus, 'Last night we ate at a restaurant called Chez Gaston. Lovely.');

    const found = await ask(handlers, bus, QUESTION);
    expect(found.answer).toBe('You mentioned Chez Gaston.');
    const result = found.events.find((e) => e.type === 'tool.result');
    expect(result).toMatchObject({ name: 'conversation_search', isError: false });
    // Past conversations reach the model only through the tool: its first request held nothing of them.
    const first = h.fake.messageRequests().at(-2)!;
    expect(JSON.stringify(first.body)).not.toContain('Gaston');
    expect(JSON.stringify(first.body.system)).toContain('conversation_search');
    // Never saved to memory: recall found it in the conversation.
    const memories = await readdir(path.join(h.dataDir, 'memories'), { recursive: true });
    for (const f of memories.filter((f) => f.endsWith('.md')))
      expect(await readFile(path.join(h.dataDir, 'memories', f), 'utf8')).not.toContain('Gaston');
    // The card the window shows is read from the stored call.
    const item = (await handlers['conversations.get']({ id: found.conversationId }, call)).items.find(
      (i) => i.kind === 'tool',
    );
    expect(item).toMatchObject({ name: 'conversation_search' });

    // A temporary conversation has no recall tools (and the model's call is refused as unknown).
    const temporary = await ask(handlers, bus, QUESTION, false);
    expect(toolNames(h.fake)).not.toContain('conversation_search');
    expect(temporary.answer).toBe('I found nothing about a restaurant.');

    // Another space: its own conversations only.
    const { space } = await h.core.spaces.ensure('Work');
    const work = await h.core.spaces.open(space.id);
    const elsewhere = await ask(work.handlers, work.bus, QUESTION);
    expect(toolNames(h.fake)).toContain('conversation_search');
    expect(elsewhere.answer).toBe('I found nothing about a restaurant.');

    // Deleted (the conversation that said it, and the one that was told it again): gone at once, and
    // after a restart, from the index's file too.
    await handlers['conversations.delete']({ id: told.conversationId }, call);
    await handlers['conversations.delete']({ id: found.conversationId }, call);
    expect((await ask(handlers, bus, QUESTION)).answer).toBe('I found nothing about a restaurant.');
    await h.restart();
    expect((await ask(h.core.handlers, h.core.bus, QUESTION)).answer).toBe(
      'I found nothing about a restaurant.',
    );
    const folder = path.join(h.dataDir, 'conversations', '.recall-index');
    const shards = await readdir(folder);
    expect(shards.length).toBeGreaterThan(0);
    for (const shard of shards)
      expect(await readFile(path.join(folder, shard), 'utf8')).not.toMatch(/gaston/i);
    expect(validRequests(h.fake)).toBe(h.fake.messageRequests().length);
  });

  it("a temporary conversation never becomes searchable; the space's switch takes the tools away there only", async () => {
    h = await startHarness();
    scriptModel(h.fake);
    const { handlers, bus } = h.core;
    await ask(handlers, bus, 'We ate at a restaurant called Chez Gaston.', false);
    expect((await ask(handlers, bus, QUESTION)).answer).toBe('I found nothing about a restaurant.');
    await h.restart();
    expect((await ask(h.core.handlers, h.core.bus, QUESTION)).answer).toBe(
      'I found nothing about a restaurant.',
    );

    expect(await h.core.handlers['conversations.recall']({ on: false }, call)).toEqual({ on: false });
    await ask(h.core.handlers, h.core.bus, 'hello');
    expect(toolNames(h.fake)).not.toContain('conversation_search');
    expect(JSON.stringify(h.fake.lastMessageRequest().body.system)).not.toContain('conversation_search');
    // The switch is per space: another space keeps its tools (default on), also after a restart.
    const { space } = await h.core.spaces.ensure('Work');
    const inWork = async (message: string) => {
      const work = await h!.core.spaces.open(space.id);
      await ask(work.handlers, work.bus, message);
      return work;
    };
    const work = await inWork('hello from work');
    expect(toolNames(h.fake)).toEqual(
      expect.arrayContaining(['conversation_search', 'recent_conversations']),
    );
    expect(JSON.stringify(h.fake.lastMessageRequest().body.system)).toContain('conversation_search');
    expect(await work.handlers['conversations.recall']({}, call)).toEqual({ on: true });
    await h.restart();
    expect(await h.core.handlers['conversations.recall']({}, call)).toEqual({ on: false });
    await inWork('hello again from work');
    expect(toolNames(h.fake)).toContain('recent_conversations');
    await h.core.handlers['conversations.recall']({ on: true }, call);
    await ask(h.core.handlers, h.core.bus, 'hello again');
    expect(toolNames(h.fake)).toContain('conversation_search');
  });

  it('"don\'t search this" hides a conversation from recall and the sidebar, and back', async () => {
    h = await startHarness();
    scriptModel(h.fake);
    const { handlers, bus } = h.core;
    const told = await ask(handlers, bus, 'We ate at a restaurant called Chez Gaston.');
    const marked = await handlers['conversations.searchable'](
      { id: told.conversationId, searchable: false },
      call,
    );
    expect(marked.conversation.noSearch).toBe(true);
    expect((await handlers['conversations.search']({ query: 'gaston' }, call)).results).toEqual([]);
    expect((await ask(handlers, bus, QUESTION)).answer).toBe('I found nothing about a restaurant.');
    await h.restart();
    expect(
      (await h.core.handlers['conversations.list']({}, call)).conversations.find(
        (c) => c.id === told.conversationId,
      )?.noSearch,
    ).toBe(true);
    await h.core.handlers['conversations.searchable']({ id: told.conversationId, searchable: true }, call);
    const results = (await h.core.handlers['conversations.search']({ query: 'gaston' }, call)).results;
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) {
      expect(r.id).toBe(told.conversationId);
      expect(r.snippet.slice(...r.ranges![0]!)).toBe('Gaston');
    }
  });
});
