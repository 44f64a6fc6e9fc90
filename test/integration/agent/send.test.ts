// chat.send end to end: the real SDK streams from the fake API over HTTP, events carry the text in pieces,
// the conversation is on disk, and a missing key is refused before anything is stored.
import { afterEach, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ContractError } from '../../../shared/errors.js';
import { text } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, startHarness, textOf } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('chat.send', () => {
  it('streams the answer as deltas and finishes the run', async () => {
    h = await startHarness();
    h.fake.enqueue(text('Hello there, how can I help you today?'));
    const res = await h.core.handlers['chat.send']({ text: 'hello', memory: true }, call);
    const events = await h.finished(res.runId);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('run.started');
    expect(types.filter((t) => t === 'text.delta').length).toBeGreaterThan(1);
    expect(textOf(events)).toBe('Hello there, how can I help you today?');
    expect(types).toContain('message.done');
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', status: 'done' });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));

    const request = h.fake.messageRequests()[0]!;
    expect(request.body.messages[0]).toMatchObject({ role: 'user' });
    expect(request.body.thread).toBeUndefined();
    const got = await h.core.handlers['conversations.get']({ id: res.conversationId }, call);
    expect(
      got.items
        .filter((i) => i.kind === 'user' || i.kind === 'assistant')
        .map((i) => (i as { text: string }).text),
    ).toEqual(['hello', 'Hello there, how can I help you today?']);
    expect(got.conversation.title).toBe('hello');
    expect(await readdir(path.join(h.dataDir, 'conversations'))).toEqual([`${res.conversationId}.jsonl`]);
  });

  it('continues a conversation with the whole history', async () => {
    h = await startHarness();
    h.fake.enqueue(text('First answer.'), text('Second answer.'));
    const first = await h.core.handlers['chat.send']({ text: 'one', memory: true }, call);
    await h.finished(first.runId);
    const second = await h.core.handlers['chat.send'](
      { text: 'two', memory: true, conversationId: first.conversationId },
      call,
    );
    await h.finished(second.runId);
    const messages = h.fake.messageRequests()[1]!.body.messages as { role: string }[];
    // user, the backfilled memory view (assistant tool_use + user tool_result), the answer, the new turn.
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(JSON.stringify(messages)).toContain('First answer.');
  });

  it('refuses without an API key, storing nothing', async () => {
    h = await startHarness({ apiKey: null });
    const error = await h.core.handlers['chat.send']({ text: 'hello', memory: true }, call).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ContractError);
    expect((error as ContractError).code).toBe('no_api_key');
    expect((error as ContractError).message).toMatch(/ANTHROPIC_API_KEY/);
    expect((await h.core.handlers['conversations.list']({}, call)).conversations).toEqual([]);
    expect(h.fake.messageRequests()).toHaveLength(0);
  });
});
