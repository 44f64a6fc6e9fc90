// "Forget permanently" while a reply is streaming, in browser mode (`npm run web` as a child process,
// driven over its WebSocket like the page): the reply already quotes the file, or asks to save a copy of
// it elsewhere in memory. The run goes on after the forget, yet nothing of the file comes back: not in
// the conversation's file, not in the memory, not in the recall index (searched, and its saved shards
// read), nor in the requests the run sends after the forget.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  gate,
  reply,
  startFakeAnthropic,
  text,
  toolUse,
  type FakeAnthropic,
} from '../../fixtures/fake-anthropic/index.js';
import { HEALTH, PASSAGE, WORD, filesHolding } from '../agent/forget-support.js';
import { tempDir } from './processes.js';
import { finished, startApp, type WebApp } from './web-app.js';

const COPY = '/memories/copy.md';

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(() => fake.close());

/** Sends a message whose second reply (after a `view` of the file) is held mid-stream, and forgets the file there. */
async function forgetMidReply(app: WebApp, second: ReturnType<typeof text>) {
  const api = app.client.api;
  await api['memory.create']({ path: HEALTH, content: `# Health\n\n- ${PASSAGE}\n` });
  // Paused after the quote has streamed out; the user forgets the file meanwhile.
  const held = gate({ afterEvents: 6, reply: second });
  fake.enqueue(
    toolUse({ name: 'memory', input: { command: 'view', path: HEALTH } }),
    held,
    text('Understood.'),
  );
  const sent = await api['chat.send']({ text: 'What do my health notes say?' });
  await held.reached;
  const before = fake.messageRequests().length;
  await api['memory.forget']({ path: HEALTH });
  held.release();
  expect(await finished(app.events, sent.runId)).toMatchObject({ status: 'done' });
  return { sent, after: fake.messageRequests().slice(before) };
}

describe('forget while a reply streams', () => {
  it('the reply arriving after the forget is stored redacted: file, recall index, next request', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const app = await startApp(dataDir, fake);
    const api = app.client.api;
    try {
      const { sent, after } = await forgetMidReply(
        app,
        reply(
          [
            text(`From your notes: ${PASSAGE}. Let me look again.`),
            toolUse({ name: 'memory', input: { command: 'view', path: '/memories' } }),
          ],
          { stopReason: 'tool_use' },
        ),
      );
      // The request the run sent after the forget quotes nothing of it.
      expect(after.length).toBeGreaterThan(0);
      for (const r of after) expect(JSON.stringify(r.body)).not.toContain(WORD);
      expect((await api['conversations.search']({ query: WORD })).results).toEqual([]);
      const opened = await api['conversations.get']({ id: sent.conversationId });
      expect(JSON.stringify(opened.items)).not.toContain(WORD);
      expect(JSON.stringify(opened.items)).toContain('[forgotten by the user]');
    } finally {
      // Stopping saves the recall index's shards: searched too.
      expect(await app.stop()).toBe(0);
    }
    expect(await filesHolding(dataDir, [PASSAGE, WORD])).toEqual([]);
  });

  it('a memory write the reply asks for after the forget is refused, saying why', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const app = await startApp(dataDir, fake);
    const api = app.client.api;
    try {
      const { sent } = await forgetMidReply(
        app,
        reply(
          [
            text('I will keep a copy.'),
            toolUse({ name: 'memory', input: { command: 'create', path: COPY, file_text: `${PASSAGE}\n` } }),
          ],
          { stopReason: 'tool_use' },
        ),
      );
      const result = app.events.find((e) => e.type === 'tool.result' && e.runId === sent.runId && e.isError);
      expect(result).toMatchObject({ result: expect.stringContaining('asked to forget') });
      expect((await api['memory.list']({})).entries.map((e) => e.path)).not.toContain(COPY);
    } finally {
      expect(await app.stop()).toBe(0);
    }
    expect(await filesHolding(dataDir, [PASSAGE, WORD])).toEqual([]);
  });
});
