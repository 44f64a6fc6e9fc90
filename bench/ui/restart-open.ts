// The first open of a long conversation after a fresh start of the server (issue 14, item 5). An earlier
// session (a core on the same folder: it listed, opened the conversation, built the recall index, closed)
// left the folder's summary cache, recall index and the conversation's page index (conversations/.pages/);
// the new process then reads the page index and the file's tail for the first screen instead of replaying
// the whole file. Measured against a
// 20-message conversation in the same run, and against the same long one with its page index deleted
// (the summary cache kept: the replay of that one file is what the index saves).
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { createCore } from '../../electron/core/create-core.js';
import { PAGES_DIR } from '../../electron/core/conversations/page-file.js';
import { startApp, tempDataDir } from '../../test/e2e/support/app-server.js';
import { testHost } from '../../test/integration/agent/harness.js';
import type { FakeAnthropic } from '../../test/fixtures/fake-anthropic/index.js';
import { LOG_EMPTY, openConversationProbe } from './page-probes.js';
import { seedConversation } from './seed.js';
import { midMean } from '../timing.js';

export interface RestartOpen {
  ms: number;
  /** What the server sent the page for that open. */
  bytes: number;
}

/** Fresh servers per size: one open each, so the row is the midMean of these. */
export const RESTARTS = 11;

/** The opens' time as midMean (bench/timing.ts) has it, with the bytes of the open with the median time. */
export const typicalOpen = (opens: RestartOpen[]): RestartOpen => ({
  ms: midMean(opens.map((o) => o.ms)),
  bytes: [...opens].sort((a, b) => a.ms - b.ms)[Math.floor(opens.length / 2)]!.bytes,
});

/** A session that opened the conversation and closed: what it saves of the folder is on disk. */
async function earlierSession(fake: FakeAnthropic, dataDir: string, id: string, keepIndex: boolean) {
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'bench-key', HOME: dataDir };
  const core = await createCore({ dataDir, host: testHost, env });
  const call = { clientId: 'bench' };
  try {
    await core.handlers['conversations.list']({}, call);
    await core.handlers['conversations.get']({ id, limit: 50 }, call);
    // Waits for the recall index, which a session builds soon after showing the list.
    await core.handlers['conversations.search']({ query: 'quick' }, call);
  } finally {
    await core.close();
  }
  if (!keepIndex) await rm(path.join(dataDir, 'conversations', PAGES_DIR), { recursive: true, force: true });
}

export async function firstOpenAfterStart(
  fake: FakeAnthropic,
  browser: Browser,
  messages: number,
  keepIndex = true,
): Promise<RestartOpen> {
  const dataDir = tempDataDir('mnemo-bench-');
  const seeded = seedConversation(dataDir, messages);
  // Opened first, so the lazy chunks (Markdown, highlighting) are loaded before the measured open. Texts of
  // its own: the window caches each message's render, and a warm-up with the 20-message chat's very texts
  // made that baseline's open a few milliseconds cheaper than any first open is (1.17-1.22x against it).
  const warm = seedConversation(dataDir, 20, 'warm-up', 'Warm-up chat', 1_000_000);
  await earlierSession(fake, dataDir, seeded.id, keepIndex);
  const app = await startApp({ baseUrl: fake.url, dataDir });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    const page = await context.newPage();
    let received = 0;
    page.on('websocket', (ws) =>
      ws.on('framereceived', (frame) => (received += Buffer.byteLength(frame.payload))),
    );
    await page.goto(app.url);
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    await nav.getByText(seeded.title).waitFor({ timeout: 30_000 });
    await page.evaluate(openConversationProbe(warm));
    await page.getByRole('button', { name: 'New chat', exact: true }).click();
    await page.waitForFunction(LOG_EMPTY);
    received = 0;
    const { ms } = (await page.evaluate(openConversationProbe(seeded))) as { ms: number };
    const bytes = received;
    await context.close();
    return { ms, bytes };
  } finally {
    await app.stop();
  }
}
