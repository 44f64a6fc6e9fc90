// Recall end to end (issue 17) in browser mode, real Chromium, fake API: a fact said in one conversation and
// never saved to memory is found by the model with conversation_search in a new conversation and used in its
// answer; the card shows the search and links to the message; another space and a temporary conversation
// find nothing; the sidebar's search finds the message, marks the match and opens it; once deleted, it is
// found no more at once (its Undo brings it back); the Settings switch takes the tools away (kept after a reload).
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { text } from '../fixtures/fake-anthropic/index.js';
import { NOTHING, QUESTION, scriptModel } from '../fixtures/recall-model.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';
import { ShellPage } from './support/pages/shell-page.js';
import { SpacesPage } from './support/pages/spaces-page.js';

const e2e = useE2EApp();
const poll = { timeout: 15_000, interval: 50 };

let page: Page;
let chat: ChatPage;
let shell: ShellPage;

beforeAll(async () => {
  ({ page } = await e2e.open());
  chat = new ChatPage(page);
  shell = new ShellPage(page);
  await shell.ready();
  scriptModel(e2e.fake);
});

async function ask(question: string, answer: string, options: { memory?: boolean } = {}): Promise<void> {
  if (options.memory === false) await page.getByRole('button', { name: 'New chat without memory' }).click();
  else await chat.newChatButton.click();
  await chat.send(question);
  await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain(answer);
  await expect.poll(() => chat.stopButton.isVisible(), poll).toBe(false);
}

describe('recall', () => {
  it('the model finds a fact from an earlier conversation and the card links to it', async () => {
    e2e.fake.enqueue(text('Sounds like a lovely evening.'));
    await ask('Last night we ate at a restaurant called Chez Gaston, with the blue door.', 'lovely evening');

    await ask(QUESTION, 'You mentioned Chez Gaston.');
    const card = chat.card('Searched past conversations for ‘restaurants’ · 1 result');
    await expect.poll(() => card.count(), poll).toBe(1);
    await card.getByRole('button', { name: /Searched past conversations/ }).click();
    const hit = card.getByRole('list', { name: 'Past conversations found' }).getByRole('button');
    await expect.poll(() => hit.innerText(), poll).toContain('Chez Gaston');
    await hit.click();
    await expect.poll(() => chat.userMessages.first().innerText(), poll).toContain('with the blue door');
    // Opened at the message itself: the one that said it is the highlighted row.
    const focused = chat.conversation.locator('.message-row-focus');
    await expect.poll(() => focused.count(), poll).toBe(1);
    expect(await focused.innerText()).toContain('with the blue door');
  });

  it('another space finds nothing of it, in the model’s search or the sidebar', async () => {
    const spaces = new SpacesPage(page);
    await spaces.create('Work');
    await ask(QUESTION, NOTHING);
    const search = shell.sidebar.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('gaston');
    await expect.poll(() => shell.sidebar.getByText('No conversation matches').count(), poll).toBe(1);
    await search.fill('');
    await spaces.switchTo('Personal');
  });

  it('a temporary conversation does not search past conversations', async () => {
    await ask(QUESTION, NOTHING, { memory: false });
  });

  it('the sidebar finds the message, marks the match and opens it', async () => {
    const search = shell.sidebar.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('gaston');
    const results = shell.sidebar.getByRole('list', { name: 'Search results' });
    await expect.poll(() => results.getByRole('button').count(), poll).toBeGreaterThan(0);
    const marked = results.locator('mark');
    await expect.poll(() => marked.first().innerText(), poll).toBe('Gaston');
    await results.getByRole('button').filter({ hasText: 'blue door' }).first().click();
    await expect.poll(() => chat.userMessages.first().innerText(), poll).toContain('with the blue door');
    await search.fill('');
  });

  it('a deleted conversation is found no more at once; its Undo brings it back, found again', async () => {
    const notifications = page.getByRole('region', { name: 'Notifications' });
    const deleteRow = async (title: string) => {
      const row = shell.conversation(title).first();
      await row.hover();
      await row.getByRole('button', { name: /^Delete/ }).click();
      await page
        .getByRole('alertdialog', { name: 'Delete this conversation?' })
        .getByRole('button', { name: 'Delete', exact: true })
        .click();
    };
    const told = await shell.conversation('Last night we ate').count();
    await deleteRow('Last night we ate');
    await expect.poll(() => shell.conversation('Last night we ate').count(), poll).toBe(told - 1);
    await notifications.getByRole('button', { name: 'Undo' }).first().click();
    await expect.poll(() => shell.conversation('Last night we ate').count(), poll).toBe(told);
    await ask(QUESTION, 'You mentioned Chez Gaston.');

    for (const title of ['Last night we ate', QUESTION.slice(0, 20)]) {
      for (let left = await shell.conversation(title).count(); left > 0; left--) {
        await deleteRow(title);
        await expect.poll(() => shell.conversation(title).count(), poll).toBe(left - 1);
      }
    }
    // Asked at once, without waiting for the Undo to run out: the deletion reached the backend with the click.
    await ask(QUESTION, NOTHING);
  });

  it('the Settings switch takes the recall tools away in this space, and gives them back', async () => {
    const tools = () =>
      ((e2e.fake.lastMessageRequest().body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);
    const dialog = await shell.openSettings();
    const box = dialog.getByRole('checkbox', { name: 'Let Claude search past conversations in this space' });
    await expect.poll(() => box.isEnabled(), poll).toBe(true);
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await page.keyboard.press('Escape');
    await ask(QUESTION, NOTHING);
    expect(tools()).not.toContain('conversation_search');
    await page.reload();
    await shell.ready();
    const again = await shell.openSettings();
    const box2 = again.getByRole('checkbox', { name: 'Let Claude search past conversations in this space' });
    await expect.poll(() => box2.isChecked(), poll).toBe(false);
    await box2.check();
    await page.keyboard.press('Escape');
    e2e.fake.enqueue(text('Hello.'));
    await ask('hello there', 'Hello.');
    expect(tools()).toContain('conversation_search');
  });
});
