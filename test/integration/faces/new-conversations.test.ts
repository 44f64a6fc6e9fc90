// A conversation another process starts on the same data folder (`npm run chat` beside the open app)
// appears in the app's list while it runs: in the next conversations.changed, without a restart and
// without the window asking, and in conversations.list; it opens and continues like one of the app's.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../../shared/channels/conversations.js';
import { startFakeAnthropic, text, type FakeAnthropic } from '../../fixtures/fake-anthropic/index.js';
import { entry, run, tempDir } from './processes.js';
import { TIMEOUT_MS, fakeEnv, finished, startApp } from './web-app.js';

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(() => fake.close());

describe('a conversation started by another process', () => {
  it('appears in the open app’s list, opens and continues', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const app = await startApp(dataDir, fake);
    try {
      const lists: ConversationSummary[][] = [];
      app.client.api.on('conversations.changed', ({ conversations }) => lists.push(conversations));
      fake.enqueue(text('Hello from the app.'));
      const first = await app.client.api['chat.send']({ text: 'first from the app' });
      expect(await finished(app.events, first.runId)).toMatchObject({ status: 'done' });
      // The window shows the list, as it does at start.
      expect((await app.client.api['conversations.list']({})).conversations).toHaveLength(1);

      fake.enqueue(text('Hello from the CLI.'));
      const cli = await run(entry('cli'), ['--data-dir', dataDir, 'started in the terminal'], fakeEnv(fake));
      expect(cli.stderr).toBe('');
      expect(cli.code).toBe(0);

      // Told without asking: the watcher found the new file, and followed it to the CLI's answer (it may
      // have seen the file before the answer was in it).
      const others = (list: ConversationSummary[] | undefined) =>
        (list ?? []).filter((c) => c.id !== first.conversationId);
      await expect
        .poll(() => others(lists.at(-1)).map((c) => c.messageCount), { timeout: TIMEOUT_MS })
        .toEqual([2]);
      const theirs = others(lists.at(-1))[0]!;
      const listed = (await app.client.api['conversations.list']({})).conversations;
      expect(listed.map((c) => c.id).sort()).toEqual([first.conversationId, theirs.id].sort());

      const opened = await app.client.api['conversations.get']({ id: theirs.id });
      expect(JSON.stringify(opened.items)).toContain('Hello from the CLI.');
      fake.enqueue(text('The app goes on there.'));
      const next = await app.client.api['chat.send']({ conversationId: theirs.id, text: 'from the app' });
      expect(await finished(app.events, next.runId)).toMatchObject({ status: 'done' });
      expect(JSON.stringify(fake.lastMessageRequest().body)).toContain('started in the terminal');
    } finally {
      expect(await app.stop()).toBe(0);
    }
  });

  it('the list finds one even where no file event came (the next conversations.list)', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const app = await startApp(dataDir, fake);
    try {
      // The app has loaded its conversations (a chat), but no window asked for the list, so nothing
      // watches the folder: only the list call can find the CLI's.
      fake.enqueue(text('Hello from the app.'));
      const first = await app.client.api['chat.send']({ text: 'first from the app' });
      expect(await finished(app.events, first.runId)).toMatchObject({ status: 'done' });
      fake.enqueue(text('Hello from the CLI.'));
      const cli = await run(entry('cli'), ['--data-dir', dataDir, 'started in the terminal'], fakeEnv(fake));
      expect(cli.code).toBe(0);
      const listed = (await app.client.api['conversations.list']({})).conversations;
      expect(listed).toHaveLength(2);
      expect(listed.find((c) => c.id !== first.conversationId)).toMatchObject({ messageCount: 2 });
    } finally {
      expect(await app.stop()).toBe(0);
    }
  });
});
