// Native compaction (the API's compact_20260112 edit) says truthfully what it did, as the local one does:
// its card's sizes are the next request's as it is sent; a compaction that would not make the next request
// smaller is not kept (block and memory given again dropped); and one that cannot get the context under
// the trigger is said once, in the chat and the Context tab, and the edit is left out from then on, so the
// API does not compact, and bill a summary, on every turn.
import { afterEach, describe, expect, it } from 'vitest';
import type { ViewItem } from '../../../shared/projection/items.js';
import { type LoggedRequest, estimateInputTokens, text } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, send, startHarness, validRequests } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type EventItem = Extract<ViewItem, { kind: 'event' }>;

async function cards(harness: Harness, id: string, event: string): Promise<EventItem[]> {
  const { items } = await harness.core.handlers['conversations.get']({ id }, call);
  return items.filter((i): i is EventItem => i.kind === 'event' && i.event === event);
}

const asksToCompact = (r: LoggedRequest): boolean =>
  JSON.stringify(r.body.context_management ?? {}).includes('compact_20260112');
/** Requests the API answered with a compaction block (each one a summary paid for). */
const compacted = (harness: Harness): number =>
  harness.fake
    .messageRequests()
    .filter((r) => JSON.stringify(r.body.messages).includes('"type":"compaction"')).length;

const log = (words: number): string => `Here is my log:\n${'line of a very long log file '.repeat(words)}`;

describe('native compaction', () => {
  it('shows the sizes the next request really has, and the next request is smaller', async () => {
    h = await startHarness({ settings: { compactTrigger: 50_000 } });
    await h.core.ctx.memory.create('/memories/preferences.md', '- Likes green tea.\n', { kind: 'user' });
    h.fake.setCompactionSummary('The user pasted a long log.');
    h.fake.enqueue(text('Noted.'), text('That log looks fine.'));
    const first = await send(h, 'Hello.');
    const id = first.res.conversationId;
    await send(h, log(6_800), id);
    const [card] = await cards(h, id, 'compacted');
    expect(card).toBeDefined();
    const fact = card!.fact as { tokensBefore: number; tokensAfter: number };
    expect(fact.tokensBefore).toBeGreaterThan(50_000);
    expect(fact.tokensAfter).toBeLessThan(fact.tokensBefore);
    // The request right after the compaction holds what the card says (the fake counts as the API does).
    const requests = h.fake.messageRequests();
    const next = requests.find((r) => JSON.stringify(r.body.messages).includes('"type":"compaction"'))!;
    const actual = estimateInputTokens(next.body);
    expect(Math.abs(fact.tokensAfter - actual) / actual).toBeLessThan(0.1);
    expect(await cards(h, id, 'compaction_stuck')).toEqual([]);
    // Under the trigger again: the edit still goes out.
    expect(asksToCompact(requests.at(-1)!)).toBe(true);
  });

  it('drops a compaction that would not make the next request smaller, says so once, and stops asking', async () => {
    h = await startHarness({ settings: { compactTrigger: 50_000 } });
    const bloated = `BLOATED ${'a long and useless summary '.repeat(12_000)}`;
    h.fake.setCompactionSummary(bloated);
    h.fake.enqueue(text('Noted.'), text('Fine.'), text('Still fine.'), text('And again.'));
    const first = await send(h, 'Hello.');
    const id = first.res.conversationId;
    await send(h, log(6_800), id);
    expect(h.fake.messageRequests().filter(asksToCompact).length).toBeGreaterThan(0);
    await send(h, 'And now?', id);
    await send(h, 'And then?', id);

    expect(await cards(h, id, 'compacted')).toEqual([]);
    // The compaction block never went back to the API, and the log is still in the history.
    const last = JSON.stringify(h.fake.messageRequests().at(-1)!.body);
    expect(last).not.toContain('BLOATED');
    expect(last).toContain('line of a very long log file');
    expect(compacted(h)).toBe(0);
    // Said once; from then on the API is not asked to compact (it would, and bill it, every turn).
    const stuck = await cards(h, id, 'compaction_stuck');
    expect(stuck).toHaveLength(1);
    expect(stuck[0]!.text).toBe('Compaction cannot get this conversation under 50k tokens, so it is paused');
    expect(stuck[0]!.detail).toMatch(/raise the trigger in Settings, lower the memory budget/);
    expect(stuck[0]!.detail).not.toContain('kept verbatim');
    const requests = h.fake.messageRequests();
    const paused = requests.slice(requests.findLastIndex(asksToCompact) + 1);
    expect(paused.length).toBeGreaterThanOrEqual(3);
    const usage = await h.core.handlers['context.get']({ conversationId: id }, call);
    expect(usage.compactionPaused).toBe(stuck[0]!.detail);
    expect(validRequests(h.fake)).toBe(requests.length);

    // Raising the trigger is what it asked for: the edit goes out again.
    h.core.ctx.settings.set({ compactTrigger: 200_000 });
    h.fake.enqueue(text('Sure.'));
    await send(h, 'One more.', id);
    expect(asksToCompact(h.fake.messageRequests().at(-1)!)).toBe(true);
  });
});
