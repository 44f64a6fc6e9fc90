// The periodic check's interval as a setting (issue 16, point 3), through the sync.* channels of two real
// backends against the loopback git server: the default is 60 s; set to 5 s on B, a change A sends
// reaches B by B's check alone (no syncNow, no focus, no change of B's own), which the 60 s default
// would not do within this test's 25 s wait; the setting is kept with the space's remote on this device (a restart keeps it, a
// re-join keeps it) and values out of range are refused. No timing is asserted: the test waits for the
// outcome.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, DEFAULT_USER, type GitServer } from '../../fixtures/git-server/index.js';
import { call, type Harness } from '../agent/harness.js';
import { twoBackends } from './support.js';

const two = twoBackends();
let server: GitServer;
let a: Harness;
let b: Harness;
beforeAll(() => ({ server, a, b } = two));

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('the periodic check interval', () => {
  it('defaults to 60 s, is set per space on this device, and drives the check', async () => {
    const url = server.createRepo('interval').replace('http://', `http://${DEFAULT_USER}@`);
    // B joins the empty remote first (its first sync writes nothing here, so nothing else is due on B);
    // A syncs only when asked (no schedule).
    await b.core.sync.start();
    await b.core.handlers['sync.configure']({ url, token: DEFAULT_TOKEN, deviceName: 'Desktop' }, call);
    await until(
      async () => (await b.core.handlers['sync.status']({}, call)).status.state === 'synced',
      "B's first sync",
    );
    await a.core.handlers['sync.configure']({ url, token: DEFAULT_TOKEN, deviceName: 'Laptop' }, call);
    await a.core.handlers['sync.syncNow']({}, call);
    expect((await b.core.handlers['sync.status']({}, call)).checkSeconds).toBe(60);
    await expect(b.core.handlers['sync.setCheckInterval']({ seconds: 4 }, call)).rejects.toThrow();
    await expect(b.core.handlers['sync.setCheckInterval']({ seconds: 86_401 }, call)).rejects.toThrow();
    const view = await b.core.handlers['sync.setCheckInterval']({ seconds: 5 }, call);
    expect(view.checkSeconds).toBe(5);
    const file = path.join(b.dataDir, 'sync', 'personal.remote.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ checkSeconds: 5 });

    await a.core.ctx.memory.create('/memories/news.md', '- The train leaves at 7.\n', { kind: 'user' });
    await a.core.handlers['sync.syncNow']({}, call);
    await until(
      async () => (await b.core.ctx.memory.list()).some((e) => e.path === '/memories/news.md'),
      "B's periodic check bringing A's change",
    );

    // Saving the remote again (a new device name) keeps it; so does a restart.
    await b.core.handlers['sync.configure']({ url, deviceName: 'Desk' }, call);
    await b.restart();
    expect((await b.core.handlers['sync.status']({}, call)).checkSeconds).toBe(5);
  });
});
