// The chat store live and after a reload (issue 14, item 1), store against store: the real backend
// (createCore, the fake Messages API) behind the real WebSocket server (electron/web.ts), and the
// renderer's real stores (renderer/store/chat.ts fed by startBridge's one batched router) over the
// browser transport (shared/transport/ws-client.ts). Each run is played through the store's own actions
// (send, review, stop); its items once the run is over must deep-equal those of a fresh window (a new
// module graph, a new connection) that opens the conversation. Anything the live path makes differently
// (a label, an id, a journal entry, a card the stored records do not give) fails here.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { startWebServer, type WebServer } from '../../electron/web.js';
import type { Settings } from '../../shared/channels/settings.js';
import type { ViewItem } from '../../shared/projection/items.js';
import { createWsTransport, type WebSocketLike, type WsTransport } from '../../shared/transport/ws-client.js';
import { gate, serverError, text, toolUse } from '../fixtures/fake-anthropic/index.js';
import { type Harness, startHarness } from '../integration/agent/harness.js';
import type { useChat } from '../../renderer/store/chat';

type ChatStore = typeof useChat;

/** One browser window: its own module graph (stores, bridge, api) and its own WebSocket. */
interface Window {
  useChat: ChatStore;
  close(): void;
}

let h: Harness | undefined;
let web: WebServer | undefined;
let rendererDir: string | undefined;
const windows: Window[] = [];

afterEach(async () => {
  for (const w of windows.splice(0)) w.close();
  await web?.close();
  await h?.close();
  if (rendererDir) await rm(rendererDir, { recursive: true, force: true });
  h = web = rendererDir = undefined;
});

const poll = { timeout: 20_000, interval: 10 };

async function start(settings: Partial<Settings> = {}): Promise<Harness> {
  h = await startHarness({ settings });
  rendererDir = await mkdtemp(path.join(tmpdir(), 'mnemo-live-window-'));
  await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>Mnemo</title>');
  web = await startWebServer({
    handlers: h.core.handlers,
    bus: h.core.bus,
    spaces: h.core.spaces,
    rendererDir,
    logger: h.core.log,
  });
  return h;
}

/** A window as the page opens it: a fresh renderer, connected, told the app is ready, bridged. */
async function openWindow(): Promise<Window> {
  vi.resetModules();
  const api = await import('../../renderer/api');
  const bridge = await import('../../renderer/store/bridge');
  const { useChat } = await import('../../renderer/store/chat');
  const origin = `http://127.0.0.1:${web!.port}`;
  const transport: WsTransport = createWsTransport({
    url: `ws://127.0.0.1:${web!.port}/ws?token=${encodeURIComponent(web!.token)}`,
    createSocket: (url) => new WebSocket(url, { origin }) as unknown as WebSocketLike,
  });
  api.setApi(transport.api);
  const stop = bridge.startBridge(transport.api);
  await transport.api['app.ready']({});
  const window = {
    useChat,
    close: () => {
      stop();
      transport.close();
    },
  };
  windows.push(window);
  return window;
}

const wire = (items: readonly unknown[]): unknown => JSON.parse(JSON.stringify(items));

/**
 * Sends `message` from `w` (in the conversation it shows, or a new one), lets `drive` act while the run
 * goes on, and waits until the store has applied the run's end.
 */
async function play(w: Window, message: string, drive: (runId: string) => Promise<void> = async () => {}) {
  const before = new Set(Object.keys(w.useChat.getState().runs));
  expect(await w.useChat.getState().send(message)).toBe(true);
  const runId = Object.keys(w.useChat.getState().runs).find((id) => !before.has(id))!;
  expect(runId).toBeDefined();
  await drive(runId);
  await h!.finished(runId);
  await expect.poll(() => w.useChat.getState().runs[runId]?.status, poll).not.toBe('running');
  return runId;
}

/** The window's items now deep-equal those a reloaded window opens the conversation with. */
async function expectSameAfterReload(w: Window): Promise<ViewItem[]> {
  const live = wire(w.useChat.getState().items);
  const conversationId = w.useChat.getState().conversationId!;
  const reloaded = await openWindow();
  await reloaded.useChat.getState().open(conversationId);
  while (reloaded.useChat.getState().older !== null) await reloaded.useChat.getState().loadMore('older');
  expect(reloaded.useChat.getState().loadError).toBeNull();
  const items = wire(reloaded.useChat.getState().items);
  expect(live).toStrictEqual(items);
  reloaded.close();
  windows.splice(windows.indexOf(reloaded), 1);
  return items as ViewItem[];
}

const labels = (items: readonly ViewItem[]): string[] =>
  items.flatMap((i) =>
    i.kind === 'event' ? [i.text] : i.kind === 'error' || i.kind === 'review' ? [i.kind] : [],
  );

describe('the chat store, live and after a reload', () => {
  it('a memory write (with its journal entry) after the memory was loaded', async () => {
    await start();
    await h!.core.ctx.memory.create('/memories/tea.md', '- Likes green tea.\n', { kind: 'user' });
    h!.fake.enqueue(
      toolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/cat.md', file_text: '- Miso\n' },
      }),
      text('Saved.'),
    );
    const w = await openWindow();
    await w.useChat.getState().open(null);
    await play(w, 'My cat is Miso.');
    const items = await expectSameAfterReload(w);
    expect(items.map((i) => i.kind)).toEqual(['user', 'event', 'tool', 'assistant']);
    expect(labels(items)).toEqual([expect.stringMatching(/^Loaded 1 memory file · \d+ tokens$/)]);
    expect(items[2]).toHaveProperty('journalId', expect.any(String));
  });

  it('a clearing and a compaction (local), each card as live', async () => {
    await start({ contextStrategy: 'local', clearTrigger: 1_000, clearKeep: 1, compactTrigger: 4_000 });
    const lines = Array.from({ length: 300 }, (_, i) => `apple ${i}: ${'crisp and sweet '.repeat(3)}`);
    await h!.core.ctx.memory.create('/memories/fruit.md', `${lines.join('\n')}\n`, { kind: 'user' });
    h!.fake.rule((r) =>
      typeof r.body.system === 'string' && r.body.system.includes('You summarize')
        ? text('SUMMARY.')
        : undefined,
    );
    const search = () => toolUse({ name: 'memory_search', input: { query: 'apple', limit: 200 } });
    h!.fake.enqueue(search(), search(), text('Lots of apples.'));
    const w = await openWindow();
    await w.useChat.getState().open(null);
    await play(w, 'Find apples twice');
    expect(labels(await expectSameAfterReload(w))).toContainEqual(
      expect.stringMatching(/^Cleared 1 old tool result · [\d.]+k? tokens$/),
    );
    for (let i = 0; i < 3; i++) {
      await play(w, `Topic ${i}: ${'words '.repeat(400)}`);
      await expectSameAfterReload(w);
    }
    const items = await expectSameAfterReload(w);
    expect(labels(items)).toContainEqual(
      expect.stringMatching(/^Compacted \d+ earlier messages? · [\d.]+k? → [\d.]+k? tokens$/),
    );
  });

  it('the turn limit', async () => {
    await start({ maxTurns: 2 });
    const view = () => toolUse({ name: 'memory', input: { command: 'view', path: '/memories' } });
    h!.fake.enqueue(view(), view(), view());
    const w = await openWindow();
    await w.useChat.getState().open(null);
    await play(w, 'Look around');
    expect(labels(await expectSameAfterReload(w))).toEqual([
      'Stopped after 2 tool turns. Send a message to continue.',
    ]);
  });

  it('an API error', async () => {
    await start();
    h!.fake.enqueue(serverError(), serverError(), serverError());
    const w = await openWindow();
    await w.useChat.getState().open(null);
    await play(w, 'hello?');
    expect((await expectSameAfterReload(w)).at(-1)).toMatchObject({ kind: 'error', errorKind: 'server' });
  });

  it('a review, approved then rejected, from the store', async () => {
    await start({ memoryWriteMode: 'ask' });
    const create = (file: string) =>
      toolUse({ name: 'memory', input: { command: 'create', path: `/memories/${file}`, file_text: 'x\n' } });
    const w = await openWindow();
    const decide = (decision: 'approve' | 'reject') => async () => {
      // The card the window shows, decided as its buttons do.
      const pending = () =>
        w.useChat.getState().items.find((i) => i.kind === 'review' && i.outcome === null) as
          Extract<ViewItem, { kind: 'review' }> | undefined;
      await expect.poll(pending, poll).toBeDefined();
      await w.useChat.getState().review(pending()!.reviewId, decision);
    };
    await w.useChat.getState().open(null);
    h!.fake.enqueue(create('a.md'), text('Saved.'));
    await play(w, 'save a', decide('approve'));
    await expectSameAfterReload(w);
    h!.fake.enqueue(create('b.md'), text('Not saved.'));
    await play(w, 'save b', decide('reject'));
    const items = await expectSameAfterReload(w);
    expect(items.filter((i) => i.kind === 'review').map((r) => r.outcome)).toEqual(['approved', 'rejected']);
  });

  it('a stop mid-answer, from the store', async () => {
    await start();
    const g = gate({ afterEvents: 6, reply: text('one two three four five six seven') });
    h!.fake.enqueue(g);
    const w = await openWindow();
    await w.useChat.getState().open(null);
    await play(w, 'count', async () => {
      await g.reached;
      await expect
        .poll(() => w.useChat.getState().items.some((i) => i.kind === 'assistant' && i.text.length > 0), poll)
        .toBe(true);
      await w.useChat.getState().stop();
      g.release();
    });
    expect((await expectSameAfterReload(w)).at(-1)).toMatchObject({
      kind: 'assistant',
      interrupted: true,
      streaming: false,
    });
  });
});
