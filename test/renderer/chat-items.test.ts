// The chat's event handling as a pure function: seq dedupe, gaps held back for a re-attach, replays after a
// reload that apply only what the transcript's seq does not cover, and the card texts
// (shared/projection/cards.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/channels/chat';
import { applyRunEvents, type ChatItem, type ChatModel } from '../../renderer/store/chat-items';
import { backfillLabel, clearedLabel, compactedLabel } from '../../shared/projection/cards';

type Input = RunEvent extends infer T
  ? T extends unknown
    ? Omit<T, 'runId' | 'conversationId' | 'seq'>
    : never
  : never;

function script(inputs: Input[], runId = 'r1'): RunEvent[] {
  return inputs.map((e, i) => ({ ...e, runId, conversationId: 'c1', seq: i + 1 }) as RunEvent);
}

const empty: ChatModel = { items: [], runs: {}, activeRunId: null };

const answer = script([
  { type: 'run.started', userMessageId: 'u1' },
  {
    type: 'card',
    id: 'e1',
    card: {
      kind: 'backfill',
      files: [
        { path: '/memories/a.md', tokens: 120 },
        { path: '/memories/b.md', tokens: 100 },
        { path: '/memories/c.md', tokens: 200 },
      ],
      totalFiles: 3,
      tokens: 420,
    },
  },
  { type: 'text.delta', messageId: 'a1', text: 'Hello ' },
  { type: 'text.delta', messageId: 'a1', text: 'world' },
  {
    type: 'tool.call',
    toolUseId: 't1',
    name: 'memory',
    input: { command: 'view', path: '/memories' },
    turn: 1,
  },
  { type: 'tool.result', toolUseId: 't1', name: 'memory', result: 'a.md', isError: false, durationMs: 4 },
  { type: 'message.done', messageId: 'a1', interrupted: false },
  { type: 'run.finished', status: 'done' },
]);

describe('applyRunEvents', () => {
  it('builds the answer, the cards and the tool call from a run', () => {
    const { model, gaps } = applyRunEvents(empty, answer);
    expect(gaps).toEqual([]);
    expect(model.items.map((i) => i.kind)).toEqual(['event', 'assistant', 'tool']);
    const text = model.items.find((i) => i.kind === 'assistant');
    expect(text).toMatchObject({ text: 'Hello world', streaming: false, interrupted: false });
    expect(model.items[0]).toMatchObject({ event: 'backfill', text: 'Loaded 3 memory files · 420 tokens' });
    expect(model.items[2]).toMatchObject({ result: 'a.md', durationMs: 4, isError: false });
    expect(model.runs.r1).toMatchObject({ lastSeq: 8, status: 'done', userMessageId: 'u1' });
    expect(model.activeRunId).toBeNull();
  });

  it('ignores events it has already applied (any number of duplicates, in any batch)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: answer.length - 1 }), { maxLength: 30 }),
        fc.integer({ min: 1, max: answer.length }),
        (dupes, split) => {
          // Deliver the script in two batches, with earlier events repeated in between.
          const first = applyRunEvents(empty, answer.slice(0, split)).model;
          const replays = dupes.filter((d) => d < split).map((d) => answer[d]!);
          const second = applyRunEvents(first, [...replays, ...answer.slice(split), ...answer]).model;
          const once = applyRunEvents(empty, answer).model;
          expect(second.items).toEqual(once.items);
          expect(second.runs).toEqual(once.runs);
        },
      ),
    );
  });

  it('holds back events after a gap and reports where to re-attach from', () => {
    const first = applyRunEvents(empty, answer.slice(0, 3)).model;
    const result = applyRunEvents(first, [answer[5]!, answer[6]!]);
    expect(result.gaps).toEqual([{ runId: 'r1', afterSeq: 3 }]);
    expect(result.model.items).toEqual(first.items);
    // The re-attach delivers everything after seq 3; the result is the same as without the gap.
    const healed = applyRunEvents(result.model, answer.slice(3)).model;
    expect(healed.items).toEqual(applyRunEvents(empty, answer).model.items);
  });

  it('a reloaded window given the records a seq covers applies only the events after it, once', () => {
    const transcript: ChatItem[] = [
      { kind: 'user', id: 'u1', text: 'Hi', pinned: false },
      {
        kind: 'event',
        id: 'e1',
        event: 'backfill',
        text: 'Loaded 3 memory files · 420 tokens',
      },
      {
        kind: 'assistant',
        id: 'a1',
        text: 'Hello world',
        pinned: true,
        interrupted: false,
        streaming: false,
      },
      {
        kind: 'tool',
        id: 'tool:t1',
        toolUseId: 't1',
        name: 'memory',
        input: { command: 'view', path: '/memories' },
        result: 'a.md',
        isError: false,
        durationMs: 4,
        at: 'x',
      },
    ];
    // The reload's transcript covers every event (its run's saved seq is the last): a replay of them all
    // (a re-attach from 0) changes nothing, and applying them past that seq would be a bug, not a no-op.
    const covered = answer.at(-1)!.seq;
    const model: ChatModel = {
      ...empty,
      items: transcript,
      runs: {
        r1: { runId: 'r1', conversationId: 'c1', lastSeq: covered, status: 'running', userMessageId: null },
      },
    };
    const { model: after } = applyRunEvents(model, answer);
    expect(after.items).toEqual(transcript);
    expect(() => applyRunEvents({ ...empty, items: transcript }, answer)).toThrow(/applied twice/);
  });

  it('a reload mid-answer shows the streamed text once, then continues it', () => {
    const model: ChatModel = { ...empty, items: [{ kind: 'user', id: 'u1', text: 'Hi', pinned: false }] };
    const replay = applyRunEvents(model, answer.slice(0, 4)).model;
    expect(replay.items.filter((i) => i.kind === 'assistant')).toMatchObject([
      { text: 'Hello world', streaming: true },
    ]);
    expect(replay.activeRunId).toBe('r1');
    const live = applyRunEvents(replay, answer.slice(2)).model;
    expect(live.items.filter((i) => i.kind === 'assistant')).toMatchObject([
      { text: 'Hello world', streaming: false },
    ]);
  });

  it('gives the optimistic user item its real id when the run starts', () => {
    const model: ChatModel = {
      ...empty,
      items: [{ kind: 'user', id: 'pending:1', text: 'Hi', pinned: false, pending: true }],
    };
    const { model: after } = applyRunEvents(model, answer.slice(0, 1));
    expect(after.items).toStrictEqual([{ kind: 'user', id: 'u1', text: 'Hi', pinned: false }]);
  });

  it('an aborted run leaves the partial answer marked as stopped', () => {
    const events = script([
      { type: 'run.started', userMessageId: 'u1' },
      { type: 'text.delta', messageId: 'a1', text: 'Half' },
      { type: 'run.finished', status: 'aborted' },
    ]);
    const { model } = applyRunEvents(empty, events);
    expect(model.items).toMatchObject([
      { kind: 'assistant', text: 'Half', streaming: false, interrupted: true },
    ]);
    expect(model.activeRunId).toBeNull();
  });

  it('turns errors, reviews, clearing, compaction and the turn limit into cards', () => {
    const events = script([
      { type: 'run.started', userMessageId: 'u1' },
      {
        type: 'card',
        id: 'c1',
        card: {
          kind: 'cleared',
          strategy: 'native',
          count: 5,
          tokens: 8200,
          tokensBefore: 90_000,
          tokensAfter: 81_800,
        },
      },
      {
        type: 'card',
        id: 'c2',
        card: {
          kind: 'compacted',
          strategy: 'local',
          summary: 'We planned dinner.',
          messages: 14,
          tokensBefore: 41_000,
          tokensAfter: 3_000,
        },
      },
      {
        type: 'review.request',
        reviewId: 'rv1',
        toolUseId: 't9',
        command: 'create',
        path: '/memories/p.md',
        before: null,
        after: '- tea',
      },
      { type: 'review.resolved', reviewId: 'rv1', outcome: 'rejected' },
      { type: 'card', id: 'c3', card: { kind: 'turn_limit', turns: 25 } },
      {
        type: 'card',
        id: 'c4',
        card: { kind: 'error', errorKind: 'overloaded', message: 'The API is overloaded.', retryable: true },
      },
      { type: 'run.finished', status: 'error' },
    ]);
    const { model } = applyRunEvents(empty, events);
    expect(model.items.map((i) => [i.kind, 'text' in i ? i.text : null])).toEqual([
      ['event', 'Cleared 5 old tool results · 8.2k tokens'],
      ['event', 'Compacted 14 earlier messages · 41k → 3k tokens'],
      ['review', null],
      ['event', 'Stopped after 25 tool turns. Send a message to continue.'],
      ['error', null],
    ]);
    expect(model.items[2]).toMatchObject({ outcome: 'rejected', after: '- tea' });
    expect(model.items[4]).toMatchObject({ errorKind: 'overloaded', retryable: true });
  });
});

describe('card texts', () => {
  it.each([
    [backfillLabel(1, 1, 420), 'Loaded 1 memory file · 420 tokens'],
    [backfillLabel(3, 3, 1_250), 'Loaded 3 memory files · 1.3k tokens'],
    [backfillLabel(2, 5, 41_000), 'Loaded 2 of 5 memory files · 41k tokens'],
    [clearedLabel(1, 999), 'Cleared 1 old tool result · 999 tokens'],
    [compactedLabel(2, 150_000, 12_345), 'Compacted 2 earlier messages · 150k → 12.3k tokens'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});
