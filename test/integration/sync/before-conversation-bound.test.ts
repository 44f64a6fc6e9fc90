// "Sync never blocks typing or an answer" (issue 16, point 3): the sync a new conversation asks for is
// waited for only while it is short. Against the loopback git server made to hang (hold(): requests are
// accepted and left unanswered) and a real backend with its SyncService started: a new conversation is
// answered while its sync still hangs; after a sync that failed for being offline, or while a sync has
// been running longer than the bound, the conversation does not wait for the sync at all, even one that
// would finish quickly; a short sync is waited for. No timing is asserted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_TOKEN,
  DEFAULT_USER,
  startGitServer,
  type GitServer,
} from '../../fixtures/git-server/index.js';
import { BEFORE_CONVERSATION_MS } from '../../../electron/core/sync/index.js';
import { call, send, startHarness, type Harness } from '../agent/harness.js';

let server: GitServer;
let h: Harness;
beforeAll(async () => {
  server = await startGitServer();
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
  await h?.fake.close();
  await server?.close();
});

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
const state = () => h.core.sync.status('personal').state;

describe('the sync before a new conversation', () => {
  it('is waited for only while short: a hung remote, an offline one, a long sync', async () => {
    const url = server.createRepo('bound').replace('http://', `http://${DEFAULT_USER}@`);
    await h.core.sync.start();
    await h.core.handlers['sync.configure']({ url, token: DEFAULT_TOKEN, deviceName: 'Laptop' }, call);
    await until(() => state() === 'synced', 'the first sync');

    // A hung remote: the answer comes while the sync it asked for still waits on the remote.
    let release = server.hold();
    const { events } = await send(h, 'Hello there');
    expect(events.at(-1)).toMatchObject({ type: 'run.finished' });
    expect(server.held).toBeGreaterThan(0);
    expect(state()).toBe('syncing');
    release();
    await until(() => state() === 'synced', 'the sync once the remote answers');

    // The remote was unreachable at the last sync: a new conversation goes on at once, even though the
    // remote is back and the retry behind it will succeed quickly.
    await server.down();
    await h.core.handlers['sync.syncNow']({}, call).catch(() => undefined);
    expect(h.core.sync.status('personal')).toMatchObject({ state: 'error', kind: 'offline' });
    await server.up();
    expect(await h.core.sync.beforeConversation('personal')).toBe(false);
    await until(() => state() === 'synced', 'the retry');

    // A sync that has run longer than the bound (a big first sync, a slow remote) is not waited for,
    // even if it is about to finish.
    release = server.hold();
    const running = h.core.handlers['sync.syncNow']({}, call);
    await until(() => (h.core.sync.runningFor('personal') ?? 0) > BEFORE_CONVERSATION_MS, 'a long sync');
    const waited = h.core.sync.beforeConversation('personal');
    release();
    expect(await waited).toBe(false);
    await running;

    // A short one is waited for.
    expect(await h.core.sync.beforeConversation('personal')).toBe(true);
  });
});
