// Property (fast-check): no sequence of messages, tool calls, max_tokens cut-offs, aborts at any point,
// API errors, clearing, compaction (local, and native on demand), pins, retries, regenerations and edits
// makes the real loop send a request that the fake's validator (the real API's rules) rejects.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../shared/channels/chat.js';
import {
  type ReplySpec,
  gate,
  maxTokensToolUse,
  midStreamError,
  reply,
  text,
  toolUse,
  validateRequest,
} from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, newConversation, startHarness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.core.ctx.memory.create('/memories/preferences.md', '- Likes tea.\n', { kind: 'user' });
  const lines = Array.from({ length: 60 }, (_, i) => `apple ${i} ${'x'.repeat(40)}`).join('\n');
  await h.core.ctx.memory.create('/memories/fruit.md', `${lines}\n`, { kind: 'user' });
}, 60_000);
afterAll(async () => h?.close());

const write = (n: number) =>
  toolUse({
    name: 'memory',
    input: {
      command: 'create',
      path: `/memories/p${n}-${Math.random().toString(36).slice(2, 8)}.md`,
      file_text: `note ${n}\n`,
    },
  });
const search = () => toolUse({ name: 'memory_search', input: { query: 'apple', limit: 50 } });

type Op =
  | { kind: 'send'; replies: ('text' | 'tool' | 'two' | 'unknown' | 'cut' | 'error')[] }
  | { kind: 'abort'; afterEvents: number; tool: boolean }
  | { kind: 'compact' }
  | { kind: 'regenerate' }
  | { kind: 'retry' }
  | { kind: 'edit' }
  | { kind: 'pin' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      replies: fc.array(fc.constantFrom('text', 'tool', 'two', 'unknown', 'cut', 'error'), {
        minLength: 1,
        maxLength: 4,
      }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('abort' as const),
      afterEvents: fc.integer({ min: 1, max: 9 }),
      tool: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'compact' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'regenerate' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'retry' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'edit' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'pin' as const }) },
);

function script(kinds: Extract<Op, { kind: 'send' }>['replies']): ReplySpec[] {
  const out: ReplySpec[] = [];
  kinds.forEach((k, i) => {
    if (k === 'tool') out.push(i % 2 ? search() : write(i));
    else if (k === 'two') out.push(reply([text('Two tools.'), write(i), search()]));
    else if (k === 'unknown') out.push(toolUse({ name: 'nonexistent_tool', input: { a: 1 } }));
    else if (k === 'cut')
      out.push(
        maxTokensToolUse({
          name: 'memory',
          input: { command: 'create', path: '/memories/cut.md', file_text: 'y'.repeat(80) },
          before: [text('Cut:')],
        }),
      );
    else if (k === 'error') out.push(midStreamError({ afterEvents: 5 }));
  });
  // Whatever the script, the run ends with a text answer (after tools, the queue may run dry: default echo).
  out.push(text('Final words for this turn.'));
  return out;
}

async function runOp(conversationId: string, op: Op): Promise<RunEvent[] | null> {
  const handlers = h.core.handlers;
  const safe = async (fn: () => Promise<{ runId: string }>) => {
    try {
      const { runId } = await fn();
      return h.finished(runId);
    } catch {
      return null; // refused up front (nothing to retry, nothing to compact): fine, nothing was sent
    }
  };
  switch (op.kind) {
    case 'send':
      h.fake.enqueue(...script(op.replies));
      return safe(() => handlers['chat.send']({ text: 'Next message', memory: true, conversationId }, call));
    case 'abort': {
      const g = gate({
        afterEvents: op.afterEvents,
        reply: op.tool ? reply([text('About to write'), write(99)]) : text('one two three four five six'),
      });
      h.fake.enqueue(g);
      const res = await handlers['chat.send'](
        { text: 'Say something long', memory: true, conversationId },
        call,
      );
      await Promise.race([g.reached, h.waitFor((e) => e.runId === res.runId && e.type === 'run.finished')]);
      await handlers['chat.abort']({ runId: res.runId }, call);
      g.release();
      return h.finished(res.runId);
    }
    case 'compact':
      return safe(() => handlers['context.compact']({ conversationId }, call));
    case 'regenerate':
      h.fake.enqueue(text('Regenerated.'));
      return safe(() => handlers['chat.regenerate']({ conversationId }, call));
    case 'retry':
      h.fake.enqueue(text('Retried.'));
      return safe(() => handlers['chat.retry']({ conversationId }, call));
    case 'edit': {
      const items = (await handlers['conversations.get']({ id: conversationId }, call)).items;
      const users = items.filter((i) => i.kind === 'user');
      if (users.length === 0) return null;
      h.fake.enqueue(text('Edited answer.'));
      return safe(() =>
        handlers['chat.editResend'](
          { conversationId, messageId: users.at(-1)!.id, text: 'Edited question' },
          call,
        ),
      );
    }
    case 'pin': {
      const items = (await handlers['conversations.get']({ id: conversationId }, call)).items;
      const target = items.find((i) => i.kind === 'user' || i.kind === 'assistant');
      if (target) await handlers['chat.pin']({ conversationId, messageId: target.id, pinned: true }, call);
      return null;
    }
  }
}

describe('property: every request the loop sends is valid', () => {
  it('holds for random sequences of messages, tools, aborts, errors, clearing and compaction', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('native', 'local', 'off') as fc.Arbitrary<'native' | 'local' | 'off'>,
        fc.integer({ min: 0, max: 2 }),
        fc.array(opArb, { minLength: 2, maxLength: 7 }),
        async (strategy, keep, ops) => {
          h.fake.reset();
          h.fake.rule((r) =>
            typeof r.body.system === 'string' && r.body.system.includes('You summarize')
              ? text('A summary.')
              : undefined,
          );
          h.core.ctx.settings.set({
            contextStrategy: strategy,
            clearTrigger: 1_000,
            clearKeep: keep,
            compactTrigger: 2_500,
            stallTimeoutMs: 10_000,
          });
          const conv = (await newConversation(h.core.ctx)).id;
          h.fake.enqueue(text('Hello.'));
          await h.finished(
            (await h.core.handlers['chat.send']({ text: 'Start', memory: true, conversationId: conv }, call))
              .runId,
          );
          for (const op of ops) {
            const events = await runOp(conv, op);
            const refused = events?.find((e) => e.type === 'run.error' && e.kind === 'invalid_request');
            expect(refused, JSON.stringify(refused)).toBeUndefined();
          }
          for (const r of h.fake.messageRequests()) {
            expect(r.status).not.toBe(400);
            expect(validateRequest(r.body, r.headers)).toBeNull();
          }
        },
      ),
      { numRuns: 30 },
    );
  }, 300_000);
});
