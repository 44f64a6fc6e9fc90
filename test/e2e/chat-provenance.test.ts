// Provenance end to end (issue 5, point 3): "written in ‘…’ at 14:02" in the memory panel links to the
// message that wrote the file. After the conversation has moved on (the write is scrolled far out of view,
// out of the virtualized DOM), the link brings that very message back into view and highlights it.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { text, toolUse } from '../fixtures/fake-anthropic/index.js';
import { MemoryPanelPage } from './memory-page.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';

const e2e = useE2EApp();
const poll = { timeout: 20_000, interval: 50 };
const TOOL_ID = 'toolu_provenance_000000001';

/** Whether the chat row for the tool call is in the DOM and inside the visible part of the log. */
function toolRowInView(page: Page): Promise<{ inView: boolean; highlighted: boolean; text: string }> {
  return page.evaluate((id) => {
    const log = document.querySelector('[role="log"]');
    const row = document.querySelector(`[data-message-id="tool:${id}"]`);
    if (!log || !row) return { inView: false, highlighted: false, text: '' };
    const a = log.getBoundingClientRect();
    const b = row.getBoundingClientRect();
    return {
      inView: b.bottom > a.top && b.top < a.bottom,
      highlighted: row.classList.contains('message-row-focus'),
      text: row.textContent ?? '',
    };
  }, TOOL_ID);
}

describe('provenance', () => {
  it('“written in ‘…’” scrolls the chat to the call that wrote the file and highlights it', async () => {
    const { page, pageErrors } = await e2e.open();
    const chat = new ChatPage(page);
    const panel = new MemoryPanelPage(page);
    e2e.fake.enqueue(
      toolUse({
        id: TOOL_ID,
        name: 'memory',
        input: { command: 'create', path: '/memories/trip.md', file_text: '# Trip\n\n- Lisbon in May\n' },
      }),
      text('Noted: Lisbon in May.'),
    );
    await chat.send('Remember my trip to Lisbon in May.');
    await panel.file('/memories/trip.md').waitFor({ timeout: 20_000 });
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Noted');

    // Move the conversation on by several screens.
    const long = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} about the weather.`).join('\n\n');
    for (let i = 0; i < 3; i++) {
      await chat.sendButton.waitFor();
      e2e.fake.enqueue(text(`Part ${i}.\n\n${long}`));
      await chat.send(`Tell me more, part ${i}.`);
      await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain(`Paragraph 29`);
    }
    await chat.sendButton.waitFor();
    await expect.poll(async () => (await toolRowInView(page)).inView, poll).toBe(false);

    await panel.open('/memories/trip.md');
    const lastChange = panel.memory.getByText(/Last change/);
    await expect.poll(() => lastChange.innerText(), poll).toMatch(/written in ‘.+’ at/);
    await lastChange.getByRole('button').click();

    await expect
      .poll(async () => toolRowInView(page), poll)
      .toMatchObject({ inView: true, highlighted: true });
    expect((await toolRowInView(page)).text).toContain('/memories/trip.md');
    // The highlight is brief.
    await expect.poll(async () => (await toolRowInView(page)).highlighted, poll).toBe(false);
    expect(pageErrors).toEqual([]);
  });
});
