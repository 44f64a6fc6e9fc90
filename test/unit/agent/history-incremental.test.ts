// Property (fast-check): the history kept per conversation and extended turn by turn is always the one built
// from scratch, whatever mix of messages, memory views, truncations, clearings and compactions (local,
// native, threshold blocks in replies) came before; and a history handed out earlier never changes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildHistory, historyFromScratch, viewCall } from '../../../electron/core/agent/history.js';
import type { ConversationRecord, MessageRecord } from '../../../electron/core/conversations/records.js';
import { applyRecord, emptyState } from '../../../electron/core/conversations/state.js';
import { validateRequest } from '../../fixtures/fake-anthropic/validate.js';

const at = new Date(0).toISOString();

type Step =
  | { kind: 'user' | 'text' | 'empty' | 'threshold' }
  | { kind: 'call'; view: boolean }
  | { kind: 'results' }
  | { kind: 'backfill' }
  | { kind: 'truncate' | 'clear' | 'compact'; pick: number; native: boolean };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constantFrom('user' as const, 'text' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('empty' as const, 'threshold' as const) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('call' as const), view: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('results' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('backfill' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom('truncate' as const, 'clear' as const, 'compact' as const),
      pick: fc.nat(),
      native: fc.boolean(),
    }),
  },
);

/** Turns steps into records, keeping ids unique and tool results paired with the last calls. */
function recordsFor(steps: Step[]): ConversationRecord[] {
  const out: ConversationRecord[] = [];
  const messages: MessageRecord[] = [];
  const calls: string[] = [];
  let open: string[] = [];
  let n = 0;
  const msg = (m: Omit<MessageRecord, 't' | 'id' | 'at'>): void => {
    const record: MessageRecord = { t: 'msg', id: `m${++n}`, at, ...m };
    messages.push(record);
    out.push(record);
  };
  for (const step of steps) {
    switch (step.kind) {
      case 'user':
        msg({ kind: 'user', role: 'user', content: [{ type: 'text', text: `u${n}` }], text: `u${n}` });
        break;
      case 'text':
        msg({ kind: 'assistant', role: 'assistant', content: [{ type: 'text', text: `a${n} ` }] });
        break;
      case 'empty':
        msg({ kind: 'assistant', role: 'assistant', content: [] });
        break;
      case 'threshold':
        msg({
          kind: 'assistant',
          role: 'assistant',
          content: [{ type: 'compaction', content: `summary ${n}` } as MessageRecord['content'][number]],
        });
        break;
      case 'call': {
        const id = `toolu_${++n}`;
        open.push(id);
        calls.push(id);
        msg({
          kind: 'assistant',
          role: 'assistant',
          content: [
            step.view ? viewCall(id) : { type: 'tool_use', id, name: 'memory_search', input: { query: 'q' } },
          ],
        });
        break;
      }
      case 'results':
        msg({
          kind: 'tool_results',
          role: 'user',
          content: (open.length > 0 ? open : [`toolu_orphan${n}`]).map((id) => ({
            type: 'tool_result' as const,
            tool_use_id: id,
            content: `result ${id}`,
          })),
        });
        open = [];
        break;
      case 'backfill': {
        const id = `toolu_b${++n}`;
        msg({ kind: 'backfill', role: 'assistant', content: [viewCall(id)] });
        msg({
          kind: 'backfill',
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: id, content: 'memory' }],
        });
        break;
      }
      case 'truncate':
        if (messages.length > 0)
          out.push({ t: 'truncate', fromMessageId: messages[step.pick % messages.length]!.id, at });
        break;
      case 'clear':
        if (calls.length > 0)
          out.push({ t: 'cleared', toolUseIds: [calls[step.pick % calls.length]!], tokens: 1, at });
        break;
      case 'compact':
        if (messages.length > 0)
          out.push({
            t: 'compacted',
            strategy: step.native ? 'native' : 'local',
            lastMessageId: messages[step.pick % messages.length]!.id,
            summary: `summary ${n}`,
            ...(step.native
              ? { block: { type: 'compaction', content: 'signed' } as MessageRecord['content'][number] }
              : {}),
            ...(step.pick % 2
              ? { memory: { toolUseId: `toolu_m${n}`, text: 'memory', files: [], totalFiles: 0, tokens: 1 } }
              : {}),
            ...(step.pick % 3 === 0 ? { pinned: 'pinned text' } : {}),
            tokensBefore: 10,
            tokensAfter: 5,
            messagesCompacted: 1,
            at,
          });
        break;
    }
  }
  return out;
}

describe('the kept history', () => {
  it('equals the history built from scratch after every record, and never changes one handed out', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60 }), (steps) => {
        const state = emptyState({ t: 'meta', v: 1, id: 'c', title: '', createdAt: at, memory: true });
        const handedOut: { history: ReturnType<typeof buildHistory>; copy: string }[] = [];
        for (const record of recordsFor(steps)) {
          applyRecord(state, record);
          const history = buildHistory(state);
          expect(history).toEqual(historyFromScratch(state));
          handedOut.push({ history, copy: JSON.stringify(history) });
        }
        for (const h of handedOut) expect(JSON.stringify(h.history)).toBe(h.copy);
      }),
      { numRuns: 300 },
    );
  });

  it('is a history the API accepts after every record, however the records were cut or mixed', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 60 }), (steps) => {
        const state = emptyState({ t: 'meta', v: 1, id: 'c', title: '', createdAt: at, memory: true });
        for (const record of recordsFor(steps)) {
          applyRecord(state, record);
          const { messages } = buildHistory(state);
          expect(validateRequest({ model: 'm', max_tokens: 10, messages })).toBeNull();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('extends the kept history instead of rebuilding it when messages are only appended', () => {
    const state = emptyState({ t: 'meta', v: 1, id: 'c', title: '', createdAt: at, memory: true });
    const records = recordsFor([{ kind: 'user' }, { kind: 'call', view: false }, { kind: 'results' }]);
    for (const r of records) applyRecord(state, r);
    const first = buildHistory(state);
    applyRecord(state, {
      t: 'msg',
      id: 'late',
      kind: 'assistant',
      role: 'assistant',
      at,
      content: [{ type: 'text', text: 'done' }],
    });
    const second = buildHistory(state);
    // The messages built before are the same objects: nothing before the new message was built again.
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    first.messages.forEach((m, i) => expect(second.messages[i]).toBe(m));
    expect(second.messages).toHaveLength(first.messages.length + 1);
  });
});
