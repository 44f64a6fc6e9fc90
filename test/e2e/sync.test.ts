// Sync set up in the window (issue 16): browser mode in real Chromium joins a repository of the loopback
// git server from Settings → Sync, the sidebar says "Synced", the remote holds the space, and the token
// is nowhere on the page.
import { describe, expect, it } from 'vitest';
import { afterAll, beforeAll } from 'vitest';
import { DEFAULT_TOKEN, DEFAULT_USER, startGitServer, type GitServer } from '../fixtures/git-server/index.js';
import { useE2EApp } from './support/e2e-app.js';
import { ShellPage } from './support/pages/shell-page.js';

const e2e = useE2EApp();
const poll = { timeout: 30_000, interval: 100 };
let server: GitServer;
beforeAll(async () => {
  server = await startGitServer();
});
afterAll(async () => {
  await server?.close();
});

describe('Settings → Sync', () => {
  it('joins a remote and the sidebar says Synced', async () => {
    const url = server.createRepo('e2e').replace('http://', `http://${DEFAULT_USER}@`);
    const { page, pageErrors } = await e2e.open();
    const shell = new ShellPage(page);
    await shell.ready();
    const status = page.getByRole('status', { name: 'Sync status' });
    expect(await status.count()).toBe(0);

    await shell.settingsButton.click();
    const section = shell.settingsDialog.getByRole('region', { name: 'Sync (Personal)' });
    await section.getByLabel('Remote address').fill(url);
    await section.getByLabel('Token').fill(DEFAULT_TOKEN);
    await section.getByLabel('This device’s name').fill('E2E laptop');
    await section.getByRole('button', { name: 'Join' }).click();
    await section.getByRole('button', { name: 'Save' }).waitFor({ timeout: 30_000 });
    expect(await section.getByLabel('Token').inputValue()).toBe('');
    expect(await section.getByLabel('Token').getAttribute('placeholder')).toBe('saved');
    await page.getByRole('button', { name: 'Done' }).click();

    await expect.poll(() => status.innerText(), poll).toMatch(/Synced just now|Synced \d+ min ago/);
    expect(await page.content()).not.toContain(DEFAULT_TOKEN);
    // The remote holds the space: its space.json arrived with this device's commit.
    expect(server.git('e2e', ['show', 'main:space.json'])).toContain('"name"');
    expect(server.git('e2e', ['log', '-1', '--format=%B', 'main'])).toContain('E2E laptop');
    expect(pageErrors).toEqual([]);
  });
});
