// Fault injection seen through the real SDK: HTTP errors map to the SDK's error classes, retries honour
// retry-after-ms, a mid-stream error event and a connection reset surface as the SDK reports them.
import Anthropic, {
  APIConnectionError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  InternalServerError,
  PermissionDeniedError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import { OverloadedError } from '@anthropic-ai/sdk/core/error';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
  type FakeAnthropic,
} from '../../fixtures/fake-anthropic/index.js';

let fake: FakeAnthropic;
const params = {
  model: 'claude-sonnet-5-5',
  max_tokens: 256,
  messages: [{ role: 'user' as const, content: 'hi' }],
};
const clientFor = (maxRetries: number, apiKey = 'test'): Anthropic =>
  new Anthropic({ apiKey, baseURL: fake.url, maxRetries });

beforeAll(async () => {
  fake = await startFakeAnthropic({ apiKeys: ['test', 'forbidden'], forbiddenKeys: ['forbidden'] });
});
beforeEach(() => fake.reset());
afterAll(async () => fake.close());

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the request to fail');
}

describe('HTTP errors through the SDK', () => {
  it.each([
    ['429', rateLimited, RateLimitError, 429, 'rate_limit_error'],
    ['529', overloaded, OverloadedError, 529, 'overloaded_error'],
    ['500', serverError, InternalServerError, 500, 'api_error'],
  ] as const)(
    '%s maps to its error class with the error type and request id',
    async (_name, make, cls, status, type) => {
      fake.enqueue(make());
      const error = await failure(clientFor(0).messages.create(params));
      expect(error).toBeInstanceOf(cls);
      expect((error as APIError).status).toBe(status);
      expect((error as APIError).type).toBe(type);
      expect((error as APIError).requestID).toMatch(/^req_/);
    },
  );

  it('retries 429 and 529 after retry-after-ms, then succeeds', async () => {
    fake.enqueue(rateLimited({ retryAfterMs: 5 }), overloaded({ retryAfterMs: 5 }), text('finally'));
    const message = await clientFor(2).messages.create(params);
    expect(message.content).toEqual([{ type: 'text', text: 'finally' }]);
    expect(fake.messageRequests()).toHaveLength(3);
    expect(fake.requests.map((r) => r.status)).toEqual([429, 529, 200]);
  });

  it('waits at least retry-after-ms (longer than the default backoff) before retrying', async () => {
    fake.enqueue(overloaded({ retryAfterMs: 1000 }), text('after the pause'));
    const message = await clientFor(1).messages.create(params);
    expect(message.content).toEqual([{ type: 'text', text: 'after the pause' }]);
    const [first, second] = fake.messageRequests();
    // The SDK's own first backoff is at most 500 ms, so a gap this long proves the header was honoured.
    expect(second!.time - first!.time).toBeGreaterThanOrEqual(950);
  });

  it('gives up after maxRetries with the last error', async () => {
    fake.enqueue(overloaded(), overloaded(), overloaded(), text('never'));
    const error = await failure(clientFor(1).messages.create(params));
    expect(error).toBeInstanceOf(OverloadedError);
    expect(fake.messageRequests()).toHaveLength(2);
    expect(fake.pending()).toBe(2);
  });

  it('sends retry-after and retry-after-ms headers and the error body shape', async () => {
    fake.enqueue(httpError(529, { retryAfterMs: 1500, details: { error_code: 'compaction_unavailable' } }));
    const response = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: 'Bearer test', 'content-type': 'application/json' },
      body: JSON.stringify(params),
    });
    expect(response.status).toBe(529);
    expect(response.headers.get('retry-after-ms')).toBe('1500');
    expect(response.headers.get('retry-after')).toBe('2');
    const body = (await response.json()) as { request_id: string };
    expect(body).toMatchObject({
      type: 'error',
      error: {
        type: 'overloaded_error',
        message: 'Overloaded',
        details: { error_code: 'compaction_unavailable' },
      },
    });
    expect(response.headers.get('request-id')).toBe(body.request_id);
  });

  it('refuses a missing key (401), a wrong key (401) and a forbidden key (403)', async () => {
    const missing = await fetch(`${fake.url}/v1/messages`, { method: 'POST', body: JSON.stringify(params) });
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { error: { type: string } }).error.type).toBe('authentication_error');
    expect(await failure(clientFor(0, 'wrong').messages.create(params))).toBeInstanceOf(AuthenticationError);
    expect(await failure(clientFor(0, 'forbidden').messages.create(params))).toBeInstanceOf(
      PermissionDeniedError,
    );
  });

  it('accepts x-api-key as well as Authorization: Bearer', async () => {
    const response = await fetch(`${fake.url}/v1/models/claude-sonnet-5-5`, {
      headers: { 'x-api-key': 'test' },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { max_input_tokens: number }).max_input_tokens).toBe(200_000);
  });
});

describe('stream faults through the SDK', () => {
  it('a mid-stream error event throws an APIError without status and is not retried', async () => {
    fake.enqueue(
      midStreamError({ afterEvents: 4, reply: text('partial answer that breaks') }),
      text('retry?'),
    );
    const stream = clientFor(2).beta.messages.stream(params);
    const error = await failure(stream.finalMessage());
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBeUndefined();
    expect((error as APIError).type).toBe('overloaded_error');
    expect(stream.currentMessage?.content).toEqual([{ type: 'text', text: 'partial ' }]);
    expect(fake.messageRequests()).toHaveLength(1);
  });

  it('a connection reset mid-stream rejects the stream and keeps the partial snapshot', async () => {
    // The gate holds the stream at the reset point until the client has shown the partial text.
    const g = gate({ afterEvents: 5, reply: connectionReset(5, text('one two three four')) });
    fake.enqueue(g);
    const stream = clientFor(0).beta.messages.stream(params);
    const outcome = failure(stream.finalMessage());
    await g.reached;
    await new Promise<void>((ok) => stream.on('text', (_d, snapshot) => snapshot === 'one two ' && ok()));
    g.release();
    const error = await outcome;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/terminated/);
    expect(stream.currentMessage?.content).toEqual([{ type: 'text', text: 'one two ' }]);
  });

  it('a reset before any byte is an APIConnectionError, retried by the SDK', async () => {
    fake.enqueue(connectionReset(0), connectionReset(0));
    expect(await failure(clientFor(1).messages.create(params))).toBeInstanceOf(APIConnectionError);
    expect(fake.messageRequests()).toHaveLength(2);
    fake.enqueue(connectionReset(0), text('recovered'));
    expect((await clientFor(1).messages.create(params)).content).toEqual([
      { type: 'text', text: 'recovered' },
    ]);
  });

  it('a slow stream still delivers every delta in order', async () => {
    fake.enqueue(slow({ delayMs: 5 }, text('a slow but complete answer')));
    const deltas: string[] = [];
    const stream = clientFor(0).beta.messages.stream(params);
    stream.on('text', (d) => deltas.push(d));
    expect(await stream.finalText()).toBe('a slow but complete answer');
    expect(deltas).toEqual(['a ', 'slow ', 'but ', 'complete ', 'answer']);
  });

  it('an abort while gated closes the connection, which the fake records', async () => {
    const g = gate({ afterEvents: 4, reply: text('never finished answer') });
    fake.enqueue(g);
    const stream = clientFor(0).beta.messages.stream(params);
    const outcome = failure(stream.finalMessage());
    await g.reached;
    stream.abort();
    await g.clientClosed;
    expect(await outcome).toBeInstanceOf(APIUserAbortError);
    expect(fake.messageRequests()[0]?.clientClosed).toBe(true);
  });
});
