// "Ask me" mode end to end (issue 5, point 3): the run pauses at each memory write with a review card;
// Approve writes the file (and the panel shows it), Edit writes the user's text instead of the model's,
// Reject writes nothing; each time the model is told the outcome.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text, toolUse } from '../fixtures/fake-anthropic/index.js';
import { invoke, MemoryPanelPage } from './memory-page.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';
import { screenshot } from './support/screenshots.js';

const e2e = useE2EApp();
const poll = { timeout: 20_000, interval: 50 };
const onDisk = (memoryPath: string): string => path.join(e2e.app.dataDir, memoryPath.replace(/^\//, ''));

/** The tool_result the model got for a tool_use id, from the fake's request log. */
function toolResultFor(toolUseId: string): { content?: unknown; is_error?: boolean } | undefined {
  for (const request of e2e.fake.messageRequests()) {
    for (const message of request.body.messages as { role: string; content: unknown }[]) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content as {
        type: string;
        tool_use_id?: string;
        content?: unknown;
        is_error?: boolean;
      }[]) {
        if (block.type === 'tool_result' && block.tool_use_id === toolUseId) return block;
      }
    }
  }
  return undefined;
}

/** Opens the app, has the model propose creating `memoryPath`, and returns the page and the review card. */
async function proposeCreate(
  id: string,
  memoryPath: string,
  fileText: string,
  message: string,
  reply: string,
): Promise<{ page: Page; pageErrors: Error[]; chat: ChatPage; panel: MemoryPanelPage; card: Locator }> {
  const { page, pageErrors } = await e2e.open();
  const chat = new ChatPage(page);
  e2e.fake.enqueue(
    toolUse({ id, name: 'memory', input: { command: 'create', path: memoryPath, file_text: fileText } }),
    text(reply),
  );
  await chat.send(message);
  const card = chat.conversation.getByRole('region', { name: 'Memory change to review' });
  return { page, pageErrors, chat, panel: new MemoryPanelPage(page), card };
}

beforeAll(async () => {
  await invoke(e2e.app, 'settings.set', { patch: { memoryWriteMode: 'ask' } });
});
afterAll(async () => {
  await invoke(e2e.app, 'settings.reset', {}).catch(() => undefined);
});

describe('"ask me" review mode', () => {
  it('Approve writes the file and the model is told it was saved', async () => {
    const id = 'toolu_review_approve_000000';
    const { page, pageErrors, chat, panel, card } = await proposeCreate(
      id,
      '/memories/diet.md',
      '- Vegetarian\n',
      'I am vegetarian, remember it.',
      'Saved that you are vegetarian.',
    );
    await card.getByRole('button', { name: 'Approve' }).waitFor({ timeout: 20_000 });
    // The run is paused: nothing on disk yet, and the status line says what it waits for.
    expect(existsSync(onDisk('/memories/diet.md'))).toBe(false);
    expect(await page.getByRole('status').filter({ hasText: 'Waiting for your review' }).count()).toBe(1);
    await screenshot(page, 'review-card-light');
    await card.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Saved that you are vegetarian.');
    expect(readFileSync(onDisk('/memories/diet.md'), 'utf8')).toBe('- Vegetarian\n');
    await panel.file('/memories/diet.md').waitFor({ timeout: 20_000 });
    const result = toolResultFor(id);
    expect(result?.is_error ?? false).toBe(false);
    expect(JSON.stringify(result?.content)).not.toMatch(/rejected/);
    expect(pageErrors).toEqual([]);
  });

  it('Edit writes the text the user changed, and the model is told what the file now holds', async () => {
    const id = 'toolu_review_edit_000000000';
    const { chat, panel, card } = await proposeCreate(
      id,
      '/memories/drinks.md',
      '- Likes coffee\n',
      'I like tea, not coffee. Remember my drinks.',
      'Noted your drinks.',
    );
    await card.getByRole('button', { name: 'Edit' }).click({ timeout: 20_000 });
    const box = card.getByRole('textbox', { name: 'Content to write' });
    expect(await box.inputValue()).toBe('- Likes coffee\n');
    await box.fill('- Likes green tea\n');
    await card.getByRole('button', { name: 'Save and approve' }).click();
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Noted your drinks.');
    expect(readFileSync(onDisk('/memories/drinks.md'), 'utf8')).toBe('- Likes green tea\n');
    expect(await card.getByText('Approved with edits').count()).toBe(1);
    await panel.file('/memories/drinks.md').waitFor({ timeout: 20_000 });
    const result = toolResultFor(id);
    expect(result?.is_error ?? false).toBe(false);
    expect(JSON.stringify(result?.content)).toContain('The user edited your proposed change');
    expect(JSON.stringify(result?.content)).toContain('Likes green tea');
  });

  it('Reject writes nothing and the model is told the user rejected it', async () => {
    const id = 'toolu_review_reject_0000000';
    const { chat, panel, card } = await proposeCreate(
      id,
      '/memories/secret.md',
      '- Password hint\n',
      'Keep my password hint.',
      'Understood, I will not keep that.',
    );
    await card.getByRole('button', { name: 'Reject' }).click({ timeout: 20_000 });
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('I will not keep that.');
    expect(existsSync(onDisk('/memories/secret.md'))).toBe(false);
    expect(await panel.file('/memories/secret.md').count()).toBe(0);
    const result = toolResultFor(id);
    expect(JSON.stringify(result?.content)).toContain('the user rejected this memory change');
  });
});
