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

/** A fresh context (its own storage) and page; errors in the page are collected for assertions. */
export async function openPage(
  browser: Browser,
  url: string,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page; pageErrors: Error[] }> {
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    viewport: options.viewport ?? { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const pageErrors: Error[] = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  await page.goto(url);
  return { context, page, pageErrors };
}
