// "Forget permanently" while a reply that quotes the file is streaming, then a window re-attaches to the run
// (a reload: it opens the conversation and resumes after the seq the open gives, or replays the run from
// its start). Browser mode (`npm run web` as a child process) over its real WebSocket, the fake API paused
// mid-stream. What the run kept for replay is redacted like the conversation's records: the re-attached
// window is given none of the file, neither while the run goes on nor after it ended, and the window that
// watched the quote stream ends with the redacted text.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../shared/channels/chat.js';
import { applyEvents } from '../../../shared/projection/project.js';
import {
  gate,
  startFakeAnthropic,
  text,
  toolUse,
  type FakeAnthropic,
} from '../../fixtures/fake-anthropic/index.js';
import { HEALTH, PASSAGE, WORD } from '../agent/forget-support.js';
import { tempDir } from './processes.js';
import { connect, finished, startApp, TIMEOUT_MS } from './web-app.js';

let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(() => fake.close());

const streamed = (events: RunEvent[], runId: string): string =>
  events.map((e) => (e.runId === runId && e.type === 'text.delta' ? e.text : '')).join('');

describe('forget while a reply streams, then a window re-attaches', () => {
  it('the events replayed to the re-attached window hold nothing of the forgotten file', async () => {
    const app = await startApp(path.join(tempDir(), 'data'), fake);
    const api = app.client.api;
    let reloaded: ReturnType<typeof connect> | undefined;
    try {
      await api['memory.create']({ path: HEALTH, content: `# Health\n\n- ${PASSAGE}\n` });
      // Word by word: the whole quote has streamed (as many deltas) when the reply pauses.
      const held = gate({ afterEvents: 16, reply: text(`From your notes: ${PASSAGE}. Let me look again.`) });
      // First a `view` of the file: its result quotes the file, and is kept for replay.
      fake.enqueue(toolUse({ name: 'memory', input: { command: 'view', path: HEALTH } }), held);
      const sent = await api['chat.send']({ text: 'What do my health notes say?' });
      await held.reached;
      await expect.poll(() => streamed(app.events, sent.runId), { timeout: TIMEOUT_MS }).toContain(PASSAGE);
      await api['memory.forget']({ path: HEALTH });

      // The reload: open the conversation, attach after the seq it reflects (and, harder, from the start).
      reloaded = connect(app.web);
      const live: RunEvent[] = [];
      reloaded.api.on('chat.event', (e) => live.push(e));
      await reloaded.api['app.ready']({});
      const opened = await reloaded.api['conversations.get']({ id: sent.conversationId });
      expect(JSON.stringify(opened.items)).not.toContain(WORD);
      const run = opened.runs?.find((r) => r.runId === sent.runId);
      expect(run).toBeDefined();
      // The reply streaming comes with the items, as far as it has streamed, redacted (the window attaches
      // after the run's last seq: what it has not stored yet is in the items, not replayed).
      const streaming = opened.items.find((i) => i.kind === 'assistant' && i.streaming);
      expect(streaming).toMatchObject({ text: expect.stringContaining('[forgotten by the user]') });
      const resumed = await reloaded.api['chat.attach']({ runId: sent.runId, afterSeq: run!.seq });
      expect(JSON.stringify(resumed.events)).not.toContain(WORD);
      const replayed = await reloaded.api['chat.attach']({ runId: sent.runId, afterSeq: 0 });
      expect(replayed.events.some((e) => e.type === 'tool.result')).toBe(true);
      expect(JSON.stringify(replayed.events)).not.toContain(WORD);
      expect(streamed(replayed.events, sent.runId)).toContain('[forgotten by the user]');

      held.release();
      expect(await finished(app.events, sent.runId)).toMatchObject({ status: 'done' });
      // The run has ended and is still kept for replay; what the reloaded window got live is clean too.
      const after = await reloaded.api['chat.attach']({ runId: sent.runId, afterSeq: 0 });
      expect(after.run?.status).toBe('done');
      expect(JSON.stringify(after.events)).not.toContain(WORD);
      expect(JSON.stringify(live)).not.toContain(WORD);
      // The window that watched the quote stream shows the stored, redacted text once the message is done.
      const shown = applyEvents(
        [],
        app.events.filter((e) => e.runId === sent.runId),
      );
      const reply = shown.find((item) => item.kind === 'assistant');
      expect(reply).toMatchObject({ streaming: false });
      expect(JSON.stringify(reply)).not.toContain(WORD);
    } finally {
      reloaded?.close();
      expect(await app.stop()).toBe(0);
    }
  });
});
