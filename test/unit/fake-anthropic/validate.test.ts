// Each validation rule answers a bad request with the real API's error type and message, both from the pure
// validator and over HTTP through the real SDK (BadRequestError); a rich, valid history is accepted.
import Anthropic, { BadRequestError } from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeAnthropic,
  validateRequest,
  type FakeAnthropic,
} from '../../fixtures/fake-anthropic/index.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- deliberately malformed request bodies */

const model = 'claude-sonnet-5-5';
const ok = { model, max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };
const use = (id: string, name = 'search'): any => ({ type: 'tool_use', id, name, input: {} });
const result = (id: string): any => ({ type: 'tool_result', tool_use_id: id, content: 'r' });
const search = { name: 'search', description: 'd', input_schema: { type: 'object' } };
const CM = 'context-management-2025-06-27';
const signed = { type: 'compaction', content: 'summary', signature: 'fake-sig-summarize-msg_1' };

interface BadCase {
  name: string;
  body: any;
  betas?: string;
  message: string;
  errorCode?: string;
}

const bad: BadCase[] = [
  {
    name: 'missing model',
    body: { max_tokens: 10, messages: ok.messages },
    message: 'model: Field required',
  },
  {
    name: 'missing max_tokens',
    body: { model, messages: ok.messages },
    message: 'max_tokens: Field required',
  },
  { name: 'missing messages', body: { model, max_tokens: 10 }, message: 'messages: Field required' },
  {
    name: 'max_tokens zero',
    body: { ...ok, max_tokens: 0 },
    message: 'max_tokens: Input should be greater than or equal to 1',
  },
  {
    name: 'first message from the assistant',
    body: {
      ...ok,
      messages: [
        { role: 'assistant', content: 'hello' },
        { role: 'user', content: 'hi' },
      ],
    },
    message: 'messages: first message must use the "user" role',
  },
  {
    name: 'unknown role',
    body: { ...ok, messages: [{ role: 'system', content: 'x' }] },
    message: "messages.0.role: Input should be 'user' or 'assistant'",
  },
  {
    name: 'empty string content',
    body: { ...ok, messages: [{ role: 'user', content: '' }] },
    message:
      'messages.0: all messages must have non-empty content except for the optional final assistant message',
  },
  {
    name: 'empty list content in the middle',
    body: {
      ...ok,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [] },
        { role: 'user', content: 'b' },
      ],
    },
    message:
      'messages.1: all messages must have non-empty content except for the optional final assistant message',
  },
  {
    name: 'unanswered tool_use',
    body: {
      ...ok,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [use('toolu_x')] },
        { role: 'user', content: 'b' },
      ],
    },
    message:
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_x. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
  },
  {
    name: 'tool_use followed by another assistant message',
    body: {
      ...ok,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [use('toolu_y')] },
        { role: 'assistant', content: 'x' },
      ],
    },
    message:
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_y. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
  },
  {
    name: 'orphan tool_result',
    body: {
      ...ok,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: [result('toolu_x')] },
      ],
    },
    message:
      'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_x. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
  },
  {
    name: 'tool_result after text',
    body: {
      ...ok,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [use('toolu_1')] },
        { role: 'user', content: [{ type: 'text', text: 'note' }, result('toolu_1')] },
      ],
    },
    message:
      'messages.2.content.1: `tool_result` blocks must come first in the user message content, before any other block',
  },
  {
    name: 'empty text block',
    body: { ...ok, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] },
    message: 'messages.0.content.0.text: text content blocks must be non-empty',
  },
  {
    name: 'whitespace-only text block',
    body: { ...ok, messages: [{ role: 'user', content: [{ type: 'text', text: ' \n ' }] }] },
    message: 'messages.0.content.0.text: text content blocks must contain non-whitespace text',
  },
  {
    name: 'prefill ending with whitespace',
    body: {
      ...ok,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'partial answer ' },
      ],
    },
    message: 'messages: final assistant content cannot end with trailing whitespace',
  },
  {
    name: 'duplicate tool_use ids',
    body: {
      ...ok,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [use('toolu_1'), use('toolu_1')] },
        { role: 'user', content: [result('toolu_1')] },
      ],
    },
    message: 'messages.1.content.1: `tool_use` ids must be unique',
  },
  {
    name: 'tool_result with an unsupported inner block',
    body: {
      ...ok,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [use('toolu_1')] },
        { role: 'user', content: [{ ...result('toolu_1'), content: [use('toolu_2')] }] },
      ],
    },
    message:
      "messages.2.content.0.content.0: Input tag 'tool_use' found using 'type' does not match any of the expected tags: 'text', 'image', 'document', 'search_result'",
  },
  {
    name: 'tool_use inside a user message',
    body: { ...ok, messages: [{ role: 'user', content: [use('toolu_1')] }] },
    message: 'messages.0.content.0: `tool_use` blocks can only be in `assistant` messages',
  },
  {
    name: 'thread',
    body: { ...ok, thread: { type: 'create' } },
    message: 'thread: message threads are not supported for this request',
    errorCode: 'thread_unsupported_request',
  },
  {
    name: 'context_management without its beta',
    body: { ...ok, context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] } },
    message: 'context_management: Extra inputs are not permitted',
  },
  {
    name: 'compact edit without the compact beta',
    betas: CM,
    body: { ...ok, context_management: { edits: [{ type: 'compact_20260112' }] } },
    message:
      "context_management.edits.0: Input tag 'compact_20260112' found using 'type' does not match any of the expected tags: 'clear_tool_uses_20250919', 'clear_thinking_20251015'",
  },
  {
    name: 'compact trigger under 50,000',
    betas: 'compact-2026-01-12',
    body: {
      ...ok,
      context_management: {
        edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 1000 } }],
      },
    },
    message: 'context_management.edits.0.trigger.value: Input should be greater than or equal to 50000',
  },
  {
    name: 'compaction without its beta',
    body: { ...ok, compaction: { type: 'summarize' } },
    message: 'compaction: Extra inputs are not permitted',
  },
  {
    name: 'compaction with context_management',
    betas: `${CM},compact-2026-09-04`,
    body: { ...ok, compaction: { type: 'summarize' }, context_management: { edits: [] } },
    message: 'compaction: cannot be combined with context_management; send the compaction request without it',
  },
  {
    name: 'on-demand compaction block after the messages it summarizes',
    betas: 'compact-2026-09-04',
    body: {
      ...ok,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [signed] },
        { role: 'user', content: 'b' },
      ],
    },
    message:
      'messages.1.content.0: the compaction block must be the first block of the first message; remove the messages it summarizes',
    errorCode: 'compaction_block_misplaced',
  },
  {
    name: 'unknown tool type',
    body: { ...ok, tools: [{ type: 'teleport_20990101', name: 'teleport' }] },
    message:
      "tools.0: Input tag 'teleport_20990101' found using 'type' does not match any of the expected tags: 'custom', 'memory_20250818', 'bash_20250124', 'text_editor_20250728', 'web_search_20250305', 'web_fetch_20250910', 'code_execution_20250825'",
  },
  {
    name: 'memory tool with another name',
    body: { ...ok, tools: [{ type: 'memory_20250818', name: 'notes' }] },
    message: "tools.0.memory_20250818.name: Input should be 'memory'",
  },
  {
    name: 'memory tool with an extra field',
    body: { ...ok, tools: [{ type: 'memory_20250818', name: 'memory', description: 'mine' }] },
    message: 'tools.0.memory_20250818.description: Extra inputs are not permitted',
  },
  {
    name: 'custom tool without input_schema',
    body: { ...ok, tools: [{ name: 'search' }] },
    message: 'tools.0.custom.input_schema: Field required',
  },
  {
    name: 'duplicate tool names',
    body: { ...ok, tools: [search, { ...search }] },
    message: "tools: Tool names must be unique. Duplicate name: 'search'",
  },
];

/** A long, valid history touching every accepted shape (guards against an over-strict validator). */
const goodHistory = {
  model,
  max_tokens: 1000,
  system: [{ type: 'text', text: 'You are Mnemo.', cache_control: { type: 'ephemeral' } }],
  tools: [{ type: 'memory_20250818', name: 'memory', cache_control: { type: 'ephemeral' } }, search],
  context_management: {
    edits: [
      {
        type: 'clear_tool_uses_20250919',
        trigger: { type: 'input_tokens', value: 100_000 },
        keep: { type: 'tool_uses', value: 3 },
        exclude_tools: ['memory'],
      },
      { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 150_000 } },
    ],
  },
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'hello' }] },
    {
      role: 'assistant',
      content: [{ type: 'text', text: 'Checking memory.' }, use('toolu_a', 'memory'), use('toolu_b')],
    },
    {
      role: 'user',
      content: [
        result('toolu_a'),
        { ...result('toolu_b'), is_error: true },
        { type: 'text', text: 'and also' },
      ],
    },
    {
      role: 'assistant',
      content: [{ type: 'compaction', content: 'Summary so far.', encrypted_content: null }],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'Resuming after the summary.' }] },
    { role: 'user', content: 'Continue, please.' },
    { role: 'assistant', content: 'Sure, here' },
  ],
};

let fake: FakeAnthropic;
let client: Anthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic();
  client = new Anthropic({ apiKey: 'test', baseURL: fake.url, maxRetries: 0 });
});
afterAll(async () => fake.close());

const headersFor = (betas?: string): Record<string, string> => (betas ? { 'anthropic-beta': betas } : {});

describe('validateRequest refuses what the API refuses', () => {
  it.each(bad)('$name', ({ body, betas, message, errorCode }) => {
    const error = validateRequest(body, headersFor(betas));
    expect(error).toEqual({
      status: 400,
      type: 'invalid_request_error',
      message,
      ...(errorCode ? { details: { error_code: errorCode } } : {}),
    });
  });

  it('accepts a rich valid history, two assistant messages in a row and an assistant-final prefill', () => {
    expect(validateRequest(goodHistory, headersFor(`${CM},compact-2026-01-12`))).toBeNull();
  });

  it('accepts an on-demand compaction block first, and count_tokens without max_tokens', () => {
    const after = {
      ...ok,
      messages: [
        { role: 'assistant', content: [signed] },
        { role: 'user', content: 'go on' },
      ],
    };
    expect(validateRequest(after, headersFor('compact-2026-09-04'))).toBeNull();
    expect(validateRequest({ model, messages: ok.messages }, {}, { endpoint: 'count_tokens' })).toBeNull();
  });
});

describe('over HTTP, through the real SDK', () => {
  it.each(bad)(
    '$name → BadRequestError with the same message',
    async ({ body, betas, message, errorCode }) => {
      const error = (await client
        .post('/v1/messages', { body, headers: headersFor(betas) })
        .catch((e: unknown) => e)) as BadRequestError;
      expect(error).toBeInstanceOf(BadRequestError);
      expect(error.type).toBe('invalid_request_error');
      expect((error.error as any).error.message).toBe(message);
      expect(error.errorCode).toBe(errorCode ?? null);
    },
  );

  it('serves the good history', async () => {
    const message = await client.beta.messages.create({
      ...(goodHistory as any),
      betas: [CM, 'compact-2026-01-12'],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'You said: Continue, please.' }]);
  });
});
