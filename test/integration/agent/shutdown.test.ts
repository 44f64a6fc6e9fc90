// A graceful close of the backend (window closed, CLI done, Ctrl+C) aborts the running run, saves its partial
// answer marked interrupted, flushes the conversation file and releases it; the next start resumes it.
import { readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { gate, text } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, startHarness, validRequests } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Files under `dir` this process still holds open (Linux: /proc/self/fd). */
async function openFilesUnder(dir: string): Promise<string[]> {
  const fds = await readdir('/proc/self/fd');
  const targets = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return targets.filter((t) => t.startsWith(dir));
}

it('closing the core mid-run saves the partial answer, releases the conversation file, and resumes', async () => {
  h = await startHarness();
  const g = gate({ afterEvents: 6, reply: text('one two three four five six seven') });
  h.fake.enqueue(g);
  const res = await h.core.handlers['chat.send']({ text: 'count', memory: true }, call);
  await g.reached;
  await h.waitFor((e) => e.runId === res.runId && e.type === 'text.delta');

  await h.core.close();
  g.release();
  const conversations = path.join(h.dataDir, 'conversations');
  expect(await openFilesUnder(conversations)).toEqual([]);

  await h.restart();
  const items = (await h.core.handlers['conversations.get']({ id: res.conversationId }, call)).items;
  expect(items.find((i) => i.kind === 'user')).toMatchObject({ text: 'count' });
  const partial = items.find((i) => i.kind === 'assistant');
  expect(partial).toMatchObject({ interrupted: true });
  expect((partial as { text: string }).text.startsWith('one')).toBe(true);

  h.fake.enqueue(text('Continuing.'));
  const next = await h.core.handlers['chat.send'](
    { text: 'go on', memory: true, conversationId: res.conversationId },
    call,
  );
  await h.finished(next.runId);
  expect(validRequests(h.fake)).toBe(2);
});
