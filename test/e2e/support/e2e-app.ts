// The per-file fixture: the fake Anthropic API in this process, the worker's Chromium (contexts of this
// file's own), and the real browser-mode server as a child on a temp data dir. Call `useE2EApp()` at the top of a test file; it registers
// beforeAll/afterAll and returns a handle whose fields are set once beforeAll has run.
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../../fixtures/fake-anthropic/index.js';
import { startApp, type AppServer, type StartAppOptions } from './app-server.js';
import { openPage, workerBrowser, type OpenedPage, type PageOptions } from './browser.js';

export interface E2EApp {
  fake: FakeAnthropic;
  app: AppServer;
  browser: Browser;
  /**
   * A new context + page on the app's URL: closed when the test that opened it ends, or, opened in a hook,
   * in afterAll.
   */
  open(options?: PageOptions): Promise<OpenedPage>;
}

export function useE2EApp(options: Omit<StartAppOptions, 'baseUrl'> = {}): E2EApp {
  const handle = {} as E2EApp;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    handle.fake = await startFakeAnthropic();
    // Settled, not Promise.all: if one fails, the other is still kept so afterAll can close it (a
    // leaked server would keep the test run from ending).
    const [browser, app] = await Promise.allSettled([
      workerBrowser(),
      startApp({ ...options, baseUrl: handle.fake.url }),
    ]);
    if (browser.status === 'fulfilled') handle.browser = browser.value;
    if (app.status === 'fulfilled') handle.app = app.value;
    if (browser.status === 'rejected') throw browser.reason;
    if (app.status === 'rejected') throw app.reason;
    handle.open = async (pageOptions) => {
      const opened = await openPage(handle.browser, handle.app.url, pageOptions);
      contexts.push(opened.context);
      // A page left open keeps its renderer working (timers, animations, the socket) for the rest of the
      // file; what a test opened for itself goes when the test does.
      // (Outside a test, in a file's beforeAll, the hook throws: that page goes with the file.)
      try {
        onTestFinished(() => opened.context.close().catch(() => undefined));
      } catch {
        // opened for the whole file
      }
      return opened;
    };
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    // The browser stays for the worker's next file.
    await handle.app?.stop();
    await handle.fake?.close();
  });
  return handle;
}
