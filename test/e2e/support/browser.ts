// One headless Debian Chromium per test file (common.md): playwright-core with the system browser, never a
// downloaded one, and a fresh profile each launch (launch() uses a new temporary user-data-dir).
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
