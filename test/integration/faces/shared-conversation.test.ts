// Issue 11, item 3: two processes on one conversation. The app's backend (`npm run web`, driven over its
// real WebSocket like the page) and `npm run chat -- --continue` open one data folder and one
// conversation. A CLI run while the app is answering there is refused and writes nothing; a CLI run while
// the app is idle is seen by the app's next run, whose request holds it, in order, and is valid.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  gate,
  startFakeAnthropic,
  text,
  toolUse,
  type FakeAnthropic,
} from '../../fixtures/fake-anthropic/index.js';
import { entry, run, start, tempDir } from './processes.js';
import { TIMEOUT_MS, fakeEnv, finished, startApp as startWebApp } from './web-app.js';

const env = fakeEnv;
let fake: FakeAnthropic;

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const startApp = (dataDir: string) => startWebApp(dataDir, fake);

function conversationFile(dataDir: string): string {
  const dir = path.join(dataDir, 'conversations');
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  return path.join(dir, files[0]!);
}

/** The messages of the file, as `kind: text` (the user's words, or the tool uses and answers). */
function messagesOf(file: string): string[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map(
      (l) =>
        JSON.parse(l) as {
          t: string;
          kind?: string;
          text?: string;
          content?: { type: string; text?: string }[];
        },
    )
    .filter((r) => r.t === 'msg' && r.kind !== 'backfill')
    .map((r) => `${r.kind}: ${r.text ?? r.content!.map((b) => b.text ?? b.type).join(' ')}`);
}

const cli = (dataDir: string, message: string) =>
  run(entry('cli'), ['--data-dir', dataDir, '--continue', message], env(fake), TIMEOUT_MS);

type App = Awaited<ReturnType<typeof startApp>>;

/** The app on a fresh data folder with one answered turn ('first from the app'); stopped after `body`. */
async function withAppAfterFirstTurn(
  body: (app: App, dataDir: string, conversationId: string) => Promise<void>,
): Promise<void> {
  const dataDir = path.join(tempDir(), 'data');
  const app = await startApp(dataDir);
  try {
    fake.enqueue(text('Hello from the app.'));
    const first = await app.client.api['chat.send']({ text: 'first from the app' });
    expect(await finished(app.events, first.runId)).toMatchObject({ status: 'done' });
    await body(app, dataDir, first.conversationId);
  } finally {
    app.client.close();
    expect(await app.web.stop()).toBe(0);
  }
}

describe('the app and the CLI on one conversation', () => {
  it('a CLI run while the app is answering is refused and changes nothing', () =>
    withAppAfterFirstTurn(async (app, dataDir, conversationId) => {
      // The app's next run: a tool call, then an answer held at the gate (the run is in progress).
      const held = gate({ afterEvents: 2, reply: text('The app finished its answer.') });
      fake.enqueue(toolUse({ name: 'memory', input: { command: 'view', path: '/memories' } }), held);
      const second = await app.client.api['chat.send']({
        conversationId: conversationId,
        text: 'second from the app',
      });
      await held.reached;
      const file = conversationFile(dataDir);
      // The app writes its tool results while the next request streams: wait for them to be in the file.
      await expect
        .poll(() => messagesOf(file).at(-1), { timeout: TIMEOUT_MS })
        .toBe('tool_results: tool_result');
      const before = readFileSync(file);
      const requests = fake.messageRequests().length;

      const intruder = await cli(dataDir, 'from the CLI meanwhile');
      expect(intruder.stderr).toContain('This conversation is answering in another window');
      expect(intruder.code).toBe(1);
      expect(intruder.stderr).not.toMatch(/\n\s+at /);
      expect(readFileSync(file).equals(before)).toBe(true);
      expect(fake.messageRequests()).toHaveLength(requests);

      held.release();
      expect(await finished(app.events, second.runId)).toMatchObject({ status: 'done' });
      expect(messagesOf(file)).toEqual([
        'user: first from the app',
        'assistant: Hello from the app.',
        'user: second from the app',
        'assistant: tool_use',
        'tool_results: tool_result',
        'assistant: The app finished its answer.',
      ]);
    }));

  it("the app's next run catches up with a CLI run made while it was idle", () =>
    withAppAfterFirstTurn(async (app, dataDir, conversationId) => {
      fake.enqueue(
        toolUse({ name: 'memory', input: { command: 'view', path: '/memories' } }),
        text('The CLI answered.'),
      );
      const b = await cli(dataDir, 'from the CLI');
      expect(b.stderr).toBe('');
      expect(b.code).toBe(0);
      // Opening the conversation in the app shows the CLI's turn.
      const opened = await app.client.api['conversations.get']({ id: conversationId });
      expect(JSON.stringify(opened.items)).toContain('The CLI answered.');

      fake.enqueue(text('The app saw it all.'));
      const second = await app.client.api['chat.send']({
        conversationId: conversationId,
        text: 'again from the app',
      });
      expect(await finished(app.events, second.runId)).toMatchObject({ status: 'done' });
      // The fake validates every request (pairing, alternation): a done run means it was accepted.
      const sent = fake.lastMessageRequest().body as { messages: { role: string; content: unknown }[] };
      const said = JSON.stringify(sent.messages);
      const order = [
        'first from the app',
        'from the CLI',
        'tool_use',
        'tool_result',
        'The CLI answered.',
        'again from the app',
      ];
      // Each in turn, after the one before (the backfill at the start has a tool_use of its own).
      let from = 0;
      for (const s of order) {
        const i = said.indexOf(s, from);
        expect(i, `${s} after position ${from}`).toBeGreaterThanOrEqual(0);
        from = i + s.length;
      }
      expect(messagesOf(conversationFile(dataDir))).toEqual([
        'user: first from the app',
        'assistant: Hello from the app.',
        'user: from the CLI',
        'assistant: tool_use',
        'tool_results: tool_result',
        'assistant: The CLI answered.',
        'user: again from the app',
        'assistant: The app saw it all.',
      ]);
      const list = await app.client.api['conversations.list']({});
      expect(list.conversations[0]).toMatchObject({ id: conversationId, messageCount: 7 });
    }));

  it('a CLI run killed mid-answer (SIGKILL) does not keep the conversation from the app', () =>
    withAppAfterFirstTurn(async (app, dataDir, conversationId) => {
      const held = gate({ afterEvents: 2, reply: text('never finished') });
      fake.enqueue(toolUse({ name: 'memory', input: { command: 'view', path: '/memories' } }), held);
      const b = await start(
        entry('cli'),
        ['--data-dir', dataDir, '--continue', 'from the CLI, then killed'],
        env(fake),
        /\[turn 1\] called memory/,
        TIMEOUT_MS,
      );
      await held.reached;
      const file = conversationFile(dataDir);
      await expect
        .poll(() => messagesOf(file).at(-1), { timeout: TIMEOUT_MS })
        .toBe('tool_results: tool_result');
      expect(await b.stop('SIGKILL')).toBeNull();
      held.release();

      // Not "answering in another window": the dead holder's lock is cleared, and the app catches up.
      fake.enqueue(text('The app goes on.'));
      const second = await app.client.api['chat.send']({
        conversationId: conversationId,
        text: 'again from the app',
      });
      expect(await finished(app.events, second.runId)).toMatchObject({ status: 'done' });
      expect(JSON.stringify(fake.lastMessageRequest().body)).toContain('from the CLI, then killed');
      expect(messagesOf(file).slice(-2)).toEqual(['user: again from the app', 'assistant: The app goes on.']);
    }));
});
