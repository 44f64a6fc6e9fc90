// A long conversation end to end (issue 14, item 5), in Chromium against browser mode: 3,000 messages seeded
// on disk. It opens at its end with one page of items (sized to the window, however tall), scrolling up loads the page before without moving
// what is on screen, and a search hit opens it at that message (highlighted, in view), with the later
// pages loaded on scrolling down and Jump to latest going back to the end.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedConversation } from '../../bench/ui/seed.js';
import { tempDataDir } from './support/app-server.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';
import { ShellPage } from './support/pages/shell-page.js';

const MESSAGES = 3_000;
const dataDir = tempDataDir();
// Written before the server starts (useE2EApp's beforeAll), as a months-long chat would be on disk.
const seeded = seedConversation(dataDir, MESSAGES, 'long-chat');
const e2e = useE2EApp({ dataDir });
const poll = { timeout: 15_000, interval: 50 };
const last = `m${MESSAGES - 1}`;

let page: Page;
let chat: ChatPage;
let shell: ShellPage;

const numberOf = (id: string): number => Number(id.slice(1));

beforeAll(async () => {
  ({ page } = await e2e.open());
  chat = new ChatPage(page);
  shell = new ShellPage(page);
  await shell.ready();
});

describe('a long conversation', () => {
  it('opens at its end with one page of it', async () => {
    await shell.openConversation(seeded.title);
    await expect.poll(() => chat.row(last).isVisible(), poll).toBe(true);
    await expect.poll(() => chat.paging(), poll).toBe(false);
    // The last row's index is the number of items loaded, less one: a page, not 3,000.
    const loaded = (await chat.indexOf(last)) + 1;
    expect(loaded).toBeGreaterThan(10);
    expect(loaded).toBeLessThan(200);
    await expect.poll(async () => chat.topOf(last).then((t) => t !== null && t > 0), poll).toBe(true);
  });

  it('a window ten times as tall gets a page that fills it, in one request', async () => {
    const tall = await e2e.open({ viewport: { width: 1280, height: 8000 } });
    const gets: string[] = [];
    tall.page.on('websocket', (ws) =>
      ws.on('framesent', (frame) => {
        const text = String(frame.payload);
        if (text.includes('conversations.get')) gets.push(text);
      }),
    );
    const tallShell = new ShellPage(tall.page);
    const tallChat = new ChatPage(tall.page);
    await tallShell.ready();
    await tallShell.openConversation(seeded.title);
    await expect.poll(() => tallChat.row(last).isVisible(), poll).toBe(true);
    await expect.poll(() => tallChat.paging(), poll).toBe(false);
    // Taller than the window: the first screen is full, and it took one page, not one and then more.
    const { scrollHeight, clientHeight } = await tallChat.conversation.evaluate((el) => ({
      scrollHeight: el.scrollHeight,
      clientHeight: el.clientHeight,
    }));
    expect(scrollHeight).toBeGreaterThan(clientHeight);
    expect(gets).toHaveLength(1);
    // Asked for enough to fill it even were every item as short as one line (about 40 px).
    const { limit } = (JSON.parse(gets[0]!) as { payload: { limit: number } }).payload;
    expect(limit * 40).toBeGreaterThanOrEqual(8000);
    await tall.context.close();
  });

  it('scrolling up loads the page before, and what is on screen stays where it was', async () => {
    const log = chat.conversation;
    const firstLoaded = `m${MESSAGES - 1 - (await chat.indexOf(last))}`;
    // Up 80 px at a time, as a wheel does, until that fetches the page before. Each step reads the row in
    // the middle of the view, its index and its place, in the same task as the scroll (before any answer).
    let seen: { id: string; index: number; top: number } | null = null;
    for (let step = 0; step < 400 && seen === null; step++) {
      const now = await log.evaluate((el) => {
        el.scrollTop -= 80;
        const box = el.getBoundingClientRect();
        const mid = box.top + box.height / 2;
        const rows = [...el.querySelectorAll('[data-message-id]')];
        const row = rows.find((r) => r.getBoundingClientRect().bottom > mid) ?? rows[0]!;
        return {
          id: row.getAttribute('data-message-id')!,
          index: Number(row.getAttribute('data-index')),
          top: row.getBoundingClientRect().top - box.top,
        };
      });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      if ((await chat.paging()) || (await chat.indexOf(now.id)) > now.index) seen = now;
    }
    expect(seen).not.toBeNull();
    const { id, index, top } = seen!;
    await expect.poll(() => chat.indexOf(id), poll).toBeGreaterThan(index);
    await expect.poll(() => chat.paging(), poll).toBe(false);
    // Older messages are above it now, and it has not moved (rows measured above it included).
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(Math.abs((await chat.topOf(id))! - top)).toBeLessThanOrEqual(1);
    // At the top now: messages from before the first one loaded.
    await log.evaluate((el) => (el.scrollTop = 0));
    await expect
      .poll(async () => Math.min(...(await chat.rowIds()).map(numberOf)), poll)
      .toBeLessThan(numberOf(firstLoaded));
  });

  it('opens at a search hit, highlighted in view, and loads later pages on scrolling down', async () => {
    const search = shell.sidebar.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('Question 1500:');
    const results = shell.sidebar.getByRole('list', { name: 'Search results' });
    await results.getByRole('button').first().click();
    const hit = chat.row('m1500');
    await expect.poll(() => hit.isVisible(), poll).toBe(true);
    expect(await hit.getAttribute('class')).toContain('message-row-focus');
    const top = (await chat.topOf('m1500'))!;
    const height = (await chat.conversation.boundingBox())!.height;
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(height);
    // Not the end: the last message is not loaded, and the chat offers the way there.
    expect(await chat.indexOf(last)).toBe(-1);
    const jump = page.getByRole('button', { name: 'Jump to latest' });
    expect(await jump.isVisible()).toBe(true);

    const furthest = async (): Promise<number> => Math.max(...(await chat.rowIds()).map(numberOf));
    const reached = await furthest();
    await expect
      .poll(async () => {
        await chat.conversation.evaluate((el) => (el.scrollTop = el.scrollHeight));
        return furthest();
      }, poll)
      .toBeGreaterThan(reached + 20);

    await jump.click();
    await expect.poll(() => chat.row(last).isVisible(), poll).toBe(true);
    await search.fill('');
  });
});
