// The Activity and Context tabs end to end (issue 5, points 4 and 7), plus axe-core on the three side
// panel tabs, light and dark.
import { describe, expect, it } from 'vitest';
import { text, toolUse } from '../fixtures/fake-anthropic/index.js';
import { invoke, MemoryPanelPage } from './memory-page.js';
import { expectNoSeriousViolations } from './support/axe.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';
import { screenshot } from './support/screenshots.js';

const e2e = useE2EApp();
const poll = { timeout: 20_000, interval: 50 };

describe('the Activity tab', () => {
  it('lists every tool call with its duration, input and result, filterable by tool', async () => {
    const { page, pageErrors } = await e2e.open();
    const chat = new ChatPage(page);
    const panel = new MemoryPanelPage(page);
    e2e.fake.enqueue(
      toolUse({ name: 'memory', input: { command: 'view', path: '/memories' } }),
      toolUse({ name: 'memory_search', input: { query: 'tea' } }),
      toolUse({ name: 'memory', input: { command: 'view', path: '/memories/missing.md' } }),
      text('I looked around; nothing about tea yet.'),
    );
    await chat.send('Do you know what tea I like?');
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('nothing about tea yet');

    await panel.show('Activity');
    const calls = panel.activity.getByRole('list', { name: 'Tool calls' }).getByRole('listitem');
    await expect.poll(() => calls.count(), poll).toBe(3);
    const search = panel.activity.getByRole('listitem', { name: 'memory_search · tea' });
    expect(await search.innerText()).toMatch(/\d+(\.\d+)? (ms|s)/);
    const missing = panel.activity.getByRole('listitem', { name: 'memory · view /memories/missing.md' });
    expect(await missing.innerText()).toContain('Error');
    await missing.getByRole('button', { expanded: false }).click();
    expect(await missing.innerText()).toContain('"path": "/memories/missing.md"');

    await panel.activity.getByRole('combobox', { name: 'Filter by tool' }).selectOption('memory_search');
    await expect.poll(() => calls.count(), poll).toBe(1);
    expect(await calls.first().getAttribute('aria-label')).toBe('memory_search · tea');
    await screenshot(page, 'activity-light');
    expect(pageErrors).toEqual([]);
  });
});

describe('the Context tab', () => {
  it('meters the context and compacts on "Compact now"', async () => {
    const { page, pageErrors } = await e2e.open();
    const chat = new ChatPage(page);
    const panel = new MemoryPanelPage(page);
    await page
      .getByRole('navigation', { name: 'Conversations' })
      .getByText('Do you know what tea I like?')
      .click();
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('nothing about tea yet');
    await panel.show('Context');
    const meter = panel.context.getByRole('meter', { name: 'Context used' });
    await expect
      .poll(() => meter.getAttribute('aria-valuetext'), poll)
      .toMatch(/^[\d.]+k? of [\d.]+k tokens \(\d+%\)/);
    const history = panel.context.getByRole('region', { name: 'Clearing and compaction history' });
    expect(await history.innerText()).toContain('Nothing has been cleared or compacted');

    await panel.context.getByRole('button', { name: 'Compact now' }).click();
    await expect.poll(() => history.innerText(), poll).toMatch(/Compacted[\s\S]*→/);
    await expect.poll(() => chat.conversation.innerText(), poll).toMatch(/Compacted/);
    await expect
      .poll(() => panel.context.getByRole('button', { name: 'Compact now' }).isEnabled(), poll)
      .toBe(true);
    await screenshot(page, 'context-light');
    expect(pageErrors).toEqual([]);
  });

  it('shows a compaction card and its history entry under a low trigger (local strategy)', async () => {
    await invoke(e2e.app, 'settings.set', { patch: { contextStrategy: 'local', compactTrigger: 1_000 } });
    try {
      const { page } = await e2e.open();
      const chat = new ChatPage(page);
      const panel = new MemoryPanelPage(page);
      const long = (n: number) => `Part ${n}: ${'a long answer about many things '.repeat(60)}`;
      // The local summarizer is an extra model call with its own system prompt: answer it by rule.
      const removeRule = e2e.fake.rule((request) => {
        const system = JSON.stringify(request.body?.system ?? '');
        return system.includes('You summarize the earlier part')
          ? text('The user asked for long answers.')
          : undefined;
      });
      e2e.fake.enqueue(text(long(1)), text(long(2)));
      try {
        for (const n of [1, 2]) {
          await chat.send(`Tell me part ${n}, at length.`);
          await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain(`Part ${n}:`);
        }
      } finally {
        removeRule();
      }
      await expect.poll(() => chat.conversation.innerText(), poll).toMatch(/Compacted/);
      await panel.show('Context');
      const history = panel.context.getByRole('region', { name: 'Clearing and compaction history' });
      await expect.poll(() => history.innerText(), poll).toMatch(/Compacted/);
    } finally {
      await invoke(e2e.app, 'settings.reset', {});
    }
  });
});

describe('accessibility', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`the Memory, Activity and Context tabs have no serious or critical axe violation (${scheme})`, async () => {
      const { page } = await e2e.open({ colorScheme: scheme });
      const panel = new MemoryPanelPage(page);
      await page
        .getByRole('navigation', { name: 'Conversations' })
        .getByText('Do you know what tea I like?')
        .click();
      for (const [tab, region] of [
        ['Memory', 'section[aria-label="Memory"]'],
        ['Activity', 'section[aria-label="Activity"]'],
        ['Context', 'section[aria-label="Context"]'],
      ] as const) {
        await panel.show(tab);
        await page.locator(region).waitFor();
        if (tab === 'Activity') await panel.activity.getByRole('list', { name: 'Tool calls' }).waitFor();
        if (tab === 'Context') await panel.context.getByRole('meter').waitFor();
        await expectNoSeriousViolations(page, `${tab} (${scheme})`, region);
        await screenshot(page, `side-panel-${tab.toLowerCase()}-${scheme}`);
      }
    });
  }
});
