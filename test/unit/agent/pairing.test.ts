// Property (fast-check): whatever the stored messages are (random blocks and roles, or whole conversations
// cut off at a random point, as a crash leaves them, and continued), the repaired history passes the fake
// API's validator, which models the real API's rules; every complete exchange before the cut comes out
// unchanged; each call is answered first in the next message, in order; and repairing twice changes nothing.
import type { BetaContentBlockParam } from '@anthropic-ai/sdk/resources/beta/messages/messages.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ApiMessage,
  type Role,
  interruptedResult,
  repairMessages,
} from '../../../electron/core/agent/pairing.js';
import { ON_DEMAND_SIGNATURE_PREFIX, validateRequest } from '../../fixtures/fake-anthropic/validate.js';

const accepted = (messages: ApiMessage[]) => validateRequest({ model: 'm', max_tokens: 10, messages });

const ids = fc.constantFrom('toolu_1', 'toolu_2', 'toolu_3', 'toolu_4');
const blockArb: fc.Arbitrary<BetaContentBlockParam> = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.constantFrom('hi', '', '  ', 'x\n', 'ok') }),
  fc.record({
    type: fc.constant('tool_use'),
    id: ids,
    name: fc.constantFrom('memory', 'memory_search'),
    input: fc.constantFrom<Record<string, unknown>>(
      { command: 'view', path: '/memories' },
      { command: 'create', path: '/memories/a.md', file_text: 'A' },
      { query: 'q' },
    ),
  }),
  fc.record({
    type: fc.constant('tool_result'),
    tool_use_id: ids,
    content: fc.oneof(
      fc.constant('r'),
      fc.constant([{ type: 'text', text: '' }]),
      fc.constant([{ type: 'text', text: 'r' }]),
    ),
  }),
  fc.record({
    type: fc.constant('compaction'),
    content: fc.constant('summary'),
    signature: fc.constantFrom(undefined, `${ON_DEMAND_SIGNATURE_PREFIX}1`),
  }),
  fc.constant({ type: 'thinking', thinking: 't', signature: 's' }),
  fc.constant({ type: 'redacted_thinking', data: 'd' }),
  fc.constant({ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
  fc.constant({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } }),
) as fc.Arbitrary<BetaContentBlockParam>;

const randomHistory = fc.array(
  fc.record({
    role: fc.constantFrom<Role>('user', 'assistant'),
    content: fc.array(blockArb, { maxLength: 4 }),
  }),
  { maxLength: 12 },
);

/** A conversation of complete exchanges: question, tool round trips, answer. */
const exchangeArb = fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 3 });
function conversation(exchanges: number[][]): { messages: ApiMessage[]; ends: number[] } {
  const messages: ApiMessage[] = [];
  const ends: number[] = [];
  let n = 0;
  for (const trips of exchanges) {
    messages.push({ role: 'user', content: [{ type: 'text', text: `question ${++n}` }] });
    for (const calls of trips) {
      const uses = Array.from({ length: calls }, () => `toolu_${++n}`);
      messages.push({
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look.' },
          ...uses.map((id, i) => ({
            type: 'tool_use' as const,
            id,
            name: 'memory',
            input:
              i % 2
                ? { command: 'create', path: `/memories/${id}.md`, file_text: 'x' }
                : { command: 'view', path: '/memories' },
          })),
        ],
      });
      messages.push({
        role: 'user',
        content: uses.map((id) => ({
          type: 'tool_result' as const,
          tool_use_id: id,
          content: `result ${id}`,
        })),
      });
    }
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `answer ${++n}` }] });
    ends.push(messages.length);
  }
  return { messages, ends };
}

function checkAnswered(out: ApiMessage[]): void {
  out.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    const calls = m.content.filter((b) => b.type === 'tool_use').map((b) => b.id);
    if (calls.length === 0) return;
    const next = out[i + 1]!;
    expect(next.role).toBe('user');
    const answers = next.content
      .slice(0, calls.length)
      .map((b) => (b.type === 'tool_result' ? b.tool_use_id : b.type));
    expect(answers).toEqual(calls);
  });
}

describe('repairMessages', () => {
  it('turns any list of messages into a request the API accepts, and is idempotent', () => {
    fc.assert(
      fc.property(randomHistory, (history) => {
        const out = repairMessages(history);
        expect(accepted(out)).toBeNull();
        checkAnswered(out);
        expect(repairMessages(out)).toEqual(out);
      }),
      { numRuns: 2_000 },
    );
  });

  it('repairs a conversation cut off anywhere (a crash) and continued, keeping every complete exchange', () => {
    fc.assert(
      fc.property(
        fc.array(exchangeArb, { minLength: 1, maxLength: 5 }),
        fc.nat(),
        fc.nat({ max: 3 }),
        fc.boolean(),
        (exchanges, cutAt, dropBlocks, continued) => {
          const { messages, ends } = conversation(exchanges);
          expect(repairMessages(messages)).toEqual(messages);
          const cut = cutAt % (messages.length + 1);
          const kept = messages.slice(0, cut).map((m) => ({ ...m }));
          // A message torn inside: some of its blocks missing (a partial set of tool results).
          const last = kept.at(-1);
          if (last && dropBlocks > 0)
            kept[kept.length - 1] = { ...last, content: last.content.slice(0, -dropBlocks) };
          if (continued)
            kept.push({ role: 'user', content: [{ type: 'text', text: 'Are you still there?' }] });
          const out = repairMessages(kept);
          expect(accepted(out)).toBeNull();
          checkAnswered(out);
          const complete = ends.filter((e) => e < cut || (e === cut && dropBlocks === 0)).at(-1) ?? 0;
          expect(out.slice(0, complete)).toEqual(messages.slice(0, complete));
          // Answers the app made up say so, and never claim a result.
          for (const m of out.slice(complete)) {
            for (const b of m.content) {
              if (b.type === 'tool_result' && b.is_error) {
                const call = out
                  .flatMap((x) => x.content)
                  .find((c) => c.type === 'tool_use' && c.id === b.tool_use_id);
                expect(b).toEqual(interruptedResult(call as Parameters<typeof interruptedResult>[0]));
              }
            }
          }
          if (continued)
            expect(out.at(-1)!.content.at(-1)).toEqual({ type: 'text', text: 'Are you still there?' });
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('answers a dangling memory write without claiming it was applied, before the next message', () => {
    const out = repairMessages([
      { role: 'user', content: 'remember A' },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: 'toolu_a',
            name: 'memory',
            input: { command: 'create', path: '/memories/a.md', file_text: 'A' },
          },
        ],
      },
      { role: 'user', content: 'hello?' },
    ]);
    expect(out[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_a',
          is_error: true,
          content:
            'The app stopped before this result was recorded. Whether the memory change was applied is not known: view the file to check before making it again.',
        },
        { type: 'text', text: 'hello?' },
      ],
    });
  });

  it('moves results that arrived after other user text to the front, in the order of the calls', () => {
    const call = (id: string) => ({
      type: 'tool_use' as const,
      id,
      name: 'memory_search',
      input: { query: 'q' },
    });
    const result = (id: string) => ({ type: 'tool_result' as const, tool_use_id: id, content: id });
    const out = repairMessages([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [call('toolu_1'), call('toolu_2')] },
      { role: 'user', content: [{ type: 'text', text: 'note' }] },
      { role: 'user', content: [result('toolu_2'), result('toolu_9'), result('toolu_1'), result('toolu_2')] },
    ]);
    expect(out.slice(1)).toEqual([
      { role: 'assistant', content: [call('toolu_1'), call('toolu_2')] },
      { role: 'user', content: [result('toolu_1'), result('toolu_2'), { type: 'text', text: 'note' }] },
    ]);
  });
});
