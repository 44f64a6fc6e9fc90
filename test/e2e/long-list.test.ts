// A sidebar of many conversations (issue 17, point 6: opening the app with a long history), in Chromium
// against browser mode: the window's first list asks only for what fills its sidebar, however many
// conversations there are, and the rest follows once the window is idle, so the oldest is there to open.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { firstListLimit } from '../../shared/channels/conversations.js';
import { tempDataDir } from './support/app-server.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';
import { ShellPage } from './support/pages/shell-page.js';

const COUNT = 120;
const HEIGHT = 800;
const title = (i: number): string => `Chat ${String(i).padStart(3, '0')}`;

/** COUNT conversations of a question and an answer, chat 000 the oldest, an hour apart. */
function seedConversations(dataDir: string): void {
  const dir = path.join(dataDir, 'conversations');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const start = Date.parse('2026-01-01T09:00:00Z');
  for (let i = 0; i < COUNT; i++) {
    const at = (s: number): string => new Date(start + i * 3_600_000 + s * 1_000).toISOString();
    const id = `chat-${i}`;
    const lines = [
      { t: 'meta', v: 1, id, title: title(i), createdAt: at(0), memory: true },
      {
        t: 'msg',
        id: `u${i}`,
        kind: 'user',
        role: 'user',
        content: [{ type: 'text', text: `Hi ${i}` }],
        at: at(1),
        text: `Hi ${i}`,
      },
      {
        t: 'msg',
        id: `a${i}`,
        kind: 'assistant',
        role: 'assistant',
        content: [{ type: 'text', text: `Answer ${i}.` }],
        at: at(2),
      },
    ];
    writeFileSync(path.join(dir, `${id}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n', {
      mode: 0o600,
    });
  }
}

const dataDir = tempDataDir();
seedConversations(dataDir);
const e2e = useE2EApp({ dataDir });
const poll = { timeout: 15_000, interval: 50 };

let page: Page;
/** Every conversations.list the page sent, with the answer it got. */
const lists: { limit?: number; answer?: { conversations: { title: string }[]; more?: boolean } }[] = [];

beforeAll(async () => {
  ({ page } = await e2e.open({ viewport: { width: 1280, height: HEIGHT } }));
  const byId = new Map<number, (typeof lists)[number]>();
  page.on('websocket', (ws) => {
    ws.on('framesent', (frame) => {
      const message = JSON.parse(String(frame.payload)) as {
        t: string;
        id: number;
        channel?: string;
        payload?: { limit?: number };
      };
      if (message.t !== 'invoke' || message.channel !== 'conversations.list') return;
      const request = { ...(message.payload ?? {}) };
      lists.push(request);
      byId.set(message.id, request);
    });
    ws.on('framereceived', (frame) => {
      const message = JSON.parse(String(frame.payload)) as { t: string; id?: number; value?: never };
      const request = message.t === 'result' ? byId.get(message.id!) : undefined;
      if (request) request.answer = message.value;
    });
  });
  await new ShellPage(page).ready();
});

describe('a sidebar of many conversations', () => {
  it('asks first for what fills it, then for the rest, and lists them all newest first', async () => {
    const shell = new ShellPage(page);
    await expect.poll(() => shell.conversation(title(0)).count(), poll).toBe(1);
    const limit = firstListLimit(HEIGHT);
    expect(limit).toBeLessThan(COUNT);
    expect(lists[0]).toMatchObject({ limit });
    expect(lists[0]!.answer?.conversations).toHaveLength(limit);
    expect(lists[0]!.answer?.more).toBe(true);
    expect(lists[1]?.limit).toBeUndefined();
    expect(lists[1]!.answer?.conversations).toHaveLength(COUNT);
    const rows = await shell.sidebar
      .getByRole('listitem')
      .evaluateAll((items) => items.map((i) => (i.textContent ?? '').slice(0, 8)));
    expect(rows).toEqual(Array.from({ length: COUNT }, (_, i) => title(COUNT - 1 - i)));
  });

  it('opens the oldest conversation', async () => {
    const shell = new ShellPage(page);
    await shell.openConversation(title(0));
    await expect.poll(() => new ChatPage(page).row('a0').isVisible(), poll).toBe(true);
  });
});
