// Screenshots of the main screens, saved to test-results/screenshots/ (gitignored). The README's images
// are chosen from these.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './app-server.js';

export const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^a-z0-9-]+/gi, '-')}.png`);
  await page.screenshot({ path: file, fullPage: false, animations: 'disabled' });
  return file;
}
