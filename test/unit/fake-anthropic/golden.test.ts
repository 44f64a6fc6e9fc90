// Golden SSE transcripts in the shapes of the streaming docs: the fake's bytes match them (ids aside), and
// the real SDK, fed the golden bytes by a bare HTTP server, parses them into the expected final messages.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  reply,
  startFakeAnthropic,
  text,
  toolUse,
  type FakeAnthropic,
} from '../../fixtures/fake-anthropic/index.js';

const goldenDir = new URL('../../fixtures/fake-anthropic/golden/', import.meta.url);
const golden = (name: string): string => readFileSync(new URL(`${name}.sse`, goldenDir), 'utf8');
const normalizeIds = (sse: string): string => sse.replace(/msg_[A-Za-z0-9]+/g, 'msg_ID');

const SUMMARY = 'The user asked for restaurant ideas and dislikes spicy food.';
const MEMORY_INPUT = { command: 'create', path: '/memories/preferences.md', file_text: 'No spicy food.\n' };

interface Case {
  name: string;
  script: (fake: FakeAnthropic) => void;
  body: Record<string, unknown>;
  betas?: string;
  expected: Record<string, unknown>;
}

const cases: Case[] = [
  {
    name: 'text',
    script: (fake) => fake.enqueue(text('Hello! How can I help?')),
    body: { messages: [{ role: 'user', content: 'Hello' }] },
    expected: { content: [{ type: 'text', text: 'Hello! How can I help?' }], stop_reason: 'end_turn' },
  },
  {
    name: 'tool-use',
    script: (fake) =>
      fake.enqueue(
        reply([
          text('Let me save that.'),
          toolUse({ id: 'toolu_01A09q90qw90lq917835lq9', name: 'memory', input: MEMORY_INPUT }),
        ]),
      ),
    body: {
      tools: [{ type: 'memory_20250818', name: 'memory' }],
      messages: [{ role: 'user', content: 'I do not like spicy food.' }],
    },
    expected: {
      content: [
        { type: 'text', text: 'Let me save that.' },
        { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'memory', input: MEMORY_INPUT },
      ],
      stop_reason: 'tool_use',
    },
  },
  {
    name: 'compaction',
    script: (fake) => {
      fake.setCompactionSummary(SUMMARY);
      fake.enqueue(text('Here are some mild options.'));
    },
    betas: 'compact-2026-01-12',
    body: {
      messages: [{ role: 'user', content: 'x'.repeat(240_000) }],
      context_management: {
        edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 50_000 } }],
      },
    },
    expected: {
      content: [
        { type: 'compaction', content: SUMMARY, encrypted_content: null },
        { type: 'text', text: 'Here are some mild options.' },
      ],
      stop_reason: 'end_turn',
      context_management: { applied_edits: [] },
    },
  },
  {
    name: 'on-demand-compaction',
    script: (fake) => fake.setCompactionSummary(SUMMARY),
    betas: 'compact-2026-09-04',
    body: {
      messages: [
        { role: 'user', content: 'Recommend a restaurant.' },
        { role: 'assistant', content: 'Try the noodle bar.' },
      ],
      compaction: { type: 'summarize' },
    },
    expected: {
      content: [
        {
          type: 'compaction',
          content: SUMMARY,
          encrypted_content: null,
          signature: expect.stringMatching(/^fake-sig-summarize-msg_/),
        },
      ],
      stop_reason: 'compaction',
      usage: expect.objectContaining({
        input_tokens: 0,
        output_tokens: 0,
        iterations: [expect.objectContaining({ type: 'compaction' })],
      }),
    },
  },
];

let fake: FakeAnthropic;
let replay: Server;
let replayUrl: string;
let replayBody = '';

beforeAll(async () => {
  fake = await startFakeAnthropic();
  replay = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_golden' });
      res.end(replayBody);
    });
  });
  await new Promise<void>((ok) => replay.listen(0, '127.0.0.1', ok));
  replayUrl = `http://127.0.0.1:${(replay.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await fake.close();
  await new Promise((ok) => replay.close(ok));
});

async function post(
  url: string,
  body: Record<string, unknown>,
  betas?: string,
  stream = true,
): Promise<Response> {
  return fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: {
      authorization: 'Bearer test',
      'content-type': 'application/json',
      ...(betas ? { 'anthropic-beta': betas } : {}),
    },
    body: JSON.stringify({ model: 'claude-sonnet-5-5', max_tokens: 1024, stream, ...body }),
  });
}

describe.each(cases)('golden transcript $name', ({ name, script, body, betas, expected }) => {
  it('is what the fake streams, byte for byte apart from ids', async () => {
    fake.reset();
    script(fake);
    const response = await post(fake.url, body, betas);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(normalizeIds(await response.text())).toBe(normalizeIds(golden(name)));
  });

  it('parses with the real SDK into the expected final message', async () => {
    replayBody = golden(name);
    const client = new Anthropic({ apiKey: 'test', baseURL: replayUrl, maxRetries: 0 });
    const { stream: _s, ...params } = { stream: true, ...body } as Record<string, unknown>;
    const final = await client.beta.messages
      .stream({ model: 'claude-sonnet-5-5', max_tokens: 1024, ...params } as Parameters<
        typeof client.beta.messages.stream
      >[0])
      .finalMessage();
    expect(final).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5',
      ...expected,
    });
    expect(final.id).toMatch(/^msg_/);
  });

  it('matches the non-streaming JSON reply for the same script', async () => {
    fake.reset();
    script(fake);
    const json = (await (await post(fake.url, body, betas, false)).json()) as Record<string, unknown>;
    expect(json).toMatchObject({ type: 'message', role: 'assistant', stop_sequence: null, ...expected });
    expect(Object.keys(json).sort()).toEqual(
      [
        'content',
        'context_management',
        'id',
        'model',
        'role',
        'stop_reason',
        'stop_sequence',
        'type',
        'usage',
      ].sort(),
    );
  });
});
