// The real SDK accepts the fake's streamed and JSON replies: text, tool_use, default echo, models, queue/rules.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  gate,
  maxTokensToolUse,
  reply,
  startFakeAnthropic,
  text,
  toolUse,
  type FakeAnthropic,
} from '../../fixtures/fake-anthropic/index.js';

let fake: FakeAnthropic;
let client: Anthropic;

beforeEach(async () => {
  if (!fake) {
    fake = await startFakeAnthropic();
    client = new Anthropic({ apiKey: 'test', baseURL: fake.url, maxRetries: 0 });
  }
  fake.reset();
});
afterAll(async () => fake?.close());

const base = { model: 'claude-sonnet-5-5', max_tokens: 1024 } as const;

describe('fake Anthropic API with the real SDK', () => {
  it('streams a text reply in several deltas', async () => {
    fake.enqueue(text('Hello there, how are you today?'));
    const deltas: string[] = [];
    const stream = client.beta.messages.stream({ ...base, messages: [{ role: 'user', content: 'hi' }] });
    stream.on('text', (d) => deltas.push(d));
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Hello there, how are you today?' }]);
    expect(final.stop_reason).toBe('end_turn');
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join('')).toBe('Hello there, how are you today?');
    expect(final.usage.input_tokens).toBeGreaterThan(0);
  });

  it('streams a tool_use with partial JSON and answers the tool_result', async () => {
    const input = { command: 'create', path: '/memories/preferences.md', file_text: 'No spicy food.' };
    fake.enqueue(reply([text('Saving.'), toolUse({ name: 'memory', input, id: 'toolu_01' })]));
    const partials: string[] = [];
    const stream = client.beta.messages.stream({
      ...base,
      tools: [{ type: 'memory_20250818', name: 'memory' }],
      messages: [{ role: 'user', content: 'remember' }],
    });
    stream.on('inputJson', (p) => partials.push(p));
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content[1]).toEqual({ type: 'tool_use', id: 'toolu_01', name: 'memory', input });
    expect(partials.length).toBeGreaterThan(1);
    const next = await client.beta.messages.create({
      ...base,
      messages: [
        { role: 'user', content: 'remember' },
        { role: 'assistant', content: final.content as Anthropic.Beta.BetaContentBlockParam[] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'ok' }] },
      ],
    });
    expect(next.content).toEqual([{ type: 'text', text: 'Done.' }]);
  });

  it('echoes by default, as JSON and streamed', async () => {
    const json = await client.messages.create({ ...base, messages: [{ role: 'user', content: 'ping' }] });
    expect(json.content).toEqual([{ type: 'text', text: 'You said: ping' }]);
    expect(json.id).toMatch(/^msg_/);
    const streamed = await client.messages
      .stream({ ...base, messages: [{ role: 'user', content: 'pong' }] })
      .finalText();
    expect(streamed).toBe('You said: pong');
    expect(fake.messageRequests().map((r) => r.body.messages[0].content)).toEqual(['ping', 'pong']);
  });

  it('serves model info with max_input_tokens', async () => {
    const model = await client.models.retrieve('claude-sonnet-5-5');
    expect(model.max_input_tokens).toBe(200_000);
    const list = await client.models.list();
    expect(list.data.map((m) => m.id)).toContain('claude-sonnet-5-5');
  });

  it('rules win over the queue', async () => {
    fake.enqueue(text('from queue'));
    const off = fake.rule((r) =>
      JSON.stringify(r.body.messages).includes('special') ? text('from rule') : undefined,
    );
    const a = await client.messages.create({ ...base, messages: [{ role: 'user', content: 'special' }] });
    off();
    const b = await client.messages.create({ ...base, messages: [{ role: 'user', content: 'special' }] });
    expect([a.content[0], b.content[0]]).toEqual([
      { type: 'text', text: 'from rule' },
      { type: 'text', text: 'from queue' },
    ]);
  });

  it('a gate pauses mid-stream until released', async () => {
    const g = gate({ afterEvents: 4, reply: text('one two three four five') });
    fake.enqueue(g);
    const stream = client.messages.stream({ ...base, messages: [{ role: 'user', content: 'go' }] });
    let seen = '';
    stream.on('text', (_d, snapshot) => (seen = snapshot));
    await g.reached;
    await new Promise<void>((ok) => (seen ? ok() : stream.once('text', () => ok())));
    expect(seen).toBe('one ');
    g.release();
    expect(await stream.finalText()).toBe('one two three four five');
  });
});

describe('max_tokens cut-off in a tool_use', () => {
  it('streams truncated JSON with stop_reason max_tokens; the SDK keeps the complete keys only', async () => {
    const input = { command: 'create', path: '/memories/notes.md', file_text: 'a long text that gets cut' };
    fake.enqueue(maxTokensToolUse({ name: 'memory', input, id: 'toolu_cut', keepChars: 50 }));
    const partials: string[] = [];
    const stream = client.beta.messages.stream({ ...base, messages: [{ role: 'user', content: 'write' }] });
    stream.on('inputJson', (p) => partials.push(p));
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('max_tokens');
    expect(partials.join('')).toBe(JSON.stringify(input).slice(0, 50));
    const block = final.content[0];
    expect(block?.type).toBe('tool_use');
    expect((block as { input: Record<string, unknown> }).input.file_text).not.toBe(input.file_text);

    fake.enqueue(maxTokensToolUse({ name: 'memory', input, id: 'toolu_cut', keepChars: 50 }));
    const json = await client.beta.messages.create({
      ...base,
      messages: [{ role: 'user', content: 'write' }],
    });
    expect(json.stop_reason).toBe('max_tokens');
    expect(json.content[0]).toEqual({
      type: 'tool_use',
      id: 'toolu_cut',
      name: 'memory',
      input: { command: 'create', path: '/memories/notes.md' },
    });
  });
});

describe('models and count_tokens', () => {
  it('serves per-model windows and 404s for non-Claude ids', async () => {
    const custom = await startFakeAnthropic({ models: { 'claude-tiny': { maxInputTokens: 8000 } } });
    const c = new Anthropic({ apiKey: 'k', baseURL: custom.url, maxRetries: 0 });
    expect((await c.models.retrieve('claude-tiny')).max_input_tokens).toBe(8000);
    expect((await c.models.retrieve('claude-unknown-9')).max_input_tokens).toBe(200_000);
    await expect(c.models.retrieve('gpt-4')).rejects.toThrow(/404/);
    await custom.close();
  });

  it('counts tokens deterministically', async () => {
    const counted = await client.beta.messages.countTokens({
      model: 'claude-sonnet-5-5',
      system: 'x'.repeat(40),
      messages: [{ role: 'user', content: 'y'.repeat(400) }],
    });
    expect(counted).toEqual({ input_tokens: 110, context_management: null });
    expect(fake.requests.at(-1)?.betas).toContain('token-counting-2024-11-01');
  });
});
