// A window paging a conversation that grows while it is open in the middle (issue 14, item 5): the real
// pager (electron/core/conversations/pages.ts over a real state) and the window's own step
// (shared/projection/page-merge.ts, what the chat slice does with each page). Records stored since the
// window opened can join turns it holds to later ones (a call's result stored after the user's next
// message, recover.ts; a review under an earlier call; its outcome): a turn then starts before the one
// the window's cursors named, possibly before its first item. Whatever the window loads in whatever
// order, it never loses an item it showed nor shows one twice, and once it has loaded out to both ends it
// shows exactly the full transcript.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageAround, pageAt } from '../../../electron/core/conversations/pages.js';
import { applyRecord, type ConversationState, rebuild } from '../../../electron/core/conversations/state.js';
import { transcript } from '../../../electron/core/conversations/transcript.js';
import { type Paged, mergePage } from '../../../shared/projection/page-merge.js';
import { records, type Step } from './transcript-steps.js';

const SIZE = 20;
let state: ConversationState;
type Item = ReturnType<typeof transcript>[number];
let window: Paged<Item>;

/** A turn: a question, an answer that may call tools (ids unique in the conversation), maybe their results. */
const turn = fc.record({
  text: fc.boolean(),
  calls: fc.nat({ max: 2 }),
  answered: fc.boolean(),
  card: fc.boolean(),
});
type Turn = { text: boolean; calls: number; answered: boolean; card: boolean };
function conversation(turns: Turn[]): { steps: Step[]; calls: number } {
  const steps: Step[] = [];
  let calls = 0;
  for (const t of turns) {
    const tools = Array.from({ length: t.calls }, () => calls++);
    steps.push({ op: 'user' }, { op: 'assistant', text: t.text || tools.length === 0, tools });
    if (t.answered && tools.length) steps.push({ op: 'results', tools, note: false });
    if (t.card) steps.push({ op: 'card' });
  }
  return { steps, calls };
}

/**
 * What is stored while the window is open: new turns, and records that change an item of an earlier
 * turn (a call's result, a review under a call, its outcome), which join the turns in between.
 */
const stored = (calls: number): fc.Arbitrary<Step[]> => {
  const call = fc.nat({ max: Math.max(0, calls - 1) });
  return fc.array(
    fc.oneof(
      fc.constant<Step>({ op: 'user' }),
      fc.constant<Step>({ op: 'assistant', text: true, tools: [] }),
      fc.record({
        op: fc.constant('results' as const),
        tools: fc.array(call, { minLength: 1, maxLength: 2 }),
        note: fc.boolean(),
      }),
      fc.record({ op: fc.constant('review' as const), tool: call, review: fc.nat({ max: 3 }) }),
      fc.record({ op: fc.constant('reviewed' as const), review: fc.nat({ max: 3 }) }),
      fc.constant<Step>({ op: 'card' }),
    ),
    { minLength: 1, maxLength: 6 },
  );
};

type Action = { do: 'older' } | { do: 'newer' } | { do: 'store'; steps: Step[] };
const action = (calls: number): fc.Arbitrary<Action> =>
  fc.oneof(
    fc.constant<Action>({ do: 'older' }),
    fc.constant<Action>({ do: 'newer' }),
    fc.record({ do: fc.constant('store' as const), steps: stored(calls) }),
  );

/** Loads a page as the chat slice does, and checks that the window lost nothing and repeats nothing. */
function load(direction: 'older' | 'newer'): void {
  const cursor = window[direction];
  if (cursor === null) return;
  const page = pageAt(state, direction === 'older' ? { before: cursor } : { from: cursor }, SIZE);
  const before = window.items.map((i) => i.id);
  window = mergePage(window, direction, cursor, page);
  const after = window.items.map((i) => i.id);
  expect(new Set(after).size).toBe(after.length);
  expect(after).toEqual(expect.arrayContaining(before));
}

describe('paging a conversation that grows while it is open in the middle', () => {
  it('loaded in any order never loses or repeats an item, and out to both ends is the full transcript', () => {
    fc.assert(
      fc.property(
        fc
          .array(turn, { minLength: SIZE, maxLength: 4 * SIZE })
          .map(conversation)
          .chain(({ steps, calls }) =>
            fc.tuple(fc.constant(steps), fc.nat(), fc.array(action(calls), { maxLength: 12 })),
          ),
        ([steps, pick, actions]) => {
          state = rebuild(records(steps))!;
          const users = state.entries.filter((e) => e.type === 'msg' && e.record.kind === 'user');
          // Opened at a message (a search hit), as the handler does it.
          window = pageAround(state, users[pick % users.length]!.record.id, SIZE);
          let batch = 0;
          for (const a of actions) {
            // A window at the end gets what is stored next as a live run's events: not this test's.
            if (a.do !== 'store') load(a.do);
            else if (window.newer !== null)
              for (const r of records(a.steps, `s${batch++}-`)) applyRecord(state, r);
          }
          while (window.newer !== null) load('newer');
          while (window.older !== null) load('older');
          expect(window.items).toEqual(transcript(state));
        },
      ),
      { numRuns: 300 },
    );
  });
});
