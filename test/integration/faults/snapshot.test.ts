// The fault worker's report of what a restart found (test/faults/snapshot.ts) is what the restart holds
// once its start has checked the summary cache against the files, not the cache's list that a start
// shows first. A kill between a conversation's append and the cache's next save leaves the cache behind
// the file: a report taken from that early list named the older title, the checker held the next restart
// to it, and that restart's correct title counted as a lost acknowledged rename.
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../../electron/core/create-core.js';
import { type FakeAnthropic, startFakeAnthropic, text } from '../../fixtures/fake-anthropic/index.js';
import { BackendClient, faultHost } from '../../faults/backend-client.js';
import { snapshot } from '../../faults/snapshot.js';

let fake: FakeAnthropic;
let dataDir: string;
const cores: Core[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake.close();
});
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function start(): Promise<BackendClient> {
  const core = await createCore({
    dataDir,
    host: faultHost,
    env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url, HOME: dataDir },
  });
  cores.push(core);
  return new BackendClient(core);
}

describe("the fault worker's snapshot", () => {
  it('reports the title the file holds when the summary cache still lists the one before', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-snapshot-'));
    let client = await start();
    fake.enqueue(text('Answer.'));
    const { conversationId: id, runId } = await client.call('chat.send', { text: 'hello', memory: true });
    await client.finished(runId);
    await client.call('conversations.rename', { id, title: 'Old' });
    await cores.pop()!.close(); // the cache saved with "Old"
    // A rename appended, and the process killed before the cache's next save.
    const record = { t: 'title', title: 'New', at: new Date().toISOString() };
    await appendFile(path.join(dataDir, 'conversations', `${id}.jsonl`), `${JSON.stringify(record)}\n`);

    client = await start();
    // As the worker does: its first list (the restart is ready), then the report.
    const early = await client.call('conversations.list', {});
    expect(early.conversations.map((c) => c.title)).toEqual(['Old']); // the cache's list, by design
    const firstList = early.conversations.map((c) => ({ id: c.id, title: c.title }));
    const found = await snapshot(client, dataDir, firstList);
    expect(found.conversations.map((c) => [c.id, c.title])).toEqual([[id, 'New']]);
    // The first list is reported as it was shown, for the checker to compare on its own.
    expect(found.firstList).toEqual([{ id, title: 'Old' }]);
    expect((await client.call('conversations.list', {})).conversations.map((c) => c.title)).toEqual(['New']);
  });
});
