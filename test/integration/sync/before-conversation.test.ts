// "A remembers a fact and B's next conversation has it in its backfill" (issue 16, point 7), through the
// real faces' backends: both run their SyncService (the app's default 60 s check, so only the sync a new
// conversation asks for can bring the fact in time), the real SDK against the fake Messages API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic, type FakeAnthropic } from '../../fixtures/fake-anthropic/index.js';
import {
  DEFAULT_TOKEN,
  DEFAULT_USER,
  startGitServer,
  type GitServer,
} from '../../fixtures/git-server/index.js';
import { call, send, startHarness, type Harness } from '../agent/harness.js';

let server: GitServer;
let fake: FakeAnthropic;
let a: Harness;
let b: Harness;
beforeAll(async () => {
  server = await startGitServer();
  fake = await startFakeAnthropic();
  a = await startHarness({ fake });
  b = await startHarness({ fake });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await fake?.close();
  await server?.close();
});

describe('before a new conversation loads its memory', () => {
  it("B's new conversation has the fact A just synced in its backfill", async () => {
    const url = server.createRepo('facts').replace('http://', `http://${DEFAULT_USER}@`);
    for (const [h, name] of [
      [a, 'Laptop'],
      [b, 'Desktop'],
    ] as const) {
      await h.core.sync.start();
      const joined = await h.core.handlers['sync.configure'](
        { url, token: DEFAULT_TOKEN, deviceName: name },
        call,
      );
      expect(joined.joined).toBe(true);
    }
    await b.core.handlers['sync.syncNow']({}, call);
    await a.core.ctx.memory.create('/memories/office.md', '- The office moved to Pier 9.\n', {
      kind: 'user',
    });
    await a.core.handlers['sync.syncNow']({}, call);
    expect(await b.core.ctx.memory.list()).not.toContainEqual(
      expect.objectContaining({ path: '/memories/office.md' }),
    );

    await send(b, 'Where is the office now?');
    expect(JSON.stringify(fake.lastMessageRequest().body)).toContain('Pier 9');
  });
});
