// The app's sync schedule between two backends: a change on A goes out a moment later (batched), B's
// periodic check brings it in, and stopping (quitting) sends what still waits. No timing is asserted:
// the test waits for the outcome.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSONAL_ID } from '../../../electron/core/spaces/index.js';
import {
  spaceChanges,
  SyncScheduler,
  SyncService,
  type SyncStatus,
} from '../../../electron/core/sync/index.js';
import { createCore } from '../../../electron/core/create-core.js';
import { testHost } from '../agent/harness.js';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_TOKEN, DEFAULT_USER } from '../../fixtures/git-server/index.js';
import { startGitServer, type GitServer } from '../../fixtures/git-server/index.js';
import { device, removeAll, USER } from './support.js';

let server: GitServer;
beforeAll(async () => {
  server = await startGitServer();
});
afterAll(async () => {
  await server.close();
});

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('sync scheduler', () => {
  it('a change on A reaches B by the schedule alone; stop() sends what waits', async () => {
    const url = server.createRepo('scheduled');
    const a = await device('laptop', url);
    const b = await device('desktop', url);
    const statusesB: SyncStatus[] = [];
    const sa = new SyncScheduler(a.sync, {
      periodMs: 500,
      debounceMs: 200,
      onChange: await spaceChanges(a.core, PERSONAL_ID),
    });
    const sb = new SyncScheduler(b.sync, {
      periodMs: 500,
      debounceMs: 200,
      onChange: await spaceChanges(b.core, PERSONAL_ID),
      onStatus: (s) => statusesB.push(s),
    });
    try {
      sa.start();
      sb.start();
      for (let i = 0; i < 5; i++) await a.core.ctx.memory.create(`/memories/burst-${i}.md`, `- ${i}\n`, USER);
      await until(
        async () =>
          (await b.core.ctx.memory.list()).filter((e) => e.path.startsWith('/memories/burst-')).length === 5,
        'the burst on B',
      );
      expect(statusesB.some((s) => s.state === 'synced')).toBe(true);
      // The burst went as few commits, not one per write.
      const commits = Number(server.git('scheduled', ['rev-list', '--count', 'main']).trim());
      expect(commits).toBeLessThan(8);
      // A change just before quitting is not left behind.
      await b.core.ctx.memory.create('/memories/last.md', 'last\n', USER);
      await sb.stop();
      await sa.now();
      expect((await a.core.ctx.memory.read('/memories/last.md')).content).toBe('last\n');
    } finally {
      await sa.stop();
      await sb.stop();
      await a.close();
      await b.close();
      removeAll(a.dataDir, b.dataDir);
    }
  });

  it('an error is a status with its reason, and the next check tries again', async () => {
    const url = server.createRepo('scheduled-down');
    const a = await device('laptop', url, { token: 'wrong' });
    const seen: SyncStatus[] = [];
    const sa = new SyncScheduler(a.sync, { periodMs: 200, onStatus: (s) => seen.push(s) });
    try {
      sa.start();
      await until(async () => seen.filter((s) => s.state === 'error').length >= 2, 'two failed checks');
      const error = seen.find((s) => s.state === 'error');
      expect(error).toMatchObject({ state: 'error', kind: 'auth' });
      a.sync.config.setToken('secret-token');
      await until(async () => sa.status().state === 'synced', 'a good check');
    } finally {
      await sa.stop();
      await a.close();
      removeAll(a.dataDir);
    }
  });

  it('the service: join, status, a new conversation waits for what the other device learned, disconnect', async () => {
    const url = server.createRepo('service');
    const dirs = [0, 1].map(() => mkdtempSync(path.join(os.tmpdir(), 'mnemo-sync-service-')));
    const [ca, cb] = await Promise.all(
      dirs.map((dataDir) => createCore({ dataDir, host: testHost, env: {} })),
    );
    const a = new SyncService(ca!, { periodMs: 60_000, debounceMs: 100 });
    const b = new SyncService(cb!, { periodMs: 60_000, debounceMs: 60_000 });
    const seen: SyncStatus[] = [];
    b.onStatus((_id, s) => seen.push(s));
    try {
      await a.start();
      await b.start();
      const auth = { url, token: DEFAULT_TOKEN, username: DEFAULT_USER };
      expect(await a.join(PERSONAL_ID, { ...auth, device: 'laptop' })).toMatchObject({
        joined: true,
        device: 'laptop',
      });
      expect(await b.join(PERSONAL_ID, { ...auth, device: 'desktop' })).toMatchObject({ joined: true });
      await ca!.ctx.memory.create('/memories/new.md', '- learned on the laptop\n', USER);
      await a.syncNow(PERSONAL_ID);
      // B's own checks are a minute apart: the conversation start brings it.
      await b.beforeConversation(PERSONAL_ID, 30_000);
      expect((await cb!.ctx.memory.read('/memories/new.md')).content).toBe('- learned on the laptop\n');
      expect(b.status(PERSONAL_ID).state).toBe('synced');
      expect(seen.some((s) => s.state === 'syncing')).toBe(true);
      await b.disconnect(PERSONAL_ID);
      expect(b.status(PERSONAL_ID)).toEqual({ state: 'off' });
      expect((await b.of(PERSONAL_ID)).configured()).toBe(false);
      // The data stays.
      expect((await cb!.ctx.memory.read('/memories/new.md')).content).toBe('- learned on the laptop\n');
    } finally {
      await a.stop();
      await b.stop();
      await ca!.close();
      await cb!.close();
      removeAll(...dirs);
    }
  });
});
