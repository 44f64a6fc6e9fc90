// An error and its Retry, live and after a reload (issue 14): the error card is stored, so it is there
// after a restart; a Retry takes it away in the window (retryItems) and in the stored turn (a `retried`
// fact, or the truncation of an answer cut off by the error) alike, so the window after the retry and the
// transcript after a reload are deep-equal.
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../shared/channels/chat.js';
import type { ViewItem } from '../../../shared/projection/items.js';
import { applyEvents, retryItems } from '../../../shared/projection/project.js';
import { midStreamError, serverError, text } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, startHarness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const wire = (items: readonly ViewItem[]): unknown => JSON.parse(JSON.stringify(items));

async function items(harness: Harness, id: string): Promise<ViewItem[]> {
  return (await harness.core.handlers['conversations.get']({ id }, call)).items;
}

/** A failed first turn: the window's items live (from the run's events) and the conversation's id. */
async function failed(harness: Harness): Promise<{ live: ViewItem[]; id: string }> {
  const res = await harness.core.handlers['chat.send']({ text: 'hello?', memory: true }, call);
  const events: RunEvent[] = await harness.finished(res.runId);
  const window: ViewItem[] = [
    { kind: 'user', id: 'pending:1', text: 'hello?', pinned: false, pending: true },
  ];
  return { live: applyEvents(window, events), id: res.conversationId };
}

/** Retry as the window does: its items as Retry leaves them, then the new run's events. */
async function retry(harness: Harness, id: string, window: ViewItem[]): Promise<ViewItem[]> {
  const res = await harness.core.handlers['chat.retry']({ conversationId: id }, call);
  return applyEvents(retryItems(window), await harness.finished(res.runId));
}

describe('an error card', () => {
  it('is there after a restart, and a Retry takes it away live and stored alike', async () => {
    h = await startHarness();
    h.fake.enqueue(serverError(), serverError(), serverError());
    const { live, id } = await failed(h);
    expect(live.at(-1)).toMatchObject({ kind: 'error', errorKind: 'server', retryable: true });
    await h.restart();
    const reloaded = await items(h, id);
    expect(wire(reloaded)).toStrictEqual(wire(live));

    h.fake.enqueue(text('Here it is.'));
    const after = await retry(h, id, reloaded);
    expect(after.map((i) => i.kind)).toEqual(['user', 'assistant']);
    expect(wire(await items(h, id))).toStrictEqual(wire(after));
    await h.restart();
    expect(wire(await items(h, id))).toStrictEqual(wire(after));
  });

  it('after an answer cut off by the error: the Retry drops both, live and stored alike', async () => {
    h = await startHarness();
    h.fake.enqueue(midStreamError({ afterEvents: 4, message: 'Overloaded' }));
    const { live, id } = await failed(h);
    expect(live.map((i) => i.kind)).toEqual(['user', 'assistant', 'error']);
    expect(live[1]).toMatchObject({ interrupted: true });
    expect(wire(await items(h, id))).toStrictEqual(wire(live));

    h.fake.enqueue(text('The whole answer.'));
    const after = await retry(h, id, live);
    expect(after.map((i) => (i as { text?: string }).text ?? i.kind)).toEqual([
      'hello?',
      'The whole answer.',
    ]);
    expect(wire(await items(h, id))).toStrictEqual(wire(after));
  });
});
