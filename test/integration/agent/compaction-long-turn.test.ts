// Local compaction of a long last turn: a memory task whose own round trips fill the context (memory reads
// and writes are never cleared) is compacted inside the turn, after a tool result. Its earlier round trips
// become the summary, its last two stay verbatim, and its question is given again as the user wrote it, so
// the task keeps running under the trigger instead of pausing compaction while the context grows.
import { afterEach, describe, expect, it } from 'vitest';
import { GIVEN_AGAIN } from '../../../electron/core/agent/history.js';
import type { ApiMessage } from '../../../electron/core/agent/history.js';
import {
  type LoggedRequest,
  estimateInputTokens,
  text,
  toolUse,
} from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, cardsOf, send, startHarness, validRequests } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const TRIGGER = 12_000;
const TASK = 'Write my 40 recipes into memory, one file each.';
const isSummarizer = (r: LoggedRequest): boolean =>
  typeof r.body.system === 'string' && r.body.system.includes('You summarize');

const RECIPE = (i: number) => `# Recipe ${i}\n${'A mild step of this recipe. '.repeat(300)}\n`;
type Step = (i: number) => ReturnType<typeof toolUse>;
/** A step of the task: a memory write of about two thousand tokens. */
const write: Step = (i) =>
  toolUse({
    name: 'memory',
    input: { command: 'create', path: `/memories/recipes/r${i}.md`, file_text: RECIPE(i) },
  });
/** Or a read of as much: never cleared, as the native edits never clear the memory tool. */
const read: Step = (i) =>
  toolUse({ name: 'memory', input: { command: 'view', path: `/memories/recipes/r${i}.md` } });

async function longTask(step: Step): Promise<string> {
  h = await startHarness({
    settings: {
      contextStrategy: 'local',
      clearTrigger: 3_000,
      clearKeep: 1,
      compactTrigger: TRIGGER,
      maxTurns: 8,
    },
  });
  if (step === read)
    for (let i = 1; i <= 40; i++)
      await h.core.ctx.memory.create(`/memories/recipes/r${i}.md`, RECIPE(i), { kind: 'user' });
  h.fake.rule((r) => (isSummarizer(r) ? text('SUMMARY: recipes being written to memory.') : undefined));
  h.fake.enqueue(
    toolUse({
      name: 'memory',
      input: { command: 'create', path: '/memories/food.md', file_text: "- Doesn't like spicy food.\n" },
    }),
    text('Noted.'),
  );
  const first = await send(h, "Remember this: I don't like spicy food");
  const id = first.res.conversationId;
  for (let i = 1; i <= 40; i++) h.fake.enqueue(step(i));
  const task = await send(h, TASK, id);
  expect(task.events.find((e) => e.type === 'run.finished')).toMatchObject({ status: 'turn_limit' });
  return id;
}

describe('local compaction of a long last turn', () => {
  it('cuts inside the turn and keeps every request under the trigger', async () => {
    const id = await longTask(write);
    const harness = h!;
    expect(cardsOf(harness.events, 'compaction_stuck')).toEqual([]);
    const [card] = cardsOf(harness.events, 'compacted');
    expect(card!.tokensBefore).toBeGreaterThan(TRIGGER);
    expect(card!.tokensAfter).toBeLessThan(TRIGGER);
    const requests = harness.fake.messageRequests();
    const next = requests[requests.findIndex(isSummarizer) + 1]!;
    const actual = estimateInputTokens(next.body);
    expect(Math.abs(card!.tokensAfter - actual) / actual).toBeLessThan(0.1);
    for (const r of requests) expect(estimateInputTokens(r.body)).toBeLessThanOrEqual(TRIGGER);
    expect(validRequests(harness.fake)).toBe(requests.length);

    // After the summary and the memory: the question as written, then the last two round trips.
    const messages = next.body.messages as ApiMessage[];
    const asked = messages.findIndex((m) => JSON.stringify(m.content).includes(GIVEN_AGAIN));
    const blocks = messages[asked]!.content as { type: string; text?: string }[];
    expect(blocks.filter((b) => b.type === 'text').map((b) => b.text)).toEqual([GIVEN_AGAIN, TASK]);
    const tail = messages.slice(asked + 1);
    expect(tail.map((m) => [m.role, (m.content as { type: string }[])[0]!.type])).toEqual([
      ['assistant', 'tool_use'],
      ['user', 'tool_result'],
      ['assistant', 'tool_use'],
      ['user', 'tool_result'],
    ]);
    // The earlier turn, the task and its first steps are in the summary, not repeated.
    expect(JSON.stringify(messages)).not.toContain('Remember this');

    // The card, before the turn-limit card, as the conversation shows it and after a restart.
    for (const reload of [false, true]) {
      if (reload) await harness.restart();
      const { items } = await harness.core.handlers['conversations.get']({ id }, call);
      const events = items.flatMap((i) => (i.kind === 'event' ? [i] : []));
      const compacted = events.findIndex((e) => e.event === 'compacted');
      expect(compacted).toBeGreaterThanOrEqual(0);
      expect(compacted).toBeLessThan(events.findIndex((e) => e.event === 'turn_limit'));
      expect(events[compacted]!.text).toMatch(/^Compacted \d+ earlier messages · 12k → [\d.]+k tokens$/);
    }
  });

  it('also when the task reads the memory', async () => {
    await longTask(read);
    const harness = h!;
    expect(cardsOf(harness.events, 'compaction_stuck')).toEqual([]);
    const [card] = cardsOf(harness.events, 'compacted');
    expect(card!.tokensBefore).toBeGreaterThan(TRIGGER);
    expect(card!.tokensAfter).toBeLessThan(TRIGGER);
    const requests = harness.fake.messageRequests();
    for (const r of requests) expect(estimateInputTokens(r.body)).toBeLessThanOrEqual(TRIGGER);
    expect(validRequests(harness.fake)).toBe(requests.length);
  });
});
