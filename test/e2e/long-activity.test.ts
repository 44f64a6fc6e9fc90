// The Activity tab of a long conversation (issue 14, item 5), in Chromium against browser mode: 800 turns
// with a tool call each, seeded on disk. Shown, the tab lists the calls of the last page (the page the
// chat opened with) and of the few earlier pages it loads by itself while its end is in view: every
// request names a limit, and what comes back is a small part of the file. Scrolling to the end of the
// list (oldest shown last) loads the calls before them.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryPanelPage } from './memory-page.js';
import { tempDataDir } from './support/app-server.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';
import { ShellPage } from './support/pages/shell-page.js';

const TURNS = 800;
const TITLE = 'Months of lookups';

/** A conversation file of `TURNS` turns: a question, a memory view, its result, an answer. */
function seedToolConversation(dataDir: string): string {
  const dir = path.join(dataDir, 'conversations');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const start = Date.parse('2026-01-01T09:00:00Z');
  const at = (n: number): string => new Date(start + n * 10_000).toISOString();
  const id = 'long-activity';
  const lines: unknown[] = [{ t: 'meta', v: 1, id, title: TITLE, createdAt: at(0), memory: true }];
  for (let i = 0; i < TURNS; i++) {
    const tool = `toolu_${i}`;
    const text = `Question ${i}: what is in note ${i}?`;
    lines.push(
      {
        t: 'msg',
        id: `u${i}`,
        kind: 'user',
        role: 'user',
        content: [{ type: 'text', text }],
        at: at(4 * i),
        text,
      },
      {
        t: 'msg',
        id: `a${i}`,
        kind: 'assistant',
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: tool,
            name: 'memory',
            input: { command: 'view', path: `/memories/note-${i}.md` },
          },
        ],
        at: at(4 * i + 1),
      },
      {
        t: 'msg',
        id: `r${i}`,
        kind: 'tool_results',
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: tool,
            content: `Note ${i}: ${'tea '.repeat(30)}`,
            is_error: false,
          },
        ],
        at: at(4 * i + 2),
        tools: { [tool]: { name: 'memory', durationMs: 4, isError: false } },
      },
      {
        t: 'msg',
        id: `b${i}`,
        kind: 'assistant',
        role: 'assistant',
        content: [{ type: 'text', text: `Answer ${i}: it is about tea.` }],
        at: at(4 * i + 3),
      },
    );
  }
  const file = path.join(dir, `${id}.jsonl`);
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n', { mode: 0o600 });
  return file;
}

const dataDir = tempDataDir();
const file = seedToolConversation(dataDir);
const e2e = useE2EApp({ dataDir });
const poll = { timeout: 15_000, interval: 50 };

let page: Page;
/** Every conversations.get / conversations.page the page sent, and the bytes of their answers. */
const sent: { channel: string; payload: { limit?: number } }[] = [];
let answerBytes = 0;

beforeAll(async () => {
  ({ page } = await e2e.open());
  const asked = new Set<number>();
  page.on('websocket', (ws) => {
    ws.on('framesent', (frame) => {
      const message = JSON.parse(String(frame.payload)) as {
        t: string;
        id?: number;
        channel?: string;
        payload?: { limit?: number };
      };
      if (message.t !== 'invoke' || !/^conversations\.(get|page)$/.test(String(message.channel))) return;
      asked.add(message.id!);
      sent.push({ channel: message.channel!, payload: message.payload ?? {} });
    });
    ws.on('framereceived', (frame) => {
      const text = String(frame.payload);
      const message = JSON.parse(text) as { t: string; id?: number };
      if (message.t === 'result' && asked.has(message.id!)) answerBytes += Buffer.byteLength(text);
    });
  });
  await new ShellPage(page).ready();
});

/** The turn numbers of the calls listed, newest first. */
async function listed(panel: MemoryPanelPage): Promise<number[]> {
  const labels = await panel.activity
    .getByRole('list', { name: 'Tool calls' })
    .getByRole('listitem')
    .evaluateAll((items) => items.map((i) => i.getAttribute('aria-label') ?? ''));
  return labels.map((l) => Number(/note-(\d+)\.md/.exec(l)?.[1] ?? NaN));
}

describe('the Activity tab of a long conversation', () => {
  it('shows the calls of a page, not of the whole transcript', async () => {
    const shell = new ShellPage(page);
    const chat = new ChatPage(page);
    const panel = new MemoryPanelPage(page);
    await shell.openConversation(TITLE);
    await expect.poll(() => chat.row(`b${TURNS - 1}`).isVisible(), poll).toBe(true);
    await panel.show('Activity');
    const newest = panel.activity.getByRole('listitem', {
      name: `memory · view /memories/note-${TURNS - 1}.md`,
    });
    await expect.poll(() => newest.isVisible(), poll).toBe(true);
    // Counted once the tab is done filling itself: until then a page may land between two reads.
    const list = panel.activity.getByRole('list', { name: 'Tool calls' });
    await expect.poll(() => list.getAttribute('aria-busy'), poll).toBe('false');

    const calls = await listed(panel);
    expect(calls[0]).toBe(TURNS - 1);
    expect(calls.length).toBeGreaterThan(5);
    expect(calls.length).toBeLessThan(TURNS / 4);
    // Every request asked for a page, and all that came back is a small part of the conversation.
    expect(sent.length).toBeGreaterThan(0);
    for (const request of sent) expect(request.payload.limit).toBeGreaterThan(0);
    expect(answerBytes).toBeLessThan(statSync(file).size / 10);
    // The counts say they are of the latest messages.
    expect(await panel.activity.getByRole('status').innerText()).toBe(
      `${calls.length} of ${calls.length} calls in the latest messages`,
    );
    // The way to the earlier ones.
    await expect
      .poll(() => panel.activity.getByRole('button', { name: 'Show earlier calls' }).isEnabled(), poll)
      .toBe(true);
  });

  it('scrolling to the oldest call shown loads the ones before it', async () => {
    const panel = new MemoryPanelPage(page);
    const before = await listed(panel);
    const oldest = Math.min(...before);
    const pages = sent.filter((r) => r.channel === 'conversations.page').length;
    await expect
      .poll(async () => {
        await panel.activity.evaluate((el) => (el.scrollTop = el.scrollHeight));
        return Math.min(...(await listed(panel)));
      }, poll)
      .toBeLessThan(oldest);
    const after = await listed(panel);
    // Older calls below the ones shown, in order, none twice.
    expect(after.slice(0, before.length)).toEqual(before);
    expect(new Set(after).size).toBe(after.length);
    expect(after).toEqual([...after].sort((a, b) => b - a));
    expect(sent.filter((r) => r.channel === 'conversations.page').length).toBeGreaterThan(pages);
    for (const request of sent) expect(request.payload.limit).toBeGreaterThan(0);
  });
});
