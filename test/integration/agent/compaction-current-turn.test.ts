// A threshold compaction (the API's compact_20260112, paused after the block) summarizes everything before
// it, the message being answered included: the API ignores what came before the block. The app gives that
// message again after the summary and the memory, as the user wrote it, so the model answers the request
// and not a paraphrase of it (the fault suite's two processes saw "insert cli-17" answered with "Answer to
// nothing." and no memory call). A message as large as a pasted log stays summarized (given again, it
// would undo the compaction).
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiMessage } from '../../../electron/core/agent/history.js';
import { GIVEN_AGAIN } from '../../../electron/core/agent/history.js';
import { type LoggedRequest, text } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, send, startHarness, validRequests } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const hasBlock = (r: LoggedRequest): boolean =>
  JSON.stringify(r.body.messages).includes('"type":"compaction"');
/** The text blocks of the user messages after the compaction block. */
function textsAfterBlock(r: LoggedRequest): string[] {
  const messages = r.body.messages as ApiMessage[];
  const at = messages.findIndex((m) => JSON.stringify(m.content).includes('"type":"compaction"'));
  return messages
    .slice(at + 1)
    .filter((m) => m.role === 'user' && Array.isArray(m.content))
    .flatMap((m) => (m.content as { type: string; text?: string }[]).filter((b) => b.type === 'text'))
    .map((b) => b.text ?? '');
}

describe('a threshold compaction of the turn being answered', () => {
  it('gives the message again, as written, after the summary and the memory', async () => {
    h = await startHarness({ settings: { compactTrigger: 50_000 } });
    await h.core.ctx.memory.create('/memories/notes.md', '- Likes green tea.\n', { kind: 'user' });
    // A summary that does not quote the request: what the model then knows of it is only what we send.
    h.fake.setCompactionSummary('The user and the assistant talked about a long text.');
    // A long answer fills the context; the next, short message takes the request over the trigger.
    h.fake.enqueue(text(`Here it is: ${'a word of a long answer '.repeat(9_000)}`, { chunkSize: 8_192 }));
    const first = await send(h, 'Write me a long text.');
    const id = first.res.conversationId;
    const request = 'Add pineapple to my shopping list.';
    h.fake.enqueue(text('Added.'));
    const second = await send(h, request, id);
    expect(second.events.find((e) => e.type === 'run.finished')).toMatchObject({ status: 'done' });

    const after = h.fake.messageRequests().filter(hasBlock);
    expect(after.length).toBeGreaterThan(0);
    expect(textsAfterBlock(after[0]!)).toEqual([GIVEN_AGAIN, request]);
    const { items } = await h.core.handlers['conversations.get']({ id }, call);
    // The transcript shows the message once.
    expect(items.filter((i) => i.kind === 'user' && i.text === request)).toHaveLength(1);
    expect(validRequests(h.fake)).toBe(h.fake.messageRequests().length);
  });

  it('leaves a message as large as a pasted log to the summary', async () => {
    h = await startHarness({ settings: { compactTrigger: 50_000 } });
    h.fake.setCompactionSummary('The user pasted a long log.');
    h.fake.enqueue(text('Noted.'), text('That log looks fine.'));
    const first = await send(h, 'Hello.');
    const log = `Here is my log:\n${'line of a very long log file '.repeat(6_800)}`;
    await send(h, log, first.res.conversationId);
    const after = h.fake.messageRequests().filter(hasBlock);
    expect(after.length).toBeGreaterThan(0);
    expect(textsAfterBlock(after[0]!)).toEqual([]);
  });
});
