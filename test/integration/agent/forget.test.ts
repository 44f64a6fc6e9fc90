// "Forget permanently" keeps its promise: after forgetting a file that reached two conversations by every
// path (backfill, view, str_replace, memory_search, a note about an outside edit, a local summary, the
// model's own words, a rename), nothing of it is left in the data folder (every file, raw bytes), the
// search indexes do not find it, and continuing either conversation through the real backend sends
// "[forgotten by the user]" in its place, before and after a restart.
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getAgent } from '../../../electron/core/agent/index.js';
import { FORGOTTEN } from '../../../electron/core/conversations/redact.js';
import { text } from '../../fixtures/fake-anthropic/index.js';
import {
  PASSAGES,
  SECRET,
  UNRELATED,
  V1,
  expectForgottenEverywhere,
  filesHolding,
  seedConversations,
} from './forget-support.js';
import { type Harness, call, requestText, send, startHarness, validRequests } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function expectContinuesRedacted(h: Harness, id: string): Promise<void> {
  h.fake.enqueue(text('Understood.'));
  await send(h, 'Please continue', id);
  const sent = requestText(h.fake.lastMessageRequest().body);
  expect(sent).toContain(FORGOTTEN);
  for (const p of [...PASSAGES, SECRET]) expect(sent).not.toContain(p);
}

describe('forget permanently', () => {
  it('erases every copy from conversations, indexes and logs; continuing sends the marker', async () => {
    h = await startHarness({ settings: { contextStrategy: 'local' } });
    const { a, b } = await seedConversations(h);
    // The copies are there before (the test can fail).
    expect((await filesHolding(h.dataDir, PASSAGES)).some((f) => f.startsWith('conversations/'))).toBe(true);
    const before = await h.core.handlers['conversations.search']({ query: 'lisinopril' }, call);
    expect(before.results.length).toBeGreaterThan(0);
    // The recall index, saved: its files hold the word too, until the forget.
    const recallFiles = path.join(h.dataDir, 'conversations', '.recall-index');
    const recallText = async () =>
      (
        await Promise.all(
          (await readdir(recallFiles)).map((f) => readFile(path.join(recallFiles, f), 'utf8')),
        )
      ).join('\n');
    await getAgent(h.core.ctx).recall.save();
    expect(await recallText()).toContain('lisinopril');

    await h.core.handlers['memory.forget']({ path: '/memories/medical/health.md' }, call);
    // Forgotten from the index's files before the forget answered.
    expect(await recallText()).not.toContain('lisinopril');

    await expectForgottenEverywhere(h.dataDir);
    const search = await h.core.handlers['memory.search']({ query: 'lisinopril', limit: 20 }, call);
    expect(search.hits).toEqual([]);
    const conversations = await h.core.handlers['conversations.search']({ query: 'lisinopril' }, call);
    expect(conversations.results).toEqual([]);
    // The unrelated file and what was said about it stay.
    expect((await h.core.ctx.memory.read('/memories/garden.md')).content).toContain(UNRELATED);
    const shown = await h.core.handlers['conversations.get']({ id: a }, call);
    expect(JSON.stringify(shown)).toContain(UNRELATED);

    await expectContinuesRedacted(h, a);
    await expectContinuesRedacted(h, b);
    await h.restart();
    await expectForgottenEverywhere(h.dataDir);
    await expectContinuesRedacted(h, a);
    expect(validRequests(h.fake)).toBe(h.fake.messageRequests().length);
  });

  it('a forget whose conversation part fails says so, stays pending and is finished at the next start', async () => {
    h = await startHarness({ settings: { contextStrategy: 'local' } });
    const { a } = await seedConversations(h);
    // A folder where the redaction's temp file must go: the rewrite of conversation A fails.
    const blocker = path.join(h.dataDir, 'conversations', `.${a}.jsonl.redact-${process.pid}`);
    await mkdir(blocker);
    await expect(
      h.core.handlers['memory.forget']({ path: '/memories/medical/health.md' }, call),
    ).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('next time the app starts'),
    });
    expect(await readdir(path.join(h.dataDir, 'memory-journal', 'forget-pending'))).toHaveLength(1);
    await rm(blocker, { recursive: true });
    await h.restart();
    await expectForgottenEverywhere(h.dataDir);
    expect(await readdir(path.join(h.dataDir, 'memory-journal', 'forget-pending'))).toEqual([]);
    await expectContinuesRedacted(h, a);
  });

  it('summaries the API wrote that quote the file: both compactions are redacted, requests stay valid', async () => {
    h = await startHarness({ settings: { compactTrigger: 50_000 } });
    await h.core.ctx.memory.create('/memories/health.md', V1, { kind: 'user' });
    h.fake.setCompactionSummary(`The user is ${PASSAGES[0]}; they talked about their logs.`);
    // A threshold compaction (the block leads a reply) in A, an on-demand one (Compact now) in B.
    h.fake.enqueue(text('Noted.'), text('Answer one.'));
    const a = (await send(h, `Here is my log:\n${'line of a very long log file '.repeat(6_800)}`)).res
      .conversationId;
    const b = (await send(h, 'Question one')).res.conversationId;
    const compact = await h.core.handlers['context.compact']({ conversationId: b }, call);
    await h.finished(compact.runId);
    expect(
      (await filesHolding(h.dataDir, [PASSAGES[0]!])).filter((f) => f.startsWith('conversations/')),
    ).toHaveLength(2);

    await h.core.handlers['memory.forget']({ path: '/memories/health.md' }, call);
    expect(await filesHolding(h.dataDir, [...PASSAGES, SECRET])).toEqual([]);
    await expectContinuesRedacted(h, a);
    // The threshold block still leads (its text redacted, its opaque part dropped).
    const first = h.fake.lastMessageRequest().body.messages[0].content[0];
    expect(first).toMatchObject({ type: 'compaction', content: expect.stringContaining(FORGOTTEN) });
    await expectContinuesRedacted(h, b);
    await h.restart();
    await expectContinuesRedacted(h, a);
    expect(validRequests(h.fake)).toBe(h.fake.messageRequests().length);
  });
});
