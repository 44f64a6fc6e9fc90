// Spaces in the window, end to end (issue 15, "The window"): the built renderer in Chromium against the
// real browser-mode server on a temp data dir and the fake Anthropic API. A new space starts empty; what
// is remembered there stays there (checked on disk too); deleting it needs its name and can be undone; a
// memory file can be copied, a conversation moved to another space (its next turn gets that memory). axe
// checks the switcher and its dialogs, light and dark.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { text, toolUse } from '../fixtures/fake-anthropic/index.js';
import { MemoryPanelPage } from './memory-page.js';
import { expectNoSeriousViolations } from './support/axe.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';
import { ShellPage } from './support/pages/shell-page.js';
import { SpacesPage } from './support/pages/spaces-page.js';
import { screenshot } from './support/screenshots.js';

const e2e = useE2EApp();
const poll = { timeout: 20_000, interval: 50 };

/** The folder of the (only) space other than Personal, by its space.json name. */
function spaceFolder(name: string): string | undefined {
  const root = path.join(e2e.app.dataDir, 'spaces');
  if (!existsSync(root)) return undefined;
  for (const id of readdirSync(root)) {
    const file = path.join(root, id, 'space.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name: string }).name === name) {
      return path.join(root, id);
    }
  }
  return undefined;
}

/** A window on the app, ready, with the page objects these tests use. */
async function openWindow(options?: Parameters<typeof e2e.open>[0]) {
  const opened = await e2e.open(options);
  const views = {
    shell: new ShellPage(opened.page),
    chat: new ChatPage(opened.page),
    panel: new MemoryPanelPage(opened.page),
    spaces: new SpacesPage(opened.page),
  };
  await views.shell.ready();
  return { ...opened, ...views };
}

describe('spaces in the window', () => {
  it('keeps what is remembered in a space inside it; deletes with the typed name and undoes', async () => {
    const { page, pageErrors, shell, chat, panel, spaces } = await openWindow();

    // Personal has a conversation and a file of its own.
    e2e.fake.enqueue(
      toolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/home.md', file_text: '# Home\n\n- Water the ferns\n' },
      }),
      text('Noted, ferns.'),
    );
    await chat.send('Remember to water the ferns.');
    await panel.file('/memories/home.md').waitFor({ timeout: 20_000 });
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Noted, ferns');

    await spaces.openList();
    await expectNoSeriousViolations(page, 'space switcher open');
    await screenshot(page, 'spaces-switcher');
    await spaces.create('Work', 'Green');
    await expect.poll(() => spaces.switcher('Work').getAttribute('style'), poll).toContain('#16a34a');
    // A new space: no conversations, nothing remembered; the views say which space they show.
    await panel.memory.getByText('Nothing remembered yet').waitFor();
    await shell.sidebar.getByText('No conversations yet').waitFor();
    expect(await panel.memory.innerText()).toContain('Work');
    expect(await panel.file('/memories/home.md').count()).toBe(0);

    e2e.fake.enqueue(
      toolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/work.md', file_text: '# Work\n\n- Standup at 9:30\n' },
      }),
      text('Noted, standup.'),
    );
    await chat.send('Remember the standup is at 9:30.');
    await panel.file('/memories/work.md').waitFor({ timeout: 20_000 });
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Noted, standup');
    const workDir = spaceFolder('Work');
    expect(workDir).toBeDefined();
    expect(readFileSync(path.join(workDir!, 'memories', 'work.md'), 'utf8')).toContain('Standup at 9:30');
    expect(existsSync(path.join(e2e.app.dataDir, 'memories', 'work.md'))).toBe(false);

    // Back in Personal: nothing of Work shows.
    await spaces.switchTo('Personal');
    await panel.file('/memories/home.md').waitFor();
    expect(await panel.file('/memories/work.md').count()).toBe(0);
    await shell.sidebar.getByText(/ferns/i).first().waitFor();
    await expect.poll(() => shell.sidebar.getByText(/standup/i).count(), poll).toBe(0);

    // Delete Work: the name must be typed; Undo brings it back.
    const dialog = await spaces.startDelete('Work');
    await expectNoSeriousViolations(page, 'delete space dialog');
    await screenshot(page, 'spaces-delete-dialog');
    const confirm = dialog.getByRole('button', { name: 'Delete space', exact: true });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByRole('textbox', { name: 'Type Work to confirm' }).fill('Work');
    await confirm.click();
    await spaces.switcher('Personal').waitFor();
    await expect.poll(() => existsSync(workDir!), poll).toBe(false);
    await panel.file('/memories/home.md').waitFor();
    expect(await panel.file('/memories/work.md').count()).toBe(0);
    await panel.toast('Deleted space “Work”.').getByRole('button', { name: 'Undo' }).click();
    await panel.toast('Restored space “Work”.').waitFor();
    await expect.poll(() => existsSync(path.join(workDir!, 'memories', 'work.md')), poll).toBe(true);
    await spaces.switchTo('Work');
    await panel.file('/memories/work.md').waitFor();
    await shell.sidebar
      .getByText(/standup/i)
      .first()
      .waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('copies a memory file to another space; both keep it', async () => {
    const { page, pageErrors, panel, spaces } = await openWindow();
    await spaces.switchTo('Work');
    const workDir = spaceFolder('Work')!;
    await panel.open('/memories/work.md');
    await panel.memory.getByRole('button', { name: 'Copy to space…' }).click();
    await expectNoSeriousViolations(page, 'copy to space dialog');
    await spaces.pickTarget('Copy', 'Personal');
    await panel.toast('Copied /memories/work.md to “Personal”.').waitFor();
    expect(readFileSync(path.join(e2e.app.dataDir, 'memories', 'work.md'), 'utf8')).toContain('Standup');
    expect(existsSync(path.join(workDir, 'memories', 'work.md'))).toBe(true);
    await spaces.switchTo('Personal');
    await panel.open('/memories/work.md');
    await panel.memory.getByRole('tab', { name: 'History' }).click();
    await screenshot(page, 'spaces-copied-file');
    await panel.memory
      .getByRole('list', { name: 'History' })
      .getByText(/from ‘Work’/)
      .first()
      .waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('opens with its shortcut; no serious accessibility findings in dark mode (switcher, new-space dialog)', async () => {
    const { page, spaces } = await openWindow({ colorScheme: 'dark' });
    await spaces.switchTo('Work');
    // The shortcut opens the list in a real browser too (Chromium leaves Ctrl+Shift+S to the page).
    await page.getByRole('textbox', { name: 'Message', exact: true }).focus();
    await page.keyboard.press('Control+Shift+S');
    await spaces.list.waitFor();
    await expectNoSeriousViolations(page, 'space switcher, dark');
    await screenshot(page, 'spaces-switcher-dark');
    await spaces.popover.getByRole('button', { name: 'New space', exact: true }).click();
    await page.getByRole('dialog', { name: 'New space' }).waitFor();
    await screenshot(page, 'spaces-new-space-dark');
    await expectNoSeriousViolations(page, 'new space dialog, dark');
    await page.keyboard.press('Escape');
    await spaces.switcher('Work').waitFor();
    expect(await page.evaluate('document.activeElement?.getAttribute("aria-label")')).toBe('Space: Work');
  });

  it('moves a conversation to another space: it leaves this list, and its next turn gets that memory', async () => {
    const { page, pageErrors, shell, chat, spaces } = await openWindow();
    await spaces.switchTo('Personal');
    const row = shell.conversation('ferns').first();
    await row.waitFor();
    await row.hover();
    await row.getByRole('button', { name: /to another space$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Move to space' });
    await dialog.getByRole('radio', { name: 'Work' }).check();
    await dialog.getByRole('button', { name: 'Move to Work', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Move to space' });
    await expectNoSeriousViolations(page, 'move conversation confirmation');
    await confirm.getByRole('button', { name: 'Move to Work', exact: true }).click();
    const toast = page
      .getByRole('region', { name: 'Notifications' })
      .locator('.toast', { hasText: 'to “Work”' });
    await toast.waitFor();
    await expect.poll(() => shell.conversation('ferns').count(), poll).toBe(0);

    await toast.getByRole('button', { name: 'Open in Work' }).click();
    await spaces.switcher('Work').waitFor();
    await shell.conversation('ferns').first().waitFor();
    await chat.conversation.getByText('Moved from Personal to Work', { exact: false }).waitFor();
    const before = e2e.fake.messageRequests().length;
    e2e.fake.enqueue(text('Standup noted.'));
    await chat.send('When is the standup?');
    await expect.poll(() => e2e.fake.messageRequests().length, poll).toBeGreaterThan(before);
    const body = JSON.stringify(e2e.fake.messageRequests()[before]!.body);
    expect(body).toContain('Standup at 9:30');
    expect(pageErrors).toEqual([]);
  });

  it('restores a deleted space from "Recently deleted" after a reload, when the Undo toast is long gone', async () => {
    const { page, pageErrors, shell, panel, spaces } = await openWindow();
    await spaces.switchTo('Work');
    const workDir = spaceFolder('Work')!;
    const dialog = await spaces.startDelete('Work');
    expect(await dialog.innerText()).toContain('“Recently deleted” in this list for 30 days');
    await dialog.getByRole('textbox', { name: 'Type Work to confirm' }).fill('Work');
    await dialog.getByRole('button', { name: 'Delete space', exact: true }).click();
    await spaces.switcher('Personal').waitFor();
    await expect.poll(() => existsSync(workDir), poll).toBe(false);

    await page.reload();
    await shell.ready();
    const trash = await spaces.openRecentlyDeleted();
    await expectNoSeriousViolations(page, 'recently deleted');
    await screenshot(page, 'spaces-recently-deleted');
    expect(await spaces.option('Work').count()).toBe(0);
    expect(await trash.innerText()).toMatch(/Work[\s\S]*kept until/);
    await trash.getByRole('button', { name: 'Restore Work', exact: true }).click();
    await panel.toast('Restored space “Work”.').waitFor();
    await expect.poll(() => existsSync(path.join(workDir, 'memories', 'work.md')), poll).toBe(true);
    await spaces.option('Work').waitFor();
    await spaces.switchTo('Work');
    await panel.file('/memories/work.md').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
