// Local compaction that helps and says so truthfully: the card's sizes are the next request's as it is
// sent; a summary that would not make the next request smaller is discarded; and when nothing a summary
// can do gets the context under the trigger (the memory given again, pinned messages, the kept turns), the
// app says so once, in the chat and the Context tab, and stops paying for a summary on every turn.
import { afterEach, describe, expect, it } from 'vitest';
import type { ViewItem } from '../../../shared/projection/items.js';
import {
  type LoggedRequest,
  estimateInputTokens,
  text,
  toolUse,
} from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, send, startHarness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const isSummarizer = (r: LoggedRequest): boolean =>
  typeof r.body.system === 'string' && r.body.system.includes('You summarize');
const summarizerCalls = (harness: Harness): number =>
  harness.fake.messageRequests().filter(isSummarizer).length;

async function cards(
  harness: Harness,
  id: string,
  event: string,
): Promise<Extract<ViewItem, { kind: 'event' }>[]> {
  const { items } = await harness.core.handlers['conversations.get']({ id }, call);
  return items.filter(
    (i): i is Extract<ViewItem, { kind: 'event' }> => i.kind === 'event' && i.event === event,
  );
}

/** A conversation of `turns` long messages after a first one; returns its id. */
async function talk(harness: Harness, turns: number, words = 400): Promise<string> {
  const { res } = await send(harness, 'Hello.');
  for (let i = 0; i < turns; i++)
    await send(harness, `Topic ${i}: ${'words '.repeat(words)}`, res.conversationId);
  return res.conversationId;
}

describe('local compaction', () => {
  it('shows the sizes the next request really has, and the next request is smaller', async () => {
    h = await startHarness({
      settings: { contextStrategy: 'local', compactTrigger: 3_000, clearTrigger: 1_000_000 },
    });
    await h.core.ctx.memory.create('/memories/preferences.md', '- Answers in French.\n', { kind: 'user' });
    h.fake.rule((r) => (isSummarizer(r) ? text('SUMMARY: several long topics.') : undefined));
    const id = await talk(h, 4, 600);
    const [card] = await cards(h, id, 'compacted');
    expect(card).toBeDefined();
    const fact = card!.fact as { tokensBefore: number; tokensAfter: number };
    expect(fact.tokensAfter).toBeLessThan(fact.tokensBefore);
    // The request right after the summary holds what the card says (the fake counts as the API does).
    const requests = h.fake.messageRequests();
    const next = requests[requests.findIndex(isSummarizer) + 1]!;
    const actual = estimateInputTokens(next.body);
    expect(Math.abs(fact.tokensAfter - actual) / actual).toBeLessThan(0.1);
    expect(card!.text).toMatch(/^Compacted \d+ earlier messages · [\d.]+k? → [\d.]+k? tokens$/);
    expect(await cards(h, id, 'compaction_stuck')).toEqual([]);
  });

  it('in a long task (kept replies measured before the summary), too', async () => {
    h = await startHarness({
      settings: { contextStrategy: 'local', compactTrigger: 4_000, clearTrigger: 1_000_000 },
    });
    const lines = Array.from({ length: 300 }, (_, i) => `apple ${i}: ${'crisp and sweet '.repeat(3)}`);
    await h.core.ctx.memory.create('/memories/fruit.md', `${lines.join('\n')}\n`, { kind: 'user' });
    h.fake.rule((r) => (isSummarizer(r) ? text('SUMMARY: searched for apples.') : undefined));
    const search = () => toolUse({ name: 'memory_search', input: { query: 'apple', limit: 40 } });
    h.fake.enqueue(search(), search(), search(), search(), search(), search(), text('Many apples.'));
    const { res } = await send(h, 'Search for apples six times.');
    const [card] = await cards(h, res.conversationId, 'compacted');
    expect(card).toBeDefined();
    const fact = card!.fact as { tokensBefore: number; tokensAfter: number };
    const requests = h.fake.messageRequests();
    const actual = estimateInputTokens(requests[requests.findIndex(isSummarizer) + 1]!.body);
    expect(fact.tokensAfter).toBeLessThan(fact.tokensBefore);
    expect(Math.abs(fact.tokensAfter - actual) / actual).toBeLessThan(0.1);
  });

  it('discards a summary that would not make the next request smaller, says so once, and stops asking', async () => {
    h = await startHarness({
      settings: { contextStrategy: 'local', compactTrigger: 3_000, clearTrigger: 1_000_000 },
    });
    const bloated = `BLOATED ${'a long and useless summary '.repeat(800)}`;
    h.fake.rule((r) => (isSummarizer(r) ? text(bloated) : undefined));
    const id = await talk(h, 5);
    expect(await cards(h, id, 'compacted')).toEqual([]);
    expect(
      JSON.stringify(
        h.fake
          .messageRequests()
          .filter((r) => !isSummarizer(r))
          .at(-1)!.body,
      ),
    ).not.toContain('BLOATED');
    // One summary was paid for, not one per turn, and the chat says why once.
    expect(summarizerCalls(h)).toBe(1);
    const stuck = await cards(h, id, 'compaction_stuck');
    expect(stuck).toHaveLength(1);
    expect(stuck[0]!.detail).toMatch(/raise the trigger in Settings, lower the memory budget/);
  });

  it('when the memory given again is already over the trigger: one summary, one notice, shown in the Context tab', async () => {
    h = await startHarness({
      settings: { contextStrategy: 'local', compactTrigger: 1_000, clearTrigger: 1_000_000 },
    });
    const notes = Array.from({ length: 120 }, (_, i) => `- Fact ${i}: ${'detail '.repeat(4)}`).join('\n');
    await h.core.ctx.memory.create('/memories/facts.md', `${notes}\n`, { kind: 'user' });
    h.fake.rule((r) => (isSummarizer(r) ? text('SUMMARY.') : undefined));
    const id = await talk(h, 3, 50);
    // The first compaction helped (the turns before it are a summary now), then compaction paused.
    expect(await cards(h, id, 'compacted')).toHaveLength(1);
    expect(summarizerCalls(h)).toBe(1);
    const stuck = await cards(h, id, 'compaction_stuck');
    expect(stuck).toHaveLength(1);
    expect(stuck[0]!.text).toBe('Compaction cannot get this conversation under 1k tokens, so it is paused');
    expect(stuck[0]!.detail).toMatch(/^Even compacted, the memory given again \([\d.]+k? tokens\)/);
    const usage = await h.core.handlers['context.get']({ conversationId: id }, call);
    expect(usage.compactionPaused).toBe(stuck[0]!.detail);

    // Raising the trigger is what it asked for: compaction is no longer paused.
    h.core.ctx.settings.set({ compactTrigger: 100_000 });
    expect(
      (await h.core.handlers['context.get']({ conversationId: id }, call)).compactionPaused,
    ).toBeUndefined();
  });
});
