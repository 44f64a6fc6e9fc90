// Headless Debian Chromium: playwright-core with the system browser, never a downloaded one, and a fresh
// profile each launch (launch() uses a new temporary user-data-dir). The end-to-end tests share one per
// test worker (workerBrowser), each test file in contexts of its own (separate storage, cookies and cache).
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.MNEMO_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

const WORKER_BROWSER = Symbol.for('mnemo.e2e.workerBrowser');
interface Launched {
  browser: Promise<Browser>;
  alive: boolean;
}
type WorkerGlobal = typeof globalThis & { [WORKER_BROWSER]?: Launched };

/**
 * The worker's Chromium, launched by its first test file. The e2e project keeps one module registry per
 * worker (isolate: false) but gives each file fresh source modules, so the browser lives on globalThis.
 * A launch that failed, or a browser that went away, is replaced at the next call. Chromium talks to the
 * worker over a pipe and exits when the worker does, however it ends.
 */
export function workerBrowser(): Promise<Browser> {
  const g = globalThis as WorkerGlobal;
  const current = g[WORKER_BROWSER];
  if (current?.alive) return current.browser;
  const launched: Launched = { browser: launchBrowser(), alive: true };
  g[WORKER_BROWSER] = launched;
  launched.browser.then(
    (b) => b.on('disconnected', () => (launched.alive = false)),
    () => (launched.alive = false),
  );
  return launched.browser;
}

export interface PageOptions {
  colorScheme?: 'light' | 'dark';
  viewport?: { width: number; height: number };
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  pageErrors: Error[];
  /** Every request the page made that failed or was answered with a status of 400 or more, from load on. */
  failedRequests: string[];
}

/**
 * A fresh context (its own storage) and page; errors in the page and failed requests (a 404 for a missing
 * icon, say) are collected for assertions.
 */
export async function openPage(
  browser: Browser,
  url: string,
  options: PageOptions = {},
): Promise<OpenedPage> {
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    viewport: options.viewport ?? { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const pageErrors: Error[] = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  const failedRequests: string[] = [];
  // Without the token: a failure names the path, never the session's secret.
  const where = (u: string): string => new URL(u).pathname;
  page.on('response', (response) => {
    if (response.status() >= 400) failedRequests.push(`${response.status()} ${where(response.url())}`);
  });
  page.on('requestfailed', (request) =>
    failedRequests.push(`${request.failure()?.errorText ?? 'failed'} ${where(request.url())}`),
  );
  await page.goto(url);
  return { context, page, pageErrors, failedRequests };
}
