// Pages of a transcript (electron/core/conversations/pages.ts): for any conversation, walking its pages
// from the end (or out from any message) and putting them together gives exactly its full transcript, so
// where a window cuts the conversation never changes an item. The generator makes what moves items
// across turns: tool results and review cards for calls of earlier turns, the retry of an earlier error,
// repeated ids, truncations.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ConversationRecord, MessageRecord } from '../../../electron/core/conversations/records.js';
import { lastPage, pageAround, pageAt, type Page } from '../../../electron/core/conversations/pages.js';
import { type ConversationState, rebuild } from '../../../electron/core/conversations/state.js';
import { transcript } from '../../../electron/core/conversations/transcript.js';

const at = '2026-01-01T00:00:00.000Z';
const meta: ConversationRecord = { t: 'meta', v: 1, id: 'c1', title: 't', createdAt: at, memory: true };

type Step =
  | { op: 'user' }
  | { op: 'assistant'; text: boolean; tools: number[] }
  | { op: 'results'; tools: number[]; note: boolean }
  | { op: 'review'; tool: number; review: number }
  | { op: 'reviewed'; review: number }
  | { op: 'card' }
  | { op: 'error' }
  | { op: 'retried'; error: number }
  | { op: 'pin'; message: number }
  | { op: 'truncate'; message: number };

const small = fc.nat({ max: 12 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ op: 'user' as const }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('assistant' as const),
      text: fc.boolean(),
      tools: fc.array(small, { maxLength: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('results' as const),
      tools: fc.array(small, { maxLength: 3 }),
      note: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('review' as const), tool: small, review: small }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('reviewed' as const), review: small }) },
  { weight: 1, arbitrary: fc.constant({ op: 'card' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'error' as const }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('retried' as const), error: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('pin' as const), message: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('truncate' as const), message: fc.nat() }) },
);

function records(steps: Step[]): ConversationRecord[] {
  const out: ConversationRecord[] = [meta];
  const messages: string[] = [];
  const errors: string[] = [];
  let n = 0;
  const msg = (m: Omit<MessageRecord, 't' | 'id' | 'at'>): void => {
    const id = `m${n++}`;
    messages.push(id);
    out.push({ t: 'msg', id, at, ...m });
  };
  for (const s of steps) {
    switch (s.op) {
      case 'user':
        msg({ kind: 'user', role: 'user', text: `q${n}`, content: [{ type: 'text', text: `q${n}` }] });
        break;
      case 'assistant':
        msg({
          kind: 'assistant',
          role: 'assistant',
          content: [
            ...(s.text ? [{ type: 'text' as const, text: `a${n}` }] : []),
            ...s.tools.map((t) => ({
              type: 'tool_use' as const,
              id: `tu${t}`,
              name: 'memory',
              input: { t },
            })),
          ],
        });
        break;
      case 'results':
        msg({
          kind: 'tool_results',
          role: 'user',
          content: [
            ...s.tools.map((t) => ({
              type: 'tool_result' as const,
              tool_use_id: `tu${t}`,
              content: `r${n}`,
            })),
            ...(s.note ? [{ type: 'text' as const, text: 'memory changed' }] : []),
          ],
          tools: Object.fromEntries(
            s.tools.map((t) => [`tu${t}`, { name: 'memory', durationMs: 3, isError: false }]),
          ),
        });
        break;
      case 'review':
        out.push({
          t: 'event',
          id: `e${n++}`,
          event: 'review',
          at,
          card: {
            kind: 'review',
            reviewId: `r${s.review}`,
            toolUseId: `tu${s.tool}`,
            command: 'create',
            path: '/memories/a.md',
            before: null,
            after: 'x',
          },
        });
        break;
      case 'reviewed':
        out.push({
          t: 'event',
          id: `e${n++}`,
          event: 'reviewed',
          at,
          card: { kind: 'reviewed', reviewId: `r${s.review}`, outcome: 'approved' },
        });
        break;
      case 'card':
        out.push({
          t: 'event',
          id: `e${n++}`,
          event: 'turn_limit',
          at,
          card: { kind: 'turn_limit', turns: 3 },
        });
        break;
      case 'error': {
        const id = `e${n++}`;
        errors.push(id);
        out.push({
          t: 'event',
          id,
          event: 'error',
          at,
          card: { kind: 'error', errorKind: 'server', message: 'Overloaded.', retryable: true },
        });
        break;
      }
      case 'retried':
        if (errors.length)
          out.push({
            t: 'event',
            id: `e${n++}`,
            event: 'retried',
            at,
            card: { kind: 'retried', errorId: errors[s.error % errors.length]! },
          });
        break;
      case 'pin':
        if (messages.length)
          out.push({ t: 'pin', messageId: messages[s.message % messages.length]!, pinned: true, at });
        break;
      case 'truncate':
        if (messages.length) {
          const from = s.message % messages.length;
          out.push({ t: 'truncate', fromMessageId: messages[from]!, at });
          messages.length = from;
        }
        break;
    }
  }
  return out;
}

/** Every page from `first` out to both ends, put together in order. */
function walk(state: ConversationState, first: Page, limit: number): Page['items'] {
  const items = [...first.items];
  for (let p = first; p.older;) {
    p = pageAt(state, { before: p.older }, limit);
    items.unshift(...p.items);
  }
  for (let p = first; p.newer;) {
    p = pageAt(state, { from: p.newer }, limit);
    items.push(...p.items);
  }
  return items;
}

describe('transcript pages', () => {
  it('put together from the end or around any message, are the full transcript', () => {
    fc.assert(
      fc.property(
        fc.array(step, { maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        fc.nat(),
        (steps, limit, pick) => {
          const state = rebuild(records(steps))!;
          const full = transcript(state);
          const last = lastPage(state, limit);
          expect(walk(state, last, limit)).toEqual(full);
          expect(last.newer).toBeNull();
          // A page has at least `limit` items unless it is the whole conversation.
          if (last.older !== null) expect(last.items.length).toBeGreaterThanOrEqual(limit);
          if (state.entries.length === 0) return;
          const entry = state.entries[pick % state.entries.length]!;
          const around = pageAround(state, entry.record.id, limit);
          expect(walk(state, around, limit)).toEqual(full);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a page ends at whole turns: an earlier call and its later result land in one page', () => {
    const state = rebuild(
      records([
        { op: 'user' },
        { op: 'assistant', text: true, tools: [1] },
        { op: 'user' },
        { op: 'assistant', text: true, tools: [] },
        { op: 'results', tools: [1], note: false },
        { op: 'user' },
        { op: 'assistant', text: true, tools: [] },
      ]),
    )!;
    const page = lastPage(state, 1);
    expect(page.items.map((i) => i.id)).toEqual(['m5', 'm6']);
    const older = pageAt(state, { before: page.older! }, 1);
    // The first two turns are one: the second holds the result of the first's call.
    expect(older.items.map((i) => i.id)).toEqual(['m0', 'm1', 'tool:tu1', 'm2', 'm3']);
    expect(older.items.find((i) => i.kind === 'tool')).toMatchObject({ result: 'r4' });
    expect(older.older).toBeNull();
  });

  it('says clearly when a message to open at is not there', () => {
    const state = rebuild(records([{ op: 'user' }]))!;
    expect(() => pageAround(state, 'nope', 5)).toThrow(/no longer in this conversation/);
    expect(() => pageAt(state, { before: 'nope' }, 5)).toThrow(/no longer in this conversation/);
  });
});
