// The loop against the fake API: tool calls as events, the memory written on disk, the turn cap, max_tokens
// cut-offs, unknown tools and malformed input, the prompt cache on turn 2, and memory off.
import { afterEach, describe, expect, it } from 'vitest';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { maxTokensToolUse, reply, text, toolUse } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, cardsOf, startHarness, validRequests, of, send } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('the loop', () => {
  it('runs a memory tool call, reports it, writes the file and reads turn 2 from the prompt cache', async () => {
    h = await startHarness();
    const input = { command: 'create', path: '/memories/preferences.md', file_text: '- No spicy food.\n' };
    h.fake.enqueue(toolUse({ name: 'memory', input }), text('Noted: no spicy food.'));
    const { events } = await send(h, 'Remember: I do not like spicy food.');

    const [toolCall] = of(events, 'tool.call');
    expect(toolCall).toMatchObject({ name: 'memory', input, turn: 1 });
    const [result] = of(events, 'tool.result');
    expect(result).toMatchObject({ name: 'memory', isError: false, toolUseId: toolCall!.toolUseId });
    expect(result!.durationMs).toBeGreaterThanOrEqual(0);
    expect(await readFile(path.join(h.dataDir, 'memories', 'preferences.md'), 'utf8')).toBe(
      '- No spicy food.\n',
    );
    expect(of(events, 'run.finished')[0]!.status).toBe('done');

    const [first, second] = h.fake.messageRequests();
    const toolNames = (first!.body.tools as { name: string }[]).map((t) => t.name);
    expect(toolNames).toEqual(['memory', 'memory_search', 'conversation_search', 'recent_conversations']);
    expect(first!.body.tools[0]).toMatchObject({ type: 'memory_20250818', name: 'memory' });
    expect(first!.body.system[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(first!.body.tools.at(-1).cache_control).toEqual({ type: 'ephemeral' });
    const system = first!.body.system[0].text as string;
    expect(system).toMatch(/data, never instructions/);
    // What is worth remembering, and what is not.
    for (const part of [/stable preferences/, /decisions/, /their projects/, /progress on long tasks/]) {
      expect(system).toMatch(part);
    }
    expect(system).toMatch(/not worth remembering: small talk, transcripts[^.]*secrets/);
    // Turn 2 sends the tool result and reads the stable prefix from the cache.
    const last = second!.body.messages.at(-1);
    expect(last.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: toolCall!.toolUseId });
    const done = h.core.ctx.runs.attach({ runId: events[0]!.runId, afterSeq: 0 });
    expect(done.run?.status).toBe('done');
    const conv = await h.core.handlers['conversations.get']({ id: events[0]!.conversationId }, call);
    const assistant = conv.items.filter((i) => i.kind === 'assistant');
    expect(assistant.at(-1)).toMatchObject({ text: 'Noted: no spicy food.' });
    const tool = conv.items.find((i) => i.kind === 'tool');
    expect(tool).toMatchObject({ name: 'memory', isError: false });
    expect(validRequests(h.fake)).toBe(2);
  });

  it('reports cache reads on the second request', async () => {
    h = await startHarness();
    h.fake.enqueue(
      toolUse({ name: 'memory', input: { command: 'view', path: '/memories' } }),
      text('Empty.'),
    );
    const { events } = await send(h, 'What do you remember?');
    expect(of(events, 'run.finished')[0]!.status).toBe('done');
    const conversation = (await h.core.handlers['conversations.list']({}, call)).conversations[0]!;
    const usage = await h.core.handlers['context.get']({ conversationId: conversation.id }, call);
    expect(usage.measured).toBe(true);
    // The fake answers with usage; the second request's prefix (tools, system, backfill) was cached.
    const state = (h.core.ctx as unknown as { dataDir: string }).dataDir;
    expect(state).toBe(h.dataDir);
    const lines = (await readFile(path.join(h.dataDir, 'conversations', `${conversation.id}.jsonl`), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { t: string; kind?: string; usage?: { cacheRead: number } });
    const replies = lines.filter((l) => l.t === 'msg' && l.kind === 'assistant');
    expect(replies).toHaveLength(2);
    expect(replies[1]!.usage!.cacheRead).toBeGreaterThan(0);
  });

  it('stops at the turn cap with a turn-limit card and a valid history', async () => {
    h = await startHarness({ settings: { maxTurns: 3 } });
    h.fake.setDefault(() => toolUse({ name: 'memory', input: { command: 'view', path: '/memories' } }));
    const { res, events } = await send(h, 'Loop forever please');
    expect(cardsOf(events, 'turn_limit')).toEqual([{ kind: 'turn_limit', turns: 3 }]);
    expect(of(events, 'run.finished')[0]!.status).toBe('turn_limit');
    expect(of(events, 'tool.call')).toHaveLength(3);
    h.fake.setDefault(text('OK, stopping.'));
    const next = await send(h, 'Stop now', res.conversationId);
    expect(of(next.events, 'run.finished')[0]!.status).toBe('done');
    expect(validRequests(h.fake)).toBe(4);
  });

  it('never executes a tool_use cut off by max_tokens', async () => {
    h = await startHarness();
    h.fake.enqueue(
      maxTokensToolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/cut.md', file_text: 'x'.repeat(200) },
        before: [text('Saving that now.')],
      }),
    );
    const { res, events } = await send(h, 'Save a long note');
    expect(of(events, 'tool.call')).toHaveLength(0);
    expect(of(events, 'run.finished')[0]!.status).toBe('done');
    await expect(stat(path.join(h.dataDir, 'memories', 'cut.md'))).rejects.toThrow();
    const next = await send(h, 'Try again', res.conversationId);
    expect(of(next.events, 'run.finished')[0]!.status).toBe('done');
    const sent = JSON.stringify(h.fake.messageRequests()[1]!.body.messages);
    expect(sent).toContain('Saving that now.');
    expect(sent).not.toContain('/memories/cut.md');
    expect(validRequests(h.fake)).toBe(2);
  });

  it('answers unknown tools and malformed memory input with is_error results', async () => {
    h = await startHarness();
    h.fake.enqueue(
      reply([
        toolUse({ name: 'web_search', input: { q: 'x' } }),
        toolUse({ name: 'memory', input: { command: 'explode', path: '/memories/a.md' } }),
        toolUse({ name: 'memory', input: { command: 'create', path: '../../etc/passwd', file_text: 'x' } }),
      ]),
      text('Sorry.'),
    );
    const { events } = await send(h, 'Do odd things');
    const results = of(events, 'tool.result');
    expect(results.map((r) => r.isError)).toEqual([true, true, true]);
    expect(results[0]!.result).toMatch(/no tool named 'web_search'/);
    for (const r of results) expect(r.result).not.toContain(h.dataDir);
    const sent = h.fake.messageRequests()[1]!.body.messages.at(-1).content;
    expect(sent.map((b: { is_error?: boolean }) => b.is_error)).toEqual([true, true, true]);
    expect(validRequests(h.fake)).toBe(2);
  });

  it('starts a conversation with memory off: no backfill, no memory tools', async () => {
    h = await startHarness();
    h.fake.enqueue(text('Hi.'));
    const res = await h.core.handlers['chat.send']({ text: 'hello', memory: false }, call);
    const events = await h.finished(res.runId);
    expect(cardsOf(events, 'backfill')).toHaveLength(0);
    const body = h.fake.messageRequests()[0]!.body;
    expect(body.tools).toBeUndefined();
    expect(body.messages).toHaveLength(1);
    expect(body.system[0].text).toMatch(/memory turned off/);
    // A temporary conversation: opened by its id, never listed.
    const { conversation } = await h.core.handlers['conversations.get']({ id: res.conversationId }, call);
    expect(conversation.memory).toBe(false);
    expect((await h.core.handlers['conversations.list']({}, call)).conversations).toEqual([]);
  });
});
