// Browser mode (`npm run web`) and the API key, as a separate process over its real WebSocket: a key
// stored in the data dir is used, ANTHROPIC_API_KEY wins over it (issue 2: "in every face"), and the key
// never travels to the page. The CLI's side of the same rule is in chat-face.test.ts.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createFileKeyVault } from '../../../electron/core/key-vault.js';
import type { RunEvent } from '../../../shared/channels/chat.js';
import {
  createWsTransport,
  type WebSocketLike,
  type WsTransport,
} from '../../../shared/transport/ws-client.js';
import { startFakeAnthropic, text, type FakeAnthropic } from '../../fixtures/fake-anthropic/index.js';
import { entry, READY_URL, start, tempDir } from './processes.js';

const ENV_KEY = 'sk-ant-api03-WEB-ENV-0123456789abcdef';
const STORED_KEY = 'sk-ant-api03-WEB-STORED-fedcba9876543210';
let fake: FakeAnthropic;

beforeAll(async () => {
  fake = await startFakeAnthropic({ apiKeys: [ENV_KEY, STORED_KEY] });
});
afterAll(() => fake.close());

const keyOf = (headers: Record<string, string>): string | undefined =>
  headers['x-api-key'] ?? headers.authorization?.replace(/^Bearer\s+/i, '');

/** Connects like the page does (its Origin, the token from the URL), says ready, sends one message. */
async function ask(pageUrl: string, message: string) {
  const url = new URL(pageUrl);
  const token = url.searchParams.get('token') ?? '';
  const transport: WsTransport = createWsTransport({
    url: `ws://${url.host}/ws?token=${encodeURIComponent(token)}`,
    createSocket: (u) => new WebSocket(u, { origin: url.origin }) as unknown as WebSocketLike,
  });
  try {
    const events: RunEvent[] = [];
    transport.api.on('chat.event', (e) => events.push(e));
    await transport.api['app.ready']({});
    const view = await transport.api['settings.get']({});
    const { runId } = await transport.api['chat.send']({ text: message });
    await expect
      .poll(() => events.some((e) => e.runId === runId && e.type === 'run.finished'), { timeout: 30_000 })
      .toBe(true);
    return { view, finished: events.find((e) => e.type === 'run.finished') };
  } finally {
    transport.close();
  }
}

describe('npm run web and the API key', () => {
  it('uses the stored key, and ANTHROPIC_API_KEY wins over it', async () => {
    const dataDir = path.join(tempDir(), 'data');
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    createFileKeyVault({ dataDir }).write(STORED_KEY);

    fake.enqueue(text('Answered with the stored key.'));
    const stored = await start(
      entry('web-main'),
      ['--data-dir', dataDir],
      { ANTHROPIC_BASE_URL: fake.url },
      READY_URL,
    );
    try {
      const { view, finished } = await ask(stored.match[1]!, 'hi');
      expect(view.apiKey).toMatchObject({ hasApiKey: true, source: 'stored' });
      expect(JSON.stringify(view)).not.toContain(STORED_KEY);
      expect(finished).toMatchObject({ status: 'done' });
    } finally {
      await stored.stop();
    }
    expect(keyOf(fake.messageRequests().at(-1)!.headers)).toBe(STORED_KEY);

    fake.enqueue(text('Answered with the env key.'));
    const env = await start(
      entry('web-main'),
      ['--data-dir', dataDir],
      { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: ENV_KEY },
      READY_URL,
    );
    try {
      const { view, finished } = await ask(env.match[1]!, 'hi again');
      expect(view.apiKey).toMatchObject({ hasApiKey: true, source: 'env' });
      expect(JSON.stringify(view)).not.toContain(ENV_KEY);
      expect(finished).toMatchObject({ status: 'done' });
    } finally {
      await env.stop();
    }
    expect(keyOf(fake.messageRequests().at(-1)!.headers)).toBe(ENV_KEY);
    expect(fake.messageRequests()).toHaveLength(2);
  });
});
