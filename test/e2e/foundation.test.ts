// The foundation's end-to-end checks (issue 2, point 5): the built renderer in Chromium against the real
// browser-mode server and the fake Anthropic API. A message streams in (seen half-way, then whole), and the
// WebSocket refuses a missing or wrong token and a foreign Origin.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { gate, text } from '../fixtures/fake-anthropic/index.js';
import { useE2EApp } from './support/e2e-app.js';
import { ChatPage } from './support/pages/chat-page.js';
import { screenshot } from './support/screenshots.js';

const e2e = useE2EApp();
const poll = { timeout: 15_000, interval: 50 };

describe('chat', () => {
  it('type "hello", press Send, and the answer streams in', async () => {
    const { page, pageErrors, failedRequests } = await e2e.open();
    const chat = new ChatPage(page);
    const answer = 'Hello there! I am Mnemo, and I keep what matters in a memory you can see.';
    // message_start, ping, content_block_start, then two word deltas: "Hello " "there! ", then hold.
    const held = gate({ afterEvents: 5, reply: text(answer) });
    e2e.fake.enqueue(held);

    await chat.send('hello');
    await held.reached;

    // Half-way: the first words are on screen, the rest is not, and the run can be stopped.
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('Hello there!');
    expect(await chat.lastAnswer().innerText()).not.toContain('memory you can see');
    await expect.poll(() => chat.stopButton.isVisible(), poll).toBe(true);
    await expect.poll(() => chat.userMessages.last().innerText(), poll).toContain('hello');

    held.release();
    await expect.poll(() => chat.lastAnswer().innerText(), poll).toContain('memory you can see.');
    await expect.poll(() => chat.stopButton.isVisible(), poll).toBe(false);
    await screenshot(page, 'foundation-chat-light');

    const [request] = e2e.fake.messageRequests();
    expect(request?.headers['x-api-key'] ?? request?.headers.authorization).toMatch(/test/);
    const userTexts = (request?.body.messages as { role: string; content: unknown }[])
      .filter((m) => m.role === 'user')
      .map((m) => JSON.stringify(m.content));
    expect(userTexts.some((t) => t.includes('"hello"'))).toBe(true);
    expect(pageErrors).toEqual([]);
    // Loading the page and the first message asked for nothing that is not there. The page names its
    // icon, and it is served: a page without one has a browser ask for /favicon.ico, a 404 (headless
    // Chromium asks only for a named icon, so the name is checked here too).
    expect(failedRequests).toEqual([]);
    const icon = await page.evaluate(
      () => document.querySelector<HTMLLinkElement>('link[rel~="icon"]')?.href,
    );
    expect(icon).toBeDefined();
    const served = await page.request.get(icon!);
    expect([served.status(), served.headers()['content-type']]).toEqual([200, 'image/svg+xml']);
  });
});

type Outcome = { opened: true } | { opened: false; status: number | undefined };

function connect(
  url: string,
  origin: string | undefined,
  headers: Record<string, string> = {},
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers, ...(origin === undefined ? {} : { origin }) });
    ws.once('open', () => {
      ws.close();
      resolve({ opened: true });
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve({ opened: false, status: res.statusCode });
      ws.terminate();
    });
    ws.once('error', (error) => reject(error));
  });
}

describe('WebSocket guard', () => {
  it('accepts the page origin with the right token', async () => {
    const { port, token } = e2e.app;
    const origin = `http://127.0.0.1:${port}`;
    expect(await connect(`ws://127.0.0.1:${port}/ws?token=${token}`, origin)).toEqual({ opened: true });
  });

  // [case, query from the token, Origin ('page' = the app's own), extra headers, expected status]
  it.each([
    ['no token', () => '', 'page', {}, 401],
    ['an empty token', () => '?token=', 'page', {}, 401],
    ['a wrong token', (t: string) => `?token=${t.slice(0, -2)}xx`, 'page', {}, 401],
    ['a foreign Origin', (t: string) => `?token=${t}`, 'https://evil.example', {}, 403],
    ['a foreign Origin on localhost', (t: string) => `?token=${t}`, 'http://127.0.0.1:1', {}, 403],
    ['no token and no Origin (a local script)', () => '', undefined, {}, 401],
    ['a rebinding Host header', (t: string) => `?token=${t}`, undefined, { Host: 'evil.example' }, 403],
  ] as const)('refuses %s', async (_name, query, originKind, headers, status) => {
    const { port, token } = e2e.app;
    const origin = originKind === 'page' ? `http://127.0.0.1:${port}` : originKind;
    const outcome = await connect(`ws://127.0.0.1:${port}/ws${query(token)}`, origin, { ...headers });
    expect(outcome).toEqual({ opened: false, status });
  });
});
