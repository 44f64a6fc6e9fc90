// Pages of a transcript (electron/core/conversations/pages.ts): for any conversation, walking its pages
// from the end (or out from any message) and putting them together gives exactly its full transcript, so
// where a window cuts the conversation never changes an item. The generator makes what moves items
// across turns: tool results and review cards for calls of earlier turns, the retry of an earlier error,
// repeated ids, truncations.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lastPage, pageAround, pageAt, type Page } from '../../../electron/core/conversations/pages.js';
import { applyRecord, type ConversationState, rebuild } from '../../../electron/core/conversations/state.js';
import { transcript } from '../../../electron/core/conversations/transcript.js';
import { records, step } from './transcript-steps.js';

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

  it('before a cursor that a record stored since joined to earlier turns: that turn whole, no gap', () => {
    // A crash left m1's call unanswered; two questions later its result is stored (recover.ts).
    const state = rebuild(
      records([
        { op: 'user' },
        { op: 'assistant', text: true, tools: [1] },
        { op: 'user' },
        { op: 'assistant', text: true, tools: [] },
        { op: 'user' },
        { op: 'assistant', text: true, tools: [] },
      ]),
    )!;
    const shown = lastPage(state, 2);
    expect(shown.items.map((i) => i.id)).toEqual(['m4', 'm5']);
    for (const r of records([{ op: 'results', tools: [1], note: false }], 'later-')) applyRecord(state, r);
    const older = pageAt(state, { before: shown.older! }, 2);
    // The page ends with the turn m4 is now in, whole: the window replaces its items up to `newer`.
    expect(older.items).toEqual(transcript(state));
    expect(older.items.find((i) => i.kind === 'tool')).toMatchObject({ result: 'r0' });
    expect(older).toMatchObject({ older: null, newer: null });
  });

  it('says clearly when a message to open at is not there', () => {
    const state = rebuild(records([{ op: 'user' }]))!;
    expect(() => pageAround(state, 'nope', 5)).toThrow(/no longer in this conversation/);
    expect(() => pageAt(state, { before: 'nope' }, 5)).toThrow(/no longer in this conversation/);
  });
});
