// Token accounting, prompt caching, context editing and both kinds of compaction, through the real SDK.
import Anthropic, { BadRequestError } from '@anthropic-ai/sdk';
import type {
  BetaContentBlockParam,
  BetaMessageParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  compaction,
  startFakeAnthropic,
  text,
  type FakeAnthropic,
} from '../../fixtures/fake-anthropic/index.js';

let fake: FakeAnthropic;
let client: Anthropic;
const base = { model: 'claude-sonnet-5-5', max_tokens: 512 } as const;
const CM = 'context-management-2025-06-27';

beforeAll(async () => {
  fake = await startFakeAnthropic();
  client = new Anthropic({ apiKey: 'test', baseURL: fake.url, maxRetries: 0 });
});
beforeEach(() => fake.reset());
afterAll(async () => fake.close());

/** A history of tool round trips, each result `resultChars` long (4 characters = 1 token). */
function toolHistory(names: string[], resultChars: number): BetaMessageParam[] {
  const messages: BetaMessageParam[] = [{ role: 'user', content: 'start' }];
  names.forEach((name, i) => {
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id: `toolu_${i}`, name, input: { i } }],
    });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: String(i).repeat(resultChars) }],
    });
  });
  return messages;
}

const tools = [
  { type: 'memory_20250818' as const, name: 'memory' as const },
  { name: 'search', description: 'search', input_schema: { type: 'object' as const, properties: {} } },
];

describe('token accounting and prompt caching', () => {
  it('counts ceil(chars/4) and reports a repeated prefix as cache reads', async () => {
    const system = [
      { type: 'text' as const, text: 'S'.repeat(4000), cache_control: { type: 'ephemeral' as const } },
    ];
    const first = await client.beta.messages.create({
      ...base,
      system,
      messages: [{ role: 'user', content: 'a'.repeat(400) }],
    });
    expect(first.usage.cache_creation_input_tokens).toBe(1000);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(first.usage.input_tokens).toBe(100);
    const second = await client.beta.messages
      .stream({ ...base, system, messages: [{ role: 'user', content: 'b'.repeat(800) }] })
      .finalMessage();
    expect(second.usage.cache_read_input_tokens).toBe(1000);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
    expect(second.usage.input_tokens).toBe(200);
    const changed = [{ ...system[0]!, text: 'T'.repeat(4000) }];
    const third = await client.beta.messages.create({
      ...base,
      system: changed,
      messages: [{ role: 'user', content: 'c' }],
    });
    expect(third.usage.cache_read_input_tokens).toBe(0);
    expect(third.usage.cache_creation_input_tokens).toBe(1000);
  });

  it('count_tokens reports the original count when context management is sent', async () => {
    const messages = toolHistory(['search', 'search', 'search', 'search'], 40_000);
    const counted = await client.beta.messages.countTokens({
      model: base.model,
      messages,
      betas: [CM],
      context_management: {
        edits: [
          {
            type: 'clear_tool_uses_20250919',
            trigger: { type: 'input_tokens', value: 30_000 },
            keep: { type: 'tool_uses', value: 1 },
          },
        ],
      },
    });
    expect(counted.context_management?.original_input_tokens).toBeGreaterThan(40_000);
    expect(counted.input_tokens).toBeLessThan(15_000);
  });
});

describe('context editing (clear_tool_uses_20250919)', () => {
  it('clears the oldest results beyond keep, never excluded tools, and reports applied_edits on the final message', async () => {
    const messages = toolHistory(['memory', 'search', 'search', 'search', 'search'], 40_000);
    const final = await client.beta.messages
      .stream({
        ...base,
        tools,
        messages,
        betas: [CM],
        context_management: {
          edits: [
            {
              type: 'clear_tool_uses_20250919',
              trigger: { type: 'input_tokens', value: 30_000 },
              keep: { type: 'tool_uses', value: 2 },
              exclude_tools: ['memory'],
            },
          ],
        },
      })
      .finalMessage();
    expect(final.context_management?.applied_edits).toEqual([
      { type: 'clear_tool_uses_20250919', cleared_tool_uses: 2, cleared_input_tokens: expect.any(Number) },
    ]);
    const edit = final.context_management!.applied_edits[0] as { cleared_input_tokens: number };
    expect(edit.cleared_input_tokens).toBeGreaterThan(19_000);
    expect(final.usage.input_tokens).toBeLessThan(31_000);
  });

  it('skips the edit when clear_at_least cannot be reached, and below the trigger', async () => {
    const messages = toolHistory(['search', 'search', 'search', 'search'], 40_000);
    const edit = {
      type: 'clear_tool_uses_20250919' as const,
      trigger: { type: 'input_tokens' as const, value: 30_000 },
    };
    const skipped = await client.beta.messages.create({
      ...base,
      messages,
      betas: [CM],
      context_management: { edits: [{ ...edit, clear_at_least: { type: 'input_tokens', value: 50_000 } }] },
    });
    expect(skipped.context_management).toEqual({ applied_edits: [] });
    const below = await client.beta.messages.create({
      ...base,
      messages: toolHistory(['search', 'search', 'search', 'search'], 100),
      betas: [CM],
      context_management: { edits: [edit] },
    });
    expect(below.context_management).toEqual({ applied_edits: [] });
  });
});

const compactEdit = (pause = false) => ({
  betas: ['compact-2026-01-12'],
  context_management: {
    edits: [
      {
        type: 'compact_20260112' as const,
        trigger: { type: 'input_tokens' as const, value: 50_000 },
        pause_after_compaction: pause,
      },
    ],
  },
});

describe('threshold compaction (compact_20260112)', () => {
  it('prepends one compaction block streamed with a single compaction_delta, then the reply; the round trip is small', async () => {
    fake.enqueue(text('Continuing after the summary.'));
    fake.setCompactionSummary('The user is building a memory app.');
    const messages = toolHistory(['search'], 220_000);
    messages.push({ role: 'assistant', content: 'ok' }, { role: 'user', content: 'next' });
    const compactions: string[] = [];
    const deltaTypes: string[] = [];
    const stream = client.beta.messages.stream({ ...base, messages, ...compactEdit() });
    stream.on('compaction', (c) => compactions.push(c));
    stream.on('streamEvent', (e) => e.type === 'content_block_delta' && deltaTypes.push(e.delta.type));
    const final = await stream.finalMessage();
    expect(final.content).toEqual([
      { type: 'compaction', content: 'The user is building a memory app.', encrypted_content: null },
      { type: 'text', text: 'Continuing after the summary.' },
    ]);
    expect(compactions).toEqual(['The user is building a memory app.']);
    expect(deltaTypes.filter((t) => t === 'compaction_delta')).toHaveLength(1);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.iterations?.map((i) => i.type)).toEqual(['compaction', 'message']);
    expect(final.usage.iterations?.[0]?.input_tokens).toBeGreaterThan(50_000);

    // Round trip: everything before the compaction block is ignored, so no new compaction runs.
    const next = await client.beta.messages.create({
      ...base,
      ...compactEdit(),
      messages: [
        ...messages,
        { role: 'assistant', content: final.content as BetaContentBlockParam[] },
        { role: 'user', content: 'and now?' },
      ],
    });
    expect(next.content).toEqual([{ type: 'text', text: 'You said: and now?' }]);
    expect(next.usage.input_tokens).toBeLessThan(100);
    expect(next.usage.iterations ?? null).toBeNull();
  });

  it('with pause_after_compaction answers only the block (stop_reason compaction) and leaves the queue alone', async () => {
    fake.enqueue(text('the real answer'));
    const messages = toolHistory(['search'], 220_000);
    const paused = await client.beta.messages.create({ ...base, messages, ...compactEdit(true) });
    expect(paused.stop_reason).toBe('compaction');
    expect(paused.content).toHaveLength(1);
    expect(paused.content[0]?.type).toBe('compaction');
    expect(fake.pending()).toBe(1);
    // The client resends with the block appended: two assistant-side turns in a row are accepted.
    const resumed = await client.beta.messages.create({
      ...base,
      ...compactEdit(true),
      messages: [...messages, { role: 'assistant', content: paused.content as BetaContentBlockParam[] }],
    });
    expect(resumed.content).toEqual([{ type: 'text', text: 'the real answer' }]);
  });
});

describe('on-demand compaction (compaction: summarize)', () => {
  const onDemand = { betas: ['compact-2026-09-04'], compaction: { type: 'summarize' as const } };

  it('streams only the signed block, whole in content_block_start, with zero top-level usage', async () => {
    fake.enqueue(compaction('Scripted summary.'), text('later turn'));
    const eventTypes: string[] = [];
    const stream = client.beta.messages.stream({
      ...base,
      ...onDemand,
      messages: toolHistory(['search'], 400),
    });
    stream.on('streamEvent', (e) => eventTypes.push(e.type));
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('compaction');
    expect(final.content).toEqual([
      {
        type: 'compaction',
        content: 'Scripted summary.',
        encrypted_content: null,
        signature: expect.stringMatching(/^fake-sig-summarize-/),
      },
    ]);
    expect(eventTypes).not.toContain('content_block_delta');
    expect(final.usage.input_tokens).toBe(0);
    expect(final.usage.output_tokens).toBe(0);
    expect(final.usage.iterations).toEqual([
      expect.objectContaining({ type: 'compaction', input_tokens: expect.any(Number) }),
    ]);

    const block = final.content as BetaContentBlockParam[];
    const next = await client.beta.messages.create({
      ...base,
      betas: ['compact-2026-09-04'],
      messages: [
        { role: 'assistant', content: block },
        { role: 'user', content: 'go on' },
      ],
    });
    expect(next.content).toEqual([{ type: 'text', text: 'later turn' }]);

    const misplaced = await client.beta.messages
      .create({
        ...base,
        messages: [
          { role: 'user', content: 'old' },
          { role: 'assistant', content: block },
          { role: 'user', content: 'go on' },
        ],
      })
      .catch((e: unknown) => e);
    expect(misplaced).toBeInstanceOf(BadRequestError);
    expect((misplaced as BadRequestError).errorCode).toBe('compaction_block_misplaced');
  });

  it('works as JSON with the default summary, and through the tool runner compactBeforeNextTurn', async () => {
    const json = await client.beta.messages.create({
      ...base,
      ...onDemand,
      messages: [{ role: 'user', content: 'remember me' }],
    });
    expect(json.content[0]).toMatchObject({
      type: 'compaction',
      content: expect.stringContaining('remember me'),
    });

    fake.enqueue(text('first answer'), text('after compaction'));
    const runner = client.beta.messages.toolRunner({
      ...base,
      thread: false,
      betas: ['compact-2026-09-04'],
      tools: [],
      messages: [{ role: 'user', content: 'hello' }],
    });
    const seen: string[] = [];
    for await (const message of runner) {
      seen.push(message.stop_reason ?? '');
      if (seen.length === 1) {
        runner.compactBeforeNextTurn();
        runner.pushMessages({ role: 'user', content: 'more' });
      }
    }
    const sent = fake
      .messageRequests()
      .slice(1)
      .map((r) => r.body);
    expect(sent[1].compaction).toEqual({ type: 'summarize' });
    expect(sent[2].messages[0].content[0].type).toBe('compaction');
    expect(seen.at(-1)).toBe('end_turn');
  });
});

describe('message threads', () => {
  it('refuses thread with thread_unsupported_request, and the tool runner falls back to full history', async () => {
    fake.enqueue(text('answer without threads'));
    const final = await client.beta.messages.toolRunner({
      ...base,
      tools: [],
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(final.content).toEqual([{ type: 'text', text: 'answer without threads' }]);
    const [first, second] = fake.messageRequests();
    expect(first?.body.thread).toEqual({ type: 'create' });
    expect(first?.status).toBe(400);
    expect(second?.body.thread).toBeUndefined();
  });
});
