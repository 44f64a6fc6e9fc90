// Playwright's _electron against the real app, where the Electron binary is installed. It comes from
// GitHub, which some machines (this project's CI among them) cannot reach: there the test is skipped
// with its reason, the only skip the suite allows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The binary's path without letting the electron package start a download. */
function installedElectron(): string | null {
  const pkg = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const pathFile = path.join(pkg, 'path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const binary = path.join(pkg, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? binary : null;
}

const binary = installedElectron();
const reason = 'the Electron binary is not installed (it downloads from GitHub, unreachable here)';

describe('Electron window', () => {
  it.skipIf(binary === null)(
    `opens the hardened window${binary === null ? ` — skipped: ${reason}` : ''}`,
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-electron-'));
      const app = await electron.launch({
        executablePath: binary!,
        args: [path.join(root, 'dist/electron/main.js'), '--data-dir', dataDir],
        env: { ...process.env, ANTHROPIC_API_KEY: 'test' },
      });
      try {
        const page = await app.firstWindow();
        await expect.poll(() => page.title()).toBe('Mnemo');
        expect(page.url()).toMatch(/^app:\/\/mnemo\//);
        await page.getByRole('textbox', { name: 'Message' }).waitFor();
        // No Node in the renderer, and the bridge exposes functions only.
        expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe(
          'undefined',
        );
        expect(await page.evaluate(() => typeof (globalThis as { mnemo?: { on?: unknown } }).mnemo?.on)).toBe(
          'function',
        );
      } finally {
        await app.close();
      }
    },
  );
});
