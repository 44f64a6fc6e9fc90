// Settings end to end (issue 5, point 5), on a server started WITHOUT an API key: the first-run screen asks
// for one (and passes axe in light and dark); the key is stored by the server and never comes back to the
// page; the app then chats; a setting survives a reload; the data folder is shown.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { text } from '../fixtures/fake-anthropic/index.js';
import { expectNoSeriousViolations } from './support/axe.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';
import { ShellPage } from './support/pages/shell-page.js';
import { screenshot } from './support/screenshots.js';

const e2e = useE2EApp({ apiKey: null });
const poll = { timeout: 15_000, interval: 50 };
const KEY = 'sk-ant-e2e-0123456789-secret';

let page: Page;
let shell: ShellPage;
let chat: ChatPage;

beforeAll(async () => {
  ({ page } = await e2e.open());
  await page.emulateMedia({ reducedMotion: 'reduce' });
  shell = new ShellPage(page);
  chat = new ChatPage(page);
  await shell.ready();
});

describe('first run and settings', () => {
  it('shows the first-run screen while no key is set, accessible in light and dark', async () => {
    expect(await shell.firstRunHeading.isVisible()).toBe(true);
    expect(await chat.messageBox.count()).toBe(0);
    await expectNoSeriousViolations(page, 'first run (light)');
    await screenshot(page, 'first-run-light');
    await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
    await page.reload();
    await shell.ready();
    await expect.poll(() => shell.theme(), poll).toBe('dark');
    await expectNoSeriousViolations(page, 'first run (dark)');
    await screenshot(page, 'first-run-dark');
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  });

  it('stores the key on the server side, never shows it again, and the chat works', async () => {
    await shell.apiKeyInput.fill(KEY);
    await page.getByRole('button', { name: 'Save and start' }).click();
    await chat.messageBox.waitFor();
    e2e.fake.enqueue(text('Hello from the fake API.'));
    await chat.send('hello');
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Hello from the fake API.');
    const request = e2e.fake.messageRequests().at(-1);
    expect(request?.headers['x-api-key'] ?? request?.headers.authorization).toContain(KEY);

    const dialog = await shell.openSettings();
    expect(await dialog.innerText()).toContain('A key is set (stored by the app).');
    expect(await page.content()).not.toContain(KEY);
    expect(
      await page.evaluate<string>(
        'JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })',
      ),
    ).not.toContain(KEY);
  });

  it('saves a setting in the backend (it survives a reload) and shows the data folder', async () => {
    const dialog = shell.settingsDialog;
    await dialog.getByRole('radio', { name: /Ask me/ }).check();
    const turns = dialog.getByRole('textbox', { name: 'Tool turns per answer' });
    await turns.fill('999');
    await turns.press('Enter');
    expect(await dialog.innerText()).toContain('Enter a whole number from 1 to 200.');
    await turns.fill('12');
    await turns.press('Enter');
    expect(await dialog.innerText()).toContain(e2e.app.dataDir);

    await page.reload();
    const reopened = await shell.openSettings();
    expect(await reopened.getByRole('radio', { name: /Ask me/ }).isChecked()).toBe(true);
    expect(await reopened.getByRole('textbox', { name: 'Tool turns per answer' }).inputValue()).toBe('12');
    await page.keyboard.press('Escape');
  });
});
