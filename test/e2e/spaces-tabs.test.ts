// Two browser tabs of one browser-mode server in different spaces (issue 15: "the current space belongs
// to the window"): each tab names its own space in every call, so what the model remembers in one lands in
// that space's folder only, neither tab's panel or conversation list shows the other's, and a reloaded tab
// stays in its space (switched with the sidebar's switcher). Real Chromium, the built renderer, the real
// server on a temp data dir, the fake API.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { text, toolUse, type Rule } from '../fixtures/fake-anthropic/index.js';
import { invoke, MemoryPanelPage } from './memory-page.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';
import { ShellPage } from './support/pages/shell-page.js';
import { SpacesPage } from './support/pages/spaces-page.js';

const e2e = useE2EApp();
const poll = { timeout: 20_000, interval: 50 };

/** The model's answer to a message containing `word`: create `file`, then say it did (by rule, in any order). */
function remembers(word: string, file: string): Rule {
  return (request) => {
    const messages = JSON.stringify((request.body as { messages?: unknown } | undefined)?.messages ?? []);
    if (!messages.includes(word)) return undefined;
    if (messages.includes(file)) return text(`Noted the ${word}.`);
    return toolUse({
      name: 'memory',
      input: { command: 'create', path: file, file_text: `- Remember the ${word}\n` },
    });
  };
}

async function ready(page: Page): Promise<void> {
  await new ShellPage(page).ready();
}

describe('two tabs in two spaces', () => {
  it('never write across, each showing only its own space, and a reload keeps the tab’s space', async () => {
    const { space: work } = (await invoke(e2e.app, 'spaces.create', { name: 'Work' })) as {
      space: { id: string };
    };
    const { page: home, context, pageErrors } = await e2e.open();
    const office = await context.newPage();
    office.on('pageerror', (error) => pageErrors.push(error));
    await office.goto(e2e.app.url);
    await Promise.all([ready(home), ready(office)]);
    // Switched in the second tab only: the first stays in Personal.
    await new SpacesPage(office).switchTo('Work');
    await new SpacesPage(home).switcher('Personal').waitFor();

    const removers = [
      e2e.fake.rule(remembers('ferns', '/memories/ferns.md')),
      e2e.fake.rule(remembers('standup', '/memories/standup.md')),
    ];
    try {
      const homeChat = new ChatPage(home);
      const officeChat = new ChatPage(office);
      // Both at once: the two runs overlap on one server.
      await Promise.all([
        homeChat.send('Please remember the ferns.'),
        officeChat.send('Please remember the standup.'),
      ]);
      await expect.poll(() => homeChat.lastAnswer().innerText(), poll).toContain('Noted the ferns');
      await expect.poll(() => officeChat.lastAnswer().innerText(), poll).toContain('Noted the standup');
    } finally {
      for (const remove of removers) remove();
    }

    const dir = e2e.app.dataDir;
    const workDir = path.join(dir, 'spaces', work.id);
    expect(existsSync(path.join(dir, 'memories', 'ferns.md'))).toBe(true);
    expect(existsSync(path.join(dir, 'memories', 'standup.md'))).toBe(false);
    expect(existsSync(path.join(workDir, 'memories', 'standup.md'))).toBe(true);
    expect(existsSync(path.join(workDir, 'memories', 'ferns.md'))).toBe(false);
    // The model in each space was never shown the other's words.
    for (const request of e2e.fake.messageRequests()) {
      const body = JSON.stringify(request.body);
      expect(body.includes('ferns') && body.includes('standup')).toBe(false);
    }

    const homePanel = new MemoryPanelPage(home);
    const officePanel = new MemoryPanelPage(office);
    await homePanel.file('/memories/ferns.md').waitFor({ timeout: 20_000 });
    await officePanel.file('/memories/standup.md').waitFor({ timeout: 20_000 });
    expect(await homePanel.file('/memories/standup.md').count()).toBe(0);
    expect(await officePanel.file('/memories/ferns.md').count()).toBe(0);
    const homeList = new ShellPage(home).sidebar.getByRole('listitem');
    const officeList = new ShellPage(office).sidebar.getByRole('listitem');
    await expect.poll(() => homeList.count(), poll).toBe(1);
    await expect.poll(() => officeList.count(), poll).toBe(1);
    expect(await homeList.innerText()).not.toMatch(/standup/i);
    expect(await officeList.innerText()).not.toMatch(/ferns/i);

    // A reload keeps each tab where it was.
    await office.reload();
    await ready(office);
    await new SpacesPage(office).switcher('Work').waitFor();
    await officePanel.file('/memories/standup.md').waitFor({ timeout: 20_000 });
    expect(await officePanel.file('/memories/ferns.md').count()).toBe(0);
    await expect.poll(() => officeList.count(), poll).toBe(1);
    expect(pageErrors).toEqual([]);
  });
});
