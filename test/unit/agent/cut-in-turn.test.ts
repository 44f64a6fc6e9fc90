// Where local compaction cuts inside the turn being answered: after a tool result, keeping the last two
// round trips, never separating a call from its result; and the history it leaves (the summary, the
// question given again, the kept round trips) is one the API accepts, whatever the conversation.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chooseCut, cutInTurn } from '../../../electron/core/agent/context/cut.js';
import { GIVEN_AGAIN, buildHistory } from '../../../electron/core/agent/history.js';
import type { ConversationRecord, MessageRecord } from '../../../electron/core/conversations/records.js';
import { rebuild } from '../../../electron/core/conversations/state.js';
import { validateRequest } from '../../fixtures/fake-anthropic/index.js';

const at = new Date(0).toISOString();
const meta: ConversationRecord = { t: 'meta', v: 1, id: 'c1', title: '', createdAt: at, memory: true };
const user = (id: string): MessageRecord => ({
  t: 'msg',
  id,
  kind: 'user',
  role: 'user',
  at,
  text: `question ${id}`,
  content: [{ type: 'text', text: `question ${id}` }],
});
const answer = (id: string): MessageRecord => ({
  t: 'msg',
  id,
  kind: 'assistant',
  role: 'assistant',
  at,
  content: [{ type: 'text', text: `answer ${id}` }],
});
const call = (id: string, tools: string[]): MessageRecord => ({
  t: 'msg',
  id,
  kind: 'assistant',
  role: 'assistant',
  at,
  content: tools.map((tool) => ({ type: 'tool_use', id: tool, name: 'memory', input: { command: 'view' } })),
});
const result = (id: string, tools: string[]): MessageRecord => ({
  t: 'msg',
  id,
  kind: 'tool_results',
  role: 'user',
  at,
  content: tools.map((tool) => ({ type: 'tool_result', tool_use_id: tool, content: `result ${tool}` })),
});
/** A turn of `steps` round trips, `calls` tool uses each, ended by an answer unless it is still running. */
function turn(n: number, steps: number, calls: number, done: boolean): MessageRecord[] {
  const out = [user(`u${n}`)];
  for (let i = 0; i < steps; i++) {
    const tools = Array.from({ length: calls }, (_, k) => `toolu_${n}_${i}_${k}`);
    out.push(call(`a${n}_${i}`, tools), result(`r${n}_${i}`, tools));
  }
  if (done) out.push(answer(`b${n}`));
  return out;
}

describe('cutInTurn', () => {
  const messages = [...turn(1, 1, 1, true), ...turn(2, 5, 1, false)];

  it('keeps the last two round trips of the current turn', () => {
    const cut = cutInTurn(messages, 0);
    expect(messages[cut]!.id).toBe('r2_2');
    expect(messages.slice(cut + 1).map((m) => m.id)).toEqual(['a2_3', 'r2_3', 'a2_4', 'r2_4']);
  });

  it('is not chosen first: the cut before the last user turn is', () => {
    expect(messages[chooseCut(messages, 0, false)]!.id).toBe('b1');
  });

  it('finds nothing in a turn of two round trips', () => {
    expect(cutInTurn([...turn(1, 1, 1, true), ...turn(2, 2, 1, false)], 0)).toBe(-1);
  });

  it('never leaves a result whose call is summarized', () => {
    // A result recorded late (a crash mid-tool): the cut moves before its call.
    const late = [
      user('u1'),
      call('a1', ['t1']),
      result('r1', ['t1']),
      call('a2', ['t2', 't9']),
      result('r2', ['t2']),
      call('a3', ['t3']),
      result('r3', ['t3']),
      call('a4', ['t4']),
      result('r4', ['t4', 't9']),
    ];
    expect(late[cutInTurn(late, 0)]!.id).toBe('r1');
  });

  it('leaves a valid history, the question given again before the kept round trips', () => {
    const history = fc.record({
      earlier: fc.array(fc.record({ steps: fc.nat(3), calls: fc.integer({ min: 1, max: 3 }) }), {
        maxLength: 3,
      }),
      steps: fc.integer({ min: 0, max: 8 }),
      calls: fc.integer({ min: 1, max: 3 }),
    });
    fc.assert(
      fc.property(history, ({ earlier, steps, calls }) => {
        const all = [
          ...earlier.flatMap((t, n) => turn(n, t.steps, t.calls, true)),
          ...turn(9, steps, calls, false),
        ];
        const cut = cutInTurn(all, 0);
        if (cut < 0) return;
        const asked = all.findLastIndex((m) => m.kind === 'user');
        expect(cut).toBeGreaterThan(asked);
        expect(all.slice(cut + 1).filter((m) => m.role === 'assistant')).toHaveLength(2);
        const state = rebuild([
          meta,
          ...all,
          {
            t: 'compacted',
            strategy: 'local',
            lastMessageId: all[cut]!.id,
            summary: 'What was done so far.',
            memory: { toolUseId: 'toolu_m', text: 'memory', files: [], totalFiles: 0, tokens: 1 },
            request: 'question u9',
            tokensBefore: 10,
            tokensAfter: 5,
            messagesCompacted: cut + 1,
            at,
          },
        ])!;
        const { messages } = buildHistory(state);
        expect(validateRequest({ model: 'm', max_tokens: 10, messages })).toBeNull();
        const given = messages.findIndex((m) => JSON.stringify(m.content).includes(GIVEN_AGAIN));
        expect(given).toBe(2);
        expect(messages.slice(given + 1).map((m) => m.role)).toEqual([
          'assistant',
          'user',
          'assistant',
          'user',
        ]);
      }),
    );
  });
});
