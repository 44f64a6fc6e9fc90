// The conversations sidebar end to end (issue 5, point 1): new chats appear, open, rename (kept after a
// reload), search, delete with confirmation and Undo (and for real once the Undo is gone), and "New chat
// without memory" starts a temporary conversation that the model gets no memory tool in, which a reload
// keeps, which is never listed or written, and which is gone once the window leaves it.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { text } from '../fixtures/fake-anthropic/index.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';
import { ShellPage } from './support/pages/shell-page.js';

const e2e = useE2EApp();
const poll = { timeout: 15_000, interval: 50 };

let page: Page;
let chat: ChatPage;
let shell: ShellPage;

async function ask(question: string, answer: string): Promise<void> {
  await chat.newChatButton.click();
  e2e.fake.enqueue(text(answer));
  await chat.send(question);
  await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain(answer);
  await expect.poll(() => chat.stopButton.isVisible(), poll).toBe(false);
}

beforeAll(async () => {
  ({ page } = await e2e.open());
  chat = new ChatPage(page);
  shell = new ShellPage(page);
  await shell.ready();
});

describe('conversations', () => {
  it('lists new chats, opens one, and renames it (kept after a reload)', async () => {
    await ask('Plan a weekend in Lisbon', 'Lisbon: trams, pastéis de nata and the miradouros.');
    await ask('Best pasta shape for pesto?', 'Trofie or linguine hold pesto best.');
    await expect.poll(() => shell.sidebar.getByRole('listitem').count(), poll).toBe(2);

    await shell.openConversation('Lisbon');
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('pastéis de nata');
    expect(await chat.userMessages.count()).toBe(1);

    const row = shell.conversation('Lisbon');
    await row.hover();
    await row.getByRole('button', { name: /^Rename/ }).click();
    const title = shell.sidebar.getByRole('textbox', { name: 'Conversation title' });
    await title.fill('Lisbon trip');
    await title.press('Enter');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText(), poll).toBe('Lisbon trip');
    await page.reload();
    await shell.ready();
    await expect.poll(() => shell.conversation('Lisbon trip').count(), poll).toBe(1);
  });

  it('finds a conversation by its content', async () => {
    const search = shell.sidebar.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('linguine');
    const results = shell.sidebar.getByRole('list', { name: 'Search results' });
    await expect.poll(() => results.getByRole('button').count(), poll).toBe(1);
    await results.getByRole('button').first().click();
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Trofie');
    await search.fill('');
    await expect.poll(() => shell.sidebar.getByRole('listitem').count(), poll).toBe(2);
  });

  it('deletes after a confirmation, with Undo, and for real once the Undo is gone', async () => {
    const row = shell.conversation('pesto');
    await row.hover();
    await row.getByRole('button', { name: /^Delete/ }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this conversation?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => shell.conversation('pesto').count(), poll).toBe(0);
    const notifications = page.getByRole('region', { name: 'Notifications' });
    await notifications.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => shell.conversation('pesto').count(), poll).toBe(1);

    await shell.conversation('pesto').hover();
    await shell
      .conversation('pesto')
      .getByRole('button', { name: /^Delete/ })
      .click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    // The delete happens when its toast (and Undo) goes away.
    await notifications.getByRole('button', { name: 'Undo' }).waitFor({ state: 'detached', timeout: 20_000 });
    await page.reload();
    await shell.ready();
    await expect.poll(() => shell.sidebar.getByRole('listitem').count(), poll).toBe(1);
    expect(await shell.conversation('pesto').count()).toBe(0);
  });

  it('"New chat without memory" starts a temporary conversation without the memory tool', async () => {
    await page.getByRole('button', { name: 'New chat without memory' }).click();
    await page.getByText('Temporary chat: memory is off').waitFor();
    e2e.fake.enqueue(text('I will not remember this.'));
    await chat.send('Just between us: I dislike olives.');
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('I will not remember this.');
    await expect.poll(() => page.getByText('Memory off').first().isVisible(), poll).toBe(true);
    const request = e2e.fake.messageRequests().at(-1);
    const tools = ((request?.body.tools ?? []) as { name?: string }[]).map((t) => t.name);
    expect(tools).not.toContain('memory');
  });

  it('keeps the temporary conversation through a reload, out of the list and off the disk, and ends it when left', async () => {
    const listed = await shell.sidebar.getByRole('listitem').count();
    const id = await page.evaluate(() => sessionStorage.getItem('mnemo.conversation'));
    expect(id).toBeTruthy();
    await page.reload();
    await shell.ready();
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('I will not remember this.');
    expect(await page.getByText('Memory off').first().isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Temporary chat');
    expect(await chat.exportButton.count()).toBe(0);
    expect(await shell.sidebar.getByRole('listitem').count()).toBe(listed);
    expect(filesHolding(e2e.app.dataDir, 'olives')).toEqual([]);

    // Left for a new chat: the backend lets it go, so a window asking for it again finds nothing.
    await chat.newChatButton.click();
    await expect.poll(() => page.getByText('Memory off').count(), poll).toBe(0);
    await page.evaluate((gone) => sessionStorage.setItem('mnemo.conversation', gone!), id);
    await page.reload();
    await shell.ready();
    await page.getByText('This conversation could not be loaded').waitFor();
    expect(filesHolding(e2e.app.dataDir, 'olives')).toEqual([]);
  });
});

/** Every file under `dir` whose bytes hold `needle`. */
function filesHolding(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, name);
    if (statSync(file).isFile() && readFileSync(file).includes(needle)) found.push(name);
  }
  return found;
}
