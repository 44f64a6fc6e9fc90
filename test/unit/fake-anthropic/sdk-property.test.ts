// Property: whatever the script (any text, any JSON tool input, any chunking), the real SDK parses the
// fake's stream into exactly the message the fake sends as JSON for the same script.
import Anthropic from '@anthropic-ai/sdk';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  reply,
  startFakeAnthropic,
  text,
  toolUse,
  type FakeAnthropic,
  type JsonObject,
  type ReplySpec,
} from '../../fixtures/fake-anthropic/index.js';

let fake: FakeAnthropic;
let client: Anthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic();
  client = new Anthropic({ apiKey: 'test', baseURL: fake.url, maxRetries: 0 });
});
afterAll(async () => fake.close());

const textArb = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 60 })
  .filter((s) => s.trim().length > 0);
const inputArb = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), {
  maxKeys: 4,
}) as fc.Arbitrary<JsonObject>;
const blockArb: fc.Arbitrary<ReplySpec> = fc.oneof(
  textArb.map((t) => text(t)),
  inputArb.map((input) => toolUse({ name: 'search', input })),
);
const scriptArb = fc.record({
  blocks: fc.array(blockArb, { minLength: 1, maxLength: 3 }),
  chunkSize: fc.option(fc.integer({ min: 1, max: 7 }), { nil: undefined }),
});

describe('SDK accepts every scripted reply', () => {
  it('streamed and JSON replies agree for random scripts', async () => {
    await fc.assert(
      fc.asyncProperty(scriptArb, async ({ blocks, chunkSize }) => {
        const script = reply(blocks, chunkSize ? { chunkSize } : {});
        fake.enqueue(script, script);
        const params = {
          model: 'claude-sonnet-5-5',
          max_tokens: 100,
          messages: [{ role: 'user' as const, content: 'go' }],
        };
        const streamed = await client.beta.messages.stream(params).finalMessage();
        const json = await client.beta.messages.create(params);
        expect(streamed.content).toEqual(json.content);
        expect(streamed.stop_reason).toBe(json.stop_reason);
        expect(streamed.usage.output_tokens).toBe(json.usage.output_tokens);
        expect(json.content).toHaveLength(blocks.length);
      }),
      { numRuns: 40 },
    );
  });
});
