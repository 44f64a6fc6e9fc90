// UI performance (issue 5, point 8), in Debian's Chromium against the real browser-mode server and the fake
// Anthropic API:
// - a 2,000-message conversation renders its first screen in under 500 ms with a bounded number of DOM
//   nodes (baseline: a 20-message conversation in the same run);
// - a 20,000-message one within 1.1x of the 20-message time: it is opened a page at a time (issue 14,
//   item 5), and the bytes the server sent for its first screen are printed beside the baseline's; and
//   its first open after a fresh start of the server, through the page index (restart-open.ts);
// - streaming at ~200 deltas/s produces no long task and no layout shift in the chat;
// - the memory panel lists 5,000 files in under 300 ms (baseline: 50 files in the same run);
// - spaces (spaces.ts): switching among 50 full spaces within 300 ms, and opening the app with 50 spaces
//   against one.
// Data is seeded with raw generators (seed.ts) before each server starts.
import type { Page } from 'playwright-core';
import { startApp, tempDataDir, type AppServer } from '../../test/e2e/support/app-server.js';
import { launchBrowser } from '../../test/e2e/support/browser.js';
import { startFakeAnthropic, text, type FakeAnthropic } from '../../test/fixtures/fake-anthropic/index.js';
import {
  LOG_EMPTY,
  LOG_HAS,
  MEMORY_LIST_PROBE,
  MEMORY_ROWS_READY,
  READ_JANK_PROBE,
  READ_MEMORY_PROBE,
  START_JANK_PROBE,
  openConversationProbe,
  type JankReport,
} from './page-probes.js';
import { isMain } from '../is-main.js';
import { midMean } from '../timing.js';
import { filler, seedConversation, seedMemory } from './seed.js';
import { type RestartOpen, RESTARTS, firstOpenAfterStart, typicalOpen } from './restart-open.js';
import { spaceRows } from './spaces.js';

export interface BenchTable {
  title: string;
  rows: Record<string, string | number>[];
}

const round = (n: number): number => Math.round(n * 10) / 10;

type Probe = { ms: number; nodes: number; chatNodes: number };
/** ms: the slower of the first open (it also loads lazy chunks) and `again`, the warm re-opens' midMean. */
type Screen = Probe & { bytes: number; again: number };

const REOPENS = 15;

const kB = (bytes: number): string => `${round(bytes / 1024)} kB`;

async function withApp<T>(
  fake: FakeAnthropic,
  seed: (dataDir: string) => void,
  fn: (app: AppServer) => Promise<T>,
): Promise<T> {
  const dataDir = tempDataDir('mnemo-bench-');
  seed(dataDir);
  const app = await startApp({ baseUrl: fake.url, dataDir });
  try {
    return await fn(app);
  } finally {
    await app.stop();
  }
}

async function newPage(
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  url: string,
  init?: string,
): Promise<Page> {
  // bypassCSP: waitForFunction polls string predicates with eval, which the app's CSP forbids.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  const page = await context.newPage();
  if (init) await page.addInitScript(init);
  await page.goto(url);
  await page.getByRole('textbox', { name: 'Message', exact: true }).waitFor({ timeout: 30_000 });
  return page;
}

async function firstScreen(
  fake: FakeAnthropic,
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  messages: number,
): Promise<Screen> {
  let seeded = { id: '', title: '', lastText: '' };
  return withApp(
    fake,
    (dir) => (seeded = seedConversation(dir, messages)),
    async (app) => {
      const page = await newPage(browser, app.url);
      await page.getByRole('navigation', { name: 'Conversations' }).getByText(seeded.title).waitFor();
      // What the server sends the page (browser mode: one WebSocket), counted around each open.
      let received = 0;
      page.on('websocket', (ws) =>
        ws.on('framereceived', (frame) => (received += Buffer.byteLength(frame.payload))),
      );
      await page.reload();
      await page.getByRole('navigation', { name: 'Conversations' }).getByText(seeded.title).waitFor();
      // The first open also pays for lazy chunks (Markdown, highlighting); then REOPENS warm ones, whose
      // mean of the middle half is `again` (one sample is mostly noise, and the times come in whole frames:
      // the median of five swung 0.8-1.2x between runs with nothing changed). Both are printed.
      const first = (await page.evaluate(openConversationProbe(seeded))) as Probe;
      const warm: Probe[] = [];
      let bytes = 0;
      for (let i = 0; i < REOPENS; i++) {
        await page.getByRole('button', { name: 'New chat', exact: true }).click();
        await page.waitForFunction(LOG_EMPTY);
        received = 0;
        warm.push((await page.evaluate(openConversationProbe(seeded))) as Probe);
        bytes = received;
      }
      await page.context().close();
      const again = midMean(warm.map((p) => p.ms));
      return { ...warm.at(-1)!, ms: Math.max(first.ms, again), again, bytes };
    },
  );
}

async function streaming(
  fake: FakeAnthropic,
  browser: Awaited<ReturnType<typeof launchBrowser>>,
): Promise<{
  deltas: number;
  seconds: number;
  longTasks: number;
  worstTaskMs: number;
  chatShift: number;
  allShift: number;
  shiftedNodes: string;
}> {
  const words = 1200;
  const body = `${filler(42, words)} END-OF-STREAM`;
  // One word per delta, 5 ms apart: about 200 deltas per second.
  fake.setDefault(text(body, { delayMs: 5 }));
  return withApp(
    fake,
    () => undefined,
    async (app) => {
      const page = await newPage(browser, app.url);
      // Start-up work (the highlighter's grammars) is not streaming: observe from when the app is settled.
      await page.waitForFunction(() => document.documentElement.dataset.markdownWarm === 'done', undefined, {
        timeout: 30_000,
      });
      await page.evaluate(START_JANK_PROBE);
      const started = Date.now();
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Tell me a long story.');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.waitForFunction(LOG_HAS('END-OF-STREAM'), undefined, { timeout: 60_000, polling: 100 });
      const seconds = (Date.now() - started) / 1000;
      const jank = (await page.evaluate(READ_JANK_PROBE)) as JankReport;
      await page.context().close();
      return {
        deltas: words + 1,
        seconds,
        longTasks: jank.longTasks.length,
        worstTaskMs: jank.longTasks.length ? Math.max(...jank.longTasks) : 0,
        chatShift: jank.shifts.filter((s) => s.inChat).reduce((n, s) => n + s.value, 0),
        shiftedNodes: [...new Set(jank.shifts.filter((s) => s.inChat).flatMap((s) => s.nodes))]
          .slice(0, 4)
          .join(' '),
        allShift: jank.shifts.reduce((n, s) => n + s.value, 0),
      };
    },
  );
}

async function memoryList(
  fake: FakeAnthropic,
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  files: number,
): Promise<{ ms: number; nodes: number }> {
  return withApp(
    fake,
    (dir) => seedMemory(dir, files),
    async (app) => {
      const page = await newPage(browser, app.url, MEMORY_LIST_PROBE);
      await page.waitForFunction(MEMORY_ROWS_READY, undefined, { timeout: 60_000 });
      const result = (await page.evaluate(READ_MEMORY_PROBE)) as { ms: number; nodes: number };
      await page.context().close();
      return result;
    },
  );
}

export async function run(): Promise<BenchTable> {
  const fake = await startFakeAnthropic();
  const browser = await launchBrowser();
  try {
    const small = await firstScreen(fake, browser, 20);
    const large = await firstScreen(fake, browser, 2_000);
    const huge = await firstScreen(fake, browser, 20_000);
    // One sample per fresh server; a single one swung 0.6-1.3x on a quiet machine, the median of five
    // 1.2-2.2x (a sample that waited for the server's first API request): the midMean of RESTARTS each,
    // the two sizes taking turns.
    const restarts = { small: [] as RestartOpen[], huge: [] as RestartOpen[] };
    for (let r = 0; r < RESTARTS; r++) {
      restarts.small.push(await firstOpenAfterStart(fake, browser, 20));
      restarts.huge.push(await firstOpenAfterStart(fake, browser, 20_000));
    }
    const restartSmall = typicalOpen(restarts.small);
    const restartHuge = typicalOpen(restarts.huge);
    const restartNoIndex = await firstOpenAfterStart(fake, browser, 20_000, false);
    const stream = await streaming(fake, browser);
    const few = await memoryList(fake, browser, 50);
    const many = await memoryList(fake, browser, 5_000);
    const spaces = await spaceRows(fake, browser);
    const rows: BenchTable['rows'] = [
      {
        case: 'first screen, 2,000 messages',
        value: `${round(large.ms)} ms`,
        baseline: `${round(small.ms)} ms (20 messages)`,
        ratio: round(large.ms / Math.max(small.ms, 1)),
        limit: '< 500 ms',
        ok: large.ms < 500 ? 'yes' : 'NO',
      },
      {
        case: 'first screen, 20,000 messages',
        // Re-opened (both warm): the first open of the run loads the lazy chunks, whichever chat it is.
        value: `${round(huge.again)} ms, ${kB(huge.bytes)} sent`,
        baseline: `${round(small.again)} ms, ${kB(small.bytes)} sent (20 messages)`,
        ratio: round(huge.again / Math.max(small.again, 1)),
        limit: '< 1.1x the 20-message time',
        ok: huge.again < small.again * 1.1 ? 'yes' : 'NO',
      },
      {
        // A fresh server: the summary cache and the page index from an earlier session are all it reads
        // of the folder, then the file's tail; without the index the open replays the file.
        case: 'first open after a restart, 20,000 messages',
        value: `${round(restartHuge.ms)} ms, ${kB(restartHuge.bytes)} sent`,
        baseline: `${round(restartSmall.ms)} ms, ${kB(restartSmall.bytes)} sent (20 messages; middle halves of ${RESTARTS} restarts); ${round(restartNoIndex.ms)} ms without the page index`,
        ratio: round(restartHuge.ms / Math.max(restartSmall.ms, 1)),
        limit: '< 1.1x the 20-message time',
        ok: restartHuge.ms < restartSmall.ms * 1.1 ? 'yes' : 'NO',
      },
      {
        // One page however long the conversation: the 2,000-message chat sends as much as this one.
        case: 'bytes sent for the first screen, 20,000 messages',
        value: kB(huge.bytes),
        baseline: `${kB(large.bytes)} (2,000 messages), ${kB(small.bytes)} (20 messages)`,
        ratio: round(huge.bytes / Math.max(large.bytes, 1)),
        limit: '< 1.1x the 2,000-message chat',
        ok: huge.bytes < large.bytes * 1.1 ? 'yes' : 'NO',
      },
      {
        case: 'DOM nodes in the chat, 2,000 messages',
        value: large.chatNodes,
        baseline: `${small.chatNodes} (20 messages)`,
        ratio: round(large.chatNodes / Math.max(small.chatNodes, 1)),
        limit: 'bounded (< 3× the 20-message chat)',
        ok: large.chatNodes < small.chatNodes * 3 ? 'yes' : 'NO',
      },
      {
        case: 'DOM nodes in the page, 2,000 messages',
        value: large.nodes,
        baseline: `${small.nodes} (20 messages)`,
        ratio: round(large.nodes / Math.max(small.nodes, 1)),
        limit: '-',
        ok: '-',
      },
      {
        case: `streaming ${stream.deltas} deltas (${round(stream.deltas / stream.seconds)}/s)`,
        value: `${stream.longTasks} long tasks (worst ${round(stream.worstTaskMs)} ms)`,
        baseline: '-',
        ratio: '-',
        limit: '0 long tasks',
        ok: stream.longTasks === 0 ? 'yes' : 'NO',
      },
      {
        case: 'layout shift in the chat while streaming',
        value: round(stream.chatShift * 1000) / 1000,
        baseline: `page total ${round(stream.allShift * 1000) / 1000}${stream.shiftedNodes ? `; moved: ${stream.shiftedNodes}` : ''}`,
        ratio: '-',
        limit: '0',
        ok: stream.chatShift === 0 ? 'yes' : 'NO',
      },
      {
        case: 'memory panel lists 5,000 files',
        value: `${round(many.ms)} ms`,
        baseline: `${round(few.ms)} ms (50 files)`,
        ratio: round(many.ms / Math.max(few.ms, 1)),
        limit: '< 300 ms',
        ok: many.ms < 300 ? 'yes' : 'NO',
      },
      {
        case: 'DOM nodes in the memory panel, 5,000 files',
        value: many.nodes,
        baseline: `${few.nodes} (50 files)`,
        ratio: round(many.nodes / Math.max(few.nodes, 1)),
        limit: 'bounded (virtualized)',
        ok: many.nodes < few.nodes * 3 ? 'yes' : 'NO',
      },
      ...spaces,
    ];
    return { title: 'UI performance (Chromium, browser mode, fake API)', rows };
  } finally {
    await browser.close();
    await fake.close();
  }
}

// `node dist/bench/ui/index.js` prints the table on its own.
if (isMain(import.meta.url)) {
  run()
    .then((table) => {
      console.log(table.title);
      console.table(table.rows);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
