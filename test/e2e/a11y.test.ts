// Accessibility and looks of the main screens (issue 5, points 6 and 7): a real conversation with a memory
// write, a backfill, a tool call and rich Markdown; then axe-core on the chat, each side-panel tab, the
// settings and the shortcuts dialogs, in light and in dark, with a screenshot of each screen.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { text, toolUse } from '../fixtures/fake-anthropic/index.js';
import { expectNoSeriousViolations as expectClean } from './support/axe.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';
import { ShellPage } from './support/pages/shell-page.js';
import { screenshot } from './support/screenshots.js';

const e2e = useE2EApp();
const poll = { timeout: 15_000, interval: 50 };

let page: Page;
let chat: ChatPage;
let shell: ShellPage;

const dinnerAnswer = [
  '## A vegetarian dinner for Friday',
  '',
  'Since you are **vegetarian** and love *green tea*, here is a plan:',
  '',
  '| Course | Dish | Time |',
  '|---|---|---|',
  '| Starter | Miso soup with tofu | 15 min |',
  '| Main | Mushroom risotto | 40 min |',
  '| Dessert | Matcha panna cotta | 20 min + chilling |',
  '',
  '- [x] Check the pantry for arborio rice',
  '- [ ] Buy fresh mushrooms',
  '',
  'A quick timer for the risotto:',
  '',
  '```ts',
  'const minutes = 40;',
  'setTimeout(() => console.log("Stir and taste!"), minutes * 60_000);',
  '```',
].join('\n');

beforeAll(async () => {
  ({ page } = await e2e.open({ viewport: { width: 1440, height: 900 } }));
  // axe measures colours as they are painted: no half-faded dialogs (the CSS honours reduced motion).
  await page.emulateMedia({ reducedMotion: 'reduce' });
  chat = new ChatPage(page);
  shell = new ShellPage(page);
  await shell.ready();

  // A first conversation writes a memory file...
  e2e.fake.enqueue(
    toolUse({
      name: 'memory',
      input: {
        command: 'create',
        path: '/memories/preferences.md',
        file_text: '# Preferences\n\n- Vegetarian\n- Loves green tea\n- Cooks on Fridays\n',
      },
    }),
    text('Noted! I saved your food preferences to memory.'),
  );
  await chat.send('Remember: I am vegetarian, I love green tea, and I cook on Fridays.');
  await chat.answers.filter({ hasText: 'Noted!' }).waitFor();
  await chat.stopButton.waitFor({ state: 'hidden' });

  // ...which the next conversation loads (backfill), reads with a tool call, and answers from.
  await chat.newChatButton.click();
  e2e.fake.enqueue(
    toolUse({ name: 'memory', input: { command: 'view', path: '/memories/preferences.md' } }),
    text(dinnerAnswer),
  );
  await chat.send('Plan a dinner for Friday.');
  await chat.answers.filter({ hasText: 'Matcha panna cotta' }).waitFor();
  await chat.stopButton.waitFor({ state: 'hidden' });
});

function expectNoSeriousViolations(label: string): Promise<void> {
  return expectClean(page, label);
}

describe.each(['light', 'dark'] as const)('main screens in %s', (theme) => {
  beforeAll(async () => {
    await shell.setTheme(theme === 'light' ? 'Light' : 'Dark');
    expect(await shell.theme()).toBe(theme);
  });

  it('the chat, with its cards, and the Memory tab', async () => {
    await shell.openConversation('dinner');
    await shell.tab('Memory').click();
    await expect.poll(() => chat.card(/memory · view/).count(), poll).toBe(1);
    await expect.poll(() => chat.card(/Loaded 1 memory file/).count(), poll).toBe(1);
    expect(await chat.conversation.getByRole('table').count()).toBe(1);
    await chat.messageBox.focus();
    await expectNoSeriousViolations(`chat (${theme})`);
    await screenshot(page, `chat-${theme}`);
  });

  it('the Activity tab', async () => {
    await shell.tab('Activity').click();
    await page.getByRole('region', { name: 'Activity' }).waitFor();
    await expectNoSeriousViolations(`activity (${theme})`);
    await screenshot(page, `activity-${theme}`);
  });

  it('the Context tab', async () => {
    await shell.tab('Context').click();
    await page.getByRole('region', { name: 'Context' }).waitFor();
    await expectNoSeriousViolations(`context (${theme})`);
    await screenshot(page, `context-${theme}`);
    await shell.tab('Memory').click();
  });

  it('the first conversation with its memory change card', async () => {
    await shell.openConversation('Remember');
    const card = chat.card(/Memory · Created \/memories\/preferences\.md|memory · create/);
    await expect.poll(() => card.count(), poll).toBeGreaterThan(0);
    await expectNoSeriousViolations(`memory write (${theme})`);
    await screenshot(page, `memory-write-${theme}`);
  });

  it('a memory file opened in the Memory tab', async () => {
    const memory = page.getByRole('region', { name: 'Memory', exact: true });
    // Opened in the light pass already: the dark pass sees the same file view.
    if ((await memory.getByText('Loves green tea').count()) === 0) {
      const file = memory.getByRole('listitem', { name: '/memories/preferences.md' });
      await file.hover();
      await file.getByRole('button', { name: 'Open', exact: true }).click();
    }
    await memory.getByText('Loves green tea').first().waitFor();
    await expectNoSeriousViolations(`memory file (${theme})`);
    await screenshot(page, `memory-file-${theme}`);
  });

  it('the settings dialog', async () => {
    const dialog = await shell.openSettings();
    expect(await dialog.innerText()).toContain('A key is set');
    await expectNoSeriousViolations(`settings (${theme})`);
    await screenshot(page, `settings-${theme}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('the keyboard shortcuts', async () => {
    const help = await shell.openHelp();
    expect(await help.innerText()).toContain('Stop the answer');
    await expectNoSeriousViolations(`shortcuts (${theme})`);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  });
});

describe('the accessible names issue 5 fixes (point 6), each exactly', () => {
  it('the chat, the Memory region with its files and facts, and the Activity and Context regions', async () => {
    const exact = { exact: true };
    await shell.openConversation('dinner');
    expect(await page.getByRole('textbox', { name: 'Message', ...exact }).count()).toBe(1);
    for (const name of ['Send', 'New chat', 'Export memory', 'Import memory']) {
      expect(await page.getByRole('button', { name, ...exact }).count(), name).toBeGreaterThan(0);
    }
    await shell.tab('Memory').click();
    const memory = page.getByRole('region', { name: 'Memory', ...exact });
    // Back to the tree if a file is open from the earlier screens.
    const back = memory.getByRole('button', { name: /Back|All files/ });
    if (await back.count()) await back.first().click();
    const file = memory.getByRole('listitem', { name: '/memories/preferences.md', ...exact });
    await file.waitFor();
    await file.hover();
    expect(await file.getByRole('button', { name: 'Delete', ...exact }).count()).toBe(1);
    await file.getByRole('button', { name: 'Open', ...exact }).click();
    for (const fact of ['Vegetarian', 'Loves green tea', 'Cooks on Fridays']) {
      const item = memory.getByRole('listitem', { name: fact, ...exact });
      await item.waitFor();
      expect(await item.getByRole('button', { name: 'Forget', ...exact }).count(), fact).toBe(1);
    }
    await shell.tab('Activity').click();
    await page.getByRole('region', { name: 'Activity', ...exact }).waitFor();
    await shell.tab('Context').click();
    const context = page.getByRole('region', { name: 'Context', ...exact });
    await context.waitFor();
    expect(await context.getByRole('button', { name: 'Compact now', ...exact }).count()).toBe(1);
    // "Stop" exists only while an answer streams: test/e2e/chat.test.ts presses it by that exact name.
  });
});
