// Faults: abort mid-stream and mid-tool, a stalled stream, API errors after the SDK's retries, an error
// event and a lost connection mid-stream. After each, the history is intact and the next request valid.
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectionReset,
  gate,
  httpError,
  midStreamError,
  overloaded,
  rateLimited,
  serverError,
  slow,
  startFakeAnthropic,
  text,
  toolUse,
} from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, startHarness, validRequests, of } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function transcript(harness: Harness, id: string) {
  return (await harness.core.handlers['conversations.get']({ id }, call)).items;
}

describe('aborts', () => {
  it('keeps the partial text of an aborted stream, marked interrupted, and the next request is valid', async () => {
    h = await startHarness();
    const g = gate({ afterEvents: 6, reply: text('one two three four five six seven') });
    h.fake.enqueue(g);
    const res = await h.core.handlers['chat.send']({ text: 'count', memory: true }, call);
    await g.reached;
    await h.waitFor((e) => e.runId === res.runId && e.type === 'text.delta');
    expect((await h.core.handlers['chat.abort']({ runId: res.runId }, call)).aborted).toBe(true);
    const events = await h.finished(res.runId);
    g.release();
    expect(of(events, 'run.finished')[0]!.status).toBe('aborted');
    expect(of(events, 'message.done').at(-1)!.interrupted).toBe(true);
    const items = await transcript(h, res.conversationId);
    const partial = items.find((i) => i.kind === 'assistant');
    expect(partial).toMatchObject({ interrupted: true });
    expect((partial as { text: string }).text.startsWith('one')).toBe(true);

    h.fake.enqueue(text('Continuing.'));
    const next = await h.core.handlers['chat.send'](
      { text: 'go on', memory: true, conversationId: res.conversationId },
      call,
    );
    expect(of(await h.finished(next.runId), 'run.finished')[0]!.status).toBe('done');
    expect(validRequests(h.fake)).toBe(2);
  });

  it('answers a tool_use "cancelled by the user" when aborted while the tool waits', async () => {
    h = await startHarness({ settings: { memoryWriteMode: 'ask' } });
    h.fake.enqueue(
      toolUse({ name: 'memory', input: { command: 'create', path: '/memories/a.md', file_text: 'A\n' } }),
    );
    const res = await h.core.handlers['chat.send']({ text: 'save A', memory: true }, call);
    await h.waitFor((e) => e.runId === res.runId && e.type === 'review.request');
    await h.core.handlers['chat.abort']({ runId: res.runId }, call);
    const events = await h.finished(res.runId);
    expect(of(events, 'run.finished')[0]!.status).toBe('aborted');
    expect(of(events, 'tool.result')[0]).toMatchObject({ isError: true });
    expect(of(events, 'tool.result')[0]!.result).toMatch(/cancelled by the user/);

    h.fake.enqueue(text('OK.'));
    const next = await h.core.handlers['chat.send'](
      { text: 'never mind', memory: true, conversationId: res.conversationId },
      call,
    );
    await h.finished(next.runId);
    const body = h.fake.messageRequests()[1]!.body;
    const results = body.messages.at(-1).content.filter((b: { type: string }) => b.type === 'tool_result');
    expect(results[0]).toMatchObject({ is_error: true });
    expect(validRequests(h.fake)).toBe(2);
  });
});

describe('a stalled stream', () => {
  it('is aborted as stalled and retryable; Retry resends without duplicating the user turn', async () => {
    h = await startHarness({ settings: { stallTimeoutMs: 1_000 } });
    h.fake.enqueue(slow({ delayMs: 3_000 }, text('too late')));
    const res = await h.core.handlers['chat.send']({ text: 'are you there?', memory: true }, call);
    const events = await h.finished(res.runId);
    expect(of(events, 'run.error')[0]).toMatchObject({ kind: 'stalled', retryable: true });
    expect(of(events, 'run.finished')[0]!.status).toBe('error');

    h.fake.enqueue(text('Yes, here.'));
    const retry = await h.core.handlers['chat.retry']({ conversationId: res.conversationId }, call);
    expect(of(await h.finished(retry.runId), 'run.finished')[0]!.status).toBe('done');
    const items = await transcript(h, res.conversationId);
    expect(items.filter((i) => i.kind === 'user')).toHaveLength(1);
    const sent = h.fake.messageRequests().at(-1)!.body.messages;
    expect(JSON.stringify(sent).match(/are you there\?/g)).toHaveLength(1);
    expect(validRequests(h.fake)).toBeGreaterThanOrEqual(2);
  });
});

describe('a stream that stops midway', () => {
  it('is aborted as stalled once nothing came for stallTimeoutMs, keeping the partial text', async () => {
    h = await startHarness({ settings: { stallTimeoutMs: 1_000 } });
    const g = gate({ afterEvents: 6, reply: text('one two three four five six seven') });
    h.fake.enqueue(g);
    const res = await h.core.handlers['chat.send']({ text: 'count', memory: true }, call);
    await g.reached;
    const events = await h.finished(res.runId);
    g.release();
    expect(of(events, 'run.error')[0]).toMatchObject({ kind: 'stalled', retryable: true });
    const items = await transcript(h, res.conversationId);
    const partial = items.find((i) => i.kind === 'assistant');
    expect(partial).toMatchObject({ interrupted: true });
    expect((partial as { text: string }).text.startsWith('one')).toBe(true);
  });

  it('is not taken for a stall while events keep coming, however long the answer takes', async () => {
    h = await startHarness({ settings: { stallTimeoutMs: 1_000 } });
    // Each event waits 0.35 s: the whole answer takes more than twice the stall timeout.
    h.fake.enqueue(slow({ delayMs: 350 }, text('one two three')));
    const started = performance.now();
    const res = await h.core.handlers['chat.send']({ text: 'count slowly', memory: true }, call);
    const events = await h.finished(res.runId);
    expect(of(events, 'run.error')).toEqual([]);
    expect(of(events, 'run.finished')[0]!.status).toBe('done');
    expect(performance.now() - started).toBeGreaterThan(2_000);
  });
});

describe('API errors', () => {
  const cases = [
    {
      name: '429 rate limit',
      fault: () => rateLimited({ retryAfterMs: 20 }),
      kind: 'rate_limit',
      retryAfter: true,
    },
    {
      name: '529 overloaded',
      fault: () => overloaded({ retryAfterMs: 20 }),
      kind: 'overloaded',
      retryAfter: true,
    },
    { name: '500 server error', fault: () => serverError(), kind: 'server', retryAfter: false },
  ] as const;
  for (const c of cases) {
    it(`${c.name} after the SDK's retries: run.error with kind and retry hint, history intact`, async () => {
      h = await startHarness();
      h.fake.enqueue(c.fault(), c.fault(), c.fault());
      const res = await h.core.handlers['chat.send']({ text: 'hello?', memory: true }, call);
      const events = await h.finished(res.runId);
      const error = of(events, 'run.error')[0]!;
      expect(error).toMatchObject({ kind: c.kind, retryable: true });
      if (c.retryAfter) expect(error.retryAfterMs).toBe(20);
      expect(h.fake.messageRequests()).toHaveLength(3);
      const items = await transcript(h, res.conversationId);
      expect(items.filter((i) => i.kind === 'user').map((i) => (i as { text: string }).text)).toEqual([
        'hello?',
      ]);
      expect(items.some((i) => i.kind === 'error')).toBe(true);

      h.fake.enqueue(text('Back.'));
      const retry = await h.core.handlers['chat.retry']({ conversationId: res.conversationId }, call);
      expect(of(await h.finished(retry.runId), 'run.finished')[0]!.status).toBe('done');
      const last = h.fake.messageRequests().at(-1)!.body.messages;
      expect(JSON.stringify(last).match(/hello\?/g)).toHaveLength(1);
    });
  }

  it('401: tells the user to check the API key, not retryable', async () => {
    const fake = await startFakeAnthropic({ apiKeys: ['the-right-key'] });
    h = await startHarness({ fake, apiKey: 'a-wrong-key' });
    const res = await h.core.handlers['chat.send']({ text: 'hi', memory: true }, call);
    const error = of(await h.finished(res.runId), 'run.error')[0]!;
    expect(error).toMatchObject({ kind: 'auth', retryable: false });
    expect(error.message).toMatch(/check your API key/i);
    await fake.close();
  });

  it('403: also an auth error', async () => {
    h = await startHarness();
    h.fake.enqueue(httpError(403));
    const res = await h.core.handlers['chat.send']({ text: 'hi', memory: true }, call);
    expect(of(await h.finished(res.runId), 'run.error')[0]).toMatchObject({ kind: 'auth' });
  });

  it('an error event mid-stream keeps the partial answer, marked interrupted', async () => {
    h = await startHarness();
    h.fake.enqueue(midStreamError({ afterEvents: 6, reply: text('alpha beta gamma delta epsilon') }));
    const res = await h.core.handlers['chat.send']({ text: 'greek', memory: true }, call);
    const events = await h.finished(res.runId);
    expect(of(events, 'run.error')[0]).toMatchObject({ kind: 'overloaded', retryable: true });
    const partial = (await transcript(h, res.conversationId)).find((i) => i.kind === 'assistant');
    expect(partial).toMatchObject({ interrupted: true });
    expect((partial as { text: string }).text).toMatch(/^alpha/);
  });

  it('a connection lost mid-stream keeps the partial answer, marked interrupted', async () => {
    h = await startHarness();
    h.fake.enqueue(connectionReset(6, text('red green blue yellow purple')));
    const res = await h.core.handlers['chat.send']({ text: 'colors', memory: true }, call);
    const events = await h.finished(res.runId);
    expect(of(events, 'run.error')[0], JSON.stringify(events)).toMatchObject({
      kind: 'connection',
      retryable: true,
    });
    const partial = (await transcript(h, res.conversationId)).find((i) => i.kind === 'assistant');
    expect(partial).toMatchObject({ interrupted: true });
    expect((partial as { text: string }).text).toMatch(/^red/);

    h.fake.enqueue(text('All colors.'));
    const retry = await h.core.handlers['chat.retry']({ conversationId: res.conversationId }, call);
    expect(of(await h.finished(retry.runId), 'run.finished')[0]!.status).toBe('done');
    const items = await transcript(h, res.conversationId);
    expect(items.filter((i) => i.kind === 'assistant').map((i) => (i as { text: string }).text)).toEqual([
      'All colors.',
    ]);
    expect(validRequests(h.fake)).toBeGreaterThanOrEqual(2);
  });
});
