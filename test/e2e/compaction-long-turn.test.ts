// A long memory task under local compaction, in Chromium against browser mode: with a trigger of 12k
// tokens, a task whose own round trips fill the context is compacted inside its turn (its earlier round
// trips summarized, its question given again), so the chat shows a compaction with its sizes before the
// turn-limit card, not a notice that compaction is paused, live and after a reload.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { text, toolUse } from '../fixtures/fake-anthropic/index.js';
import { tempDataDir } from './support/app-server.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';

const dataDir = tempDataDir();
mkdirSync(dataDir, { recursive: true, mode: 0o700 });
writeFileSync(
  path.join(dataDir, 'config.json'),
  JSON.stringify({
    contextStrategy: 'local',
    clearTrigger: 3000,
    clearKeep: 1,
    compactTrigger: 12000,
    maxTurns: 8,
  }),
);
const e2e = useE2EApp({ dataDir });
const poll = { timeout: 20_000, interval: 50 };

/** A step of the task: a memory write of about two thousand tokens. */
const step = (i: number) =>
  toolUse({
    name: 'memory',
    input: {
      command: 'create',
      path: `/memories/recipes/r${i}.md`,
      file_text: `# Recipe ${i}\n${'A mild step of this recipe. '.repeat(300)}\n`,
    },
  });

const COMPACTED = /^Compacted \d+ earlier messages · ([\d.]+)k → ([\d.]+)k tokens$/;
const TURN_LIMIT = 'Stopped after 8 tool turns. Send a message to continue.';

/** The card's row in the transcript (rows are indexed in the conversation's order). */
async function rowIndex(card: Locator): Promise<number> {
  return Number(await card.locator('xpath=ancestor::div[@data-index][1]').getAttribute('data-index'));
}

/** The first compaction took the context from over the trigger to under it, before the turn limit. */
async function expectCompactionBeforeLimit(chat: ChatPage): Promise<void> {
  const limit = chat.card(TURN_LIMIT);
  await expect.poll(() => limit.count(), poll).toBe(1);
  const compacted = chat.card(COMPACTED).first();
  await expect.poll(() => compacted.count(), poll).toBe(1);
  const [, before, after] = COMPACTED.exec((await compacted.getAttribute('aria-label')) ?? '')!;
  expect(Number(before)).toBeGreaterThanOrEqual(12);
  expect(Number(after)).toBeLessThan(12);
  expect(await chat.card(/^Compaction cannot get/).count()).toBe(0);
  expect(await rowIndex(compacted)).toBeLessThan(await rowIndex(limit));
}

describe('local compaction of a long memory task', () => {
  it('shows a compaction with its sizes before the turn limit, live and after a reload', async () => {
    e2e.fake.rule((request) =>
      JSON.stringify(request.body?.system ?? '').includes('You summarize the earlier part')
        ? text('The user asked for 40 recipes in memory; the first ones are written.')
        : undefined,
    );
    const { page, pageErrors } = await e2e.open();
    const chat = new ChatPage(page);
    e2e.fake.enqueue(
      toolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/food.md', file_text: "- Doesn't like spicy food.\n" },
      }),
      text('Noted: no spicy food.'),
    );
    await chat.send("Remember this: I don't like spicy food");
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('no spicy food');

    for (let i = 1; i <= 40; i++) e2e.fake.enqueue(step(i));
    await chat.send('Write my 40 recipes into memory, one file each.');
    await expectCompactionBeforeLimit(chat);

    await page.reload();
    await expectCompactionBeforeLimit(new ChatPage(page));
    expect(pageErrors).toEqual([]);
  });
});
