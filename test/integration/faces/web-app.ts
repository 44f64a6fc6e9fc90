// Browser mode (`npm run web`) as a child process, with a client connected over its real WebSocket like
// the page: what the faces tests drive when they need the app running beside another process.
import { expect } from 'vitest';
import { WebSocket } from 'ws';
import type { RunEvent } from '../../../shared/channels/chat.js';
import {
  createWsTransport,
  type WebSocketLike,
  type WsTransport,
} from '../../../shared/transport/ws-client.js';
import type { FakeAnthropic } from '../../fixtures/fake-anthropic/index.js';
import { entry, READY_URL, start, type Running } from './processes.js';

export const TIMEOUT_MS = 30_000;

/** The environment a face needs to talk to the fake API. */
export const fakeEnv = (fake: FakeAnthropic) => ({
  ANTHROPIC_BASE_URL: fake.url,
  ANTHROPIC_API_KEY: 'sk-ant-test-shared',
});

export interface WebApp {
  web: Running;
  client: WsTransport;
  /** Every chat.event so far, in order. */
  events: RunEvent[];
  /** Stops the client and the process; the exit code (0 on a clean stop). */
  stop(): Promise<number | null>;
}

export async function startApp(dataDir: string, fake: FakeAnthropic): Promise<WebApp> {
  const web = await start(entry('web-main'), ['--data-dir', dataDir], fakeEnv(fake), READY_URL, TIMEOUT_MS);
  const client = connect(web);
  const events: RunEvent[] = [];
  client.api.on('chat.event', (e) => events.push(e));
  await client.api['app.ready']({});
  return {
    web,
    client,
    events,
    stop: async () => {
      client.close();
      return web.stop();
    },
  };
}

/** Another window on the running app (e.g. one reloading): its own WebSocket, as the page opens it. */
export function connect(web: Running): WsTransport {
  const url = new URL(web.match[1]!);
  return createWsTransport({
    url: `ws://${url.host}/ws?token=${encodeURIComponent(url.searchParams.get('token') ?? '')}`,
    createSocket: (u) => new WebSocket(u, { origin: url.origin }) as unknown as WebSocketLike,
  });
}

/** The run's end, once the app reported it. */
export async function finished(events: RunEvent[], runId: string) {
  await expect
    .poll(() => events.some((e) => e.runId === runId && e.type === 'run.finished'), { timeout: TIMEOUT_MS })
    .toBe(true);
  return events.find((e) => e.runId === runId && e.type === 'run.finished') as Extract<
    RunEvent,
    { type: 'run.finished' }
  >;
}
