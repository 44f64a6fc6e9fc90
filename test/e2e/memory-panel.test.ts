// The memory panel end to end (issue 5, points 3 and 7): the built renderer in Chromium, the real
// browser-mode server on a temp data dir, the fake Anthropic API. Files are checked on disk.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { text, toolUse } from '../fixtures/fake-anthropic/index.js';
import { MemoryPanelPage } from './memory-page.js';
import { expectNoSeriousViolations } from './support/axe.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';
import { screenshot } from './support/screenshots.js';

const e2e = useE2EApp();
const poll = { timeout: 20_000, interval: 50 };
const onDisk = (memoryPath: string): string => path.join(e2e.app.dataDir, memoryPath.replace(/^\//, ''));

describe('the memory panel', () => {
  it('shows a fact the assistant remembers, live (no reload)', async () => {
    const { page, pageErrors } = await e2e.open();
    const chat = new ChatPage(page);
    const panel = new MemoryPanelPage(page);
    e2e.fake.enqueue(
      toolUse({
        name: 'memory',
        input: {
          command: 'create',
          path: '/memories/preferences.md',
          file_text: '# Preferences\n\n- Likes green tea\n',
        },
      }),
      text('Noted: you like green tea.'),
    );
    await expect.poll(() => panel.memory.getByText('Nothing remembered yet').isVisible(), poll).toBe(true);
    await chat.send('Remember that I like green tea.');
    await panel.file('/memories/preferences.md').waitFor({ timeout: 20_000 });
    await panel.open('/memories/preferences.md');
    await panel.fact('Likes green tea').waitFor();
    // Provenance: the change is attributed to this conversation.
    await expect
      .poll(() => panel.memory.getByText(/Last change/).innerText(), poll)
      .toMatch(/written in ‘.+’ at/);
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Noted');
    await screenshot(page, 'memory-panel-light');
    expect(pageErrors).toEqual([]);
  });

  it('sends an edit made in the panel to the model with the next request', async () => {
    const { page } = await e2e.open();
    const chat = new ChatPage(page);
    const panel = new MemoryPanelPage(page);
    await panel.open('/memories/preferences.md');
    await panel.memory.getByRole('tab', { name: 'Edit' }).click();
    const editor = panel.editor('/memories/preferences.md');
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('- Prefers oolong in the evening');
    await panel.memory.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.fact('Prefers oolong in the evening').waitFor({ timeout: 20_000 });
    expect(readFileSync(onDisk('/memories/preferences.md'), 'utf8')).toContain(
      '- Prefers oolong in the evening',
    );

    const before = e2e.fake.messageRequests().length;
    e2e.fake.enqueue(text('Oolong it is.'));
    await chat.send('What should I drink tonight?');
    await expect.poll(() => e2e.fake.messageRequests().length, poll).toBeGreaterThan(before);
    const request = e2e.fake.messageRequests()[before]!;
    expect(JSON.stringify(request.body)).toContain('Prefers oolong in the evening');
  });

  it('forgets one fact and leaves the file’s other facts intact on disk', async () => {
    const file = onDisk('/memories/travel.md');
    mkdirSync(path.dirname(file), { recursive: true });
    const content =
      '# Travel\n\n- Window seat\n- Vegetarian meals on flights\n\nAllergic to penicillin.\n\n- Lisbon in May\n';
    // Written by "another program": the panel notices it without a reload.
    writeFileSync(file, content);
    const { page } = await e2e.open();
    const panel = new MemoryPanelPage(page);
    await panel.file('/memories/travel.md').waitFor({ timeout: 20_000 });
    await panel.open('/memories/travel.md');
    await panel.fact('Vegetarian meals on flights').getByRole('button', { name: 'Forget' }).click();
    await expect.poll(() => panel.fact('Vegetarian meals on flights').count(), poll).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(
      '# Travel\n\n- Window seat\n\nAllergic to penicillin.\n\n- Lisbon in May\n',
    );
    expect(await panel.fact('Allergic to penicillin.').isVisible()).toBe(true);

    // Undo puts the fact back where it was.
    await panel
      .toast(/Forgot/)
      .getByRole('button', { name: 'Undo' })
      .click();
    await panel.fact('Vegetarian meals on flights').waitFor({ timeout: 20_000 });
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  it('deletes a file after confirmation, and Undo brings it back', async () => {
    const { page } = await e2e.open();
    const panel = new MemoryPanelPage(page);
    const file = onDisk('/memories/travel.md');
    await panel.file('/memories/travel.md').getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: /Delete travel\.md/ });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => panel.file('/memories/travel.md').count(), poll).toBe(0);
    expect(existsSync(file)).toBe(false);
    await panel.toast('Deleted /memories/travel.md').getByRole('button', { name: 'Undo' }).click();
    await panel.file('/memories/travel.md').waitFor({ timeout: 20_000 });
    expect(existsSync(file)).toBe(true);
  });

  it('exports memory as a zip download with every file', async () => {
    const { page } = await e2e.open();
    const panel = new MemoryPanelPage(page);
    await panel.file('/memories/preferences.md').waitFor({ timeout: 20_000 });
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 20_000 }),
      panel.memory.getByRole('button', { name: 'Export memory' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const zip = unzipSync(new Uint8Array(readFileSync(await download.path())));
    const names = Object.keys(zip).sort();
    expect(names).toContain('memories/preferences.md');
    expect(names).toContain('memories/travel.md');
    expect(strFromU8(zip['memories/preferences.md']!)).toBe(
      readFileSync(onDisk('/memories/preferences.md'), 'utf8'),
    );
    // The journal stays out unless asked for.
    expect(names.filter((n) => n.startsWith('.mnemo-journal/'))).toEqual([]);

    await panel.memory.getByRole('checkbox', { name: 'Include history' }).check();
    const [withHistory] = await Promise.all([
      page.waitForEvent('download', { timeout: 20_000 }),
      panel.memory.getByRole('button', { name: 'Export memory' }).click(),
    ]);
    const full = Object.keys(unzipSync(new Uint8Array(readFileSync(await withHistory.path()))));
    expect(full).toContain('memories/preferences.md');
    expect(full.filter((n) => n.startsWith('.mnemo-journal/')).length).toBeGreaterThan(0);
  });

  it('searches across memory and highlights the hits', async () => {
    const { page } = await e2e.open();
    const panel = new MemoryPanelPage(page);
    await panel.file('/memories/preferences.md').waitFor({ timeout: 20_000 });
    await panel.memory.getByRole('searchbox', { name: 'Search memory' }).fill('oolong');
    const results = panel.memory.getByRole('region', { name: 'Search results' });
    await expect.poll(() => results.locator('mark').allInnerTexts(), poll).toEqual(['oolong']);
    await screenshot(page, 'memory-search-light');
  });
});

/** Writes a file as another program would, before the page opens. */
function seed(memoryPath: string, content: string): string {
  const file = onDisk(memoryPath);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

describe('editing, history and import', () => {
  it('asks which version to keep when the file changed while editing', async () => {
    const file = seed('/memories/conflict.md', '# Trips\n\n- Night trains\n');
    const { page } = await e2e.open();
    const panel = new MemoryPanelPage(page);
    await panel.open('/memories/conflict.md');
    await panel.memory.getByRole('tab', { name: 'Edit' }).click();
    await panel.editor('/memories/conflict.md').click();
    await page.keyboard.press('Control+End');
    // No trailing Enter: the Markdown editor would continue the list with a new "- ".
    await page.keyboard.type('- Aisle seat on night trains');
    const mine = `${readFileSync(file, 'utf8')}- Aisle seat on night trains`;
    // Meanwhile another program rewrites the file.
    writeFileSync(file, '# Travel\n\n- Changed elsewhere\n');
    await panel.memory.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'This file changed since you opened it' });
    await dialog.waitFor({ timeout: 20_000 });
    expect(await dialog.getByRole('region', { name: 'Their version' }).innerText()).toContain(
      'Changed elsewhere',
    );
    expect(await dialog.getByRole('region', { name: 'Your version' }).innerText()).toContain('Aisle seat');
    await dialog.getByRole('button', { name: 'Keep mine' }).click();
    await panel.fact('Aisle seat on night trains').waitFor({ timeout: 20_000 });
    expect(readFileSync(file, 'utf8')).toBe(mine);
  });

  it('shows a file’s history with diffs and reverts a change', async () => {
    const before = '# Seats\n\n- Window seat\n- Near the front\n';
    const file = seed('/memories/seats.md', before);
    const { page } = await e2e.open();
    const panel = new MemoryPanelPage(page);
    await panel.open('/memories/seats.md');
    await panel.fact('Window seat').getByRole('button', { name: 'Forget' }).click();
    await expect.poll(() => panel.fact('Window seat').count(), poll).toBe(0);
    await panel.memory.getByRole('tab', { name: 'History' }).click();
    const history = panel.memory.getByRole('list', { name: 'History' });
    const latest = history.getByRole('listitem').first();
    await latest.waitFor({ timeout: 20_000 });
    await latest.getByRole('button', { name: 'Diff' }).click();
    await expect.poll(() => latest.getByRole('figure').innerText(), poll).toContain('Window seat');
    await latest.getByRole('button', { name: 'Revert' }).click();
    await expect.poll(() => readFileSync(file, 'utf8'), poll).toBe(before);
  });

  it('imports a zip after showing what it would change', async () => {
    seed('/memories/existing.md', '- Already here\n');
    const { page } = await e2e.open();
    const panel = new MemoryPanelPage(page);
    await panel.file('/memories/existing.md').waitFor({ timeout: 20_000 });
    const importZip = async (name: string, files: Record<string, string>): Promise<void> => {
      const archive = path.join(path.dirname(e2e.app.dataDir), name);
      writeFileSync(
        archive,
        zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)]))),
      );
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser', { timeout: 20_000 }),
        panel.memory.getByRole('button', { name: 'Import memory' }).click(),
      ]);
      await chooser.setFiles(archive);
    };
    const notifications = page.getByRole('region', { name: 'Notifications' });

    // A hostile archive is refused as a whole, with a message that says why.
    await importZip('hostile.zip', { 'memories/ok.md': '- fine\n', 'memories/../escape.md': 'nope\n' });
    await notifications.getByText(/Import failed: .*climbs out of the folder/).waitFor({ timeout: 20_000 });
    expect(existsSync(path.join(e2e.app.dataDir, 'escape.md'))).toBe(false);
    expect(existsSync(onDisk('/memories/ok.md'))).toBe(false);

    // A good one is previewed first, then imported.
    await importZip('good.zip', {
      'memories/recipes/soup.md': '- Miso soup on Sundays\n',
      'memories/existing.md': '- Already here\n',
    });
    const dialog = page.getByRole('dialog', { name: 'Import memory' });
    await dialog.waitFor({ timeout: 20_000 });
    expect(await dialog.getByRole('region', { name: 'New files' }).innerText()).toContain(
      '/memories/recipes/soup.md',
    );
    expect(await dialog.innerText()).toMatch(/1 unchanged/);
    await dialog.getByRole('button', { name: /^Import 1 file/ }).click();
    await panel.file('/memories/recipes/soup.md').waitFor({ timeout: 20_000 });
    expect(readFileSync(onDisk('/memories/recipes/soup.md'), 'utf8')).toBe('- Miso soup on Sundays\n');
  });
});

describe('accessibility with content', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`the tree, a file's facts and its history pass axe-core (${scheme})`, async () => {
      const { page } = await e2e.open({ colorScheme: scheme });
      const panel = new MemoryPanelPage(page);
      const region = 'section[aria-label="Memory"]';
      await panel.file('/memories/preferences.md').waitFor({ timeout: 20_000 });
      await expectNoSeriousViolations(page, `tree (${scheme})`, region);
      await screenshot(page, `memory-tree-${scheme}`);
      await panel.open('/memories/preferences.md');
      await panel.fact('Likes green tea').waitFor();
      await expectNoSeriousViolations(page, `facts (${scheme})`, region);
      await panel.memory.getByRole('tab', { name: 'History' }).click();
      await panel.memory.getByRole('list', { name: 'History' }).getByRole('listitem').first().waitFor();
      await expectNoSeriousViolations(page, `history (${scheme})`, region);
      await panel.memory.getByRole('tab', { name: 'Edit' }).click();
      await panel.editor('/memories/preferences.md').waitFor();
      await expectNoSeriousViolations(page, `editor (${scheme})`, region);
      await screenshot(page, `memory-editor-${scheme}`);
    });
  }
});
