// Temporary conversations through the backend (createCore), the real SDK and the fake Messages API: kept
// in the process's memory only, so never listed, searched (the sidebar's search or the model's
// conversation_search), exported, synced or written anywhere in the data folder; a window reload finds it,
// leaving it (conversations.close) ends it, a reply still being written included; a temporary conversation
// an earlier version kept on disk is erased at the next start, which logs how many.
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gate, text } from '../../fixtures/fake-anthropic/index.js';
import { QUESTION, NOTHING, scriptModel } from '../../fixtures/recall-model.js';
import { DEFAULT_TOKEN, DEFAULT_USER, startGitServer } from '../../fixtures/git-server/index.js';
import { type Harness, call, startHarness } from './harness.js';
import { ask } from './recall-support.js';

const harnesses: Harness[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  for (const c of cleanups.splice(0)) await c();
});
const start = async (options: Parameters<typeof startHarness>[0] = {}) => {
  const h = await startHarness(options);
  harnesses.push(h);
  return h;
};

/** Every file under `dir` whose bytes hold `needle`. */
function filesHolding(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, name);
    if (statSync(file).isFile() && readFileSync(file).includes(needle)) found.push(name);
  }
  return found;
}

describe('a temporary conversation', () => {
  it('is kept in memory only: never listed, searched, exported or written, and gone once left', async () => {
    const h = await start();
    scriptModel(h.fake);
    const { handlers, bus } = h.core;
    const temp = await ask(handlers, bus, 'We ate at a restaurant called Chez Gaston.', false);
    h.fake.enqueue(text('Noted: GASTON-REPLY'));
    const again = await handlers['chat.send'](
      { conversationId: temp.conversationId, text: 'It was on GASTON-STREET', memory: false },
      call,
    );
    await h.finished(again.runId);

    // Open (a window reloaded on it): both turns are there.
    const open = await handlers['conversations.get']({ id: temp.conversationId, limit: 50 }, call);
    expect(open.conversation).toMatchObject({ id: temp.conversationId, memory: false });
    expect(JSON.stringify(open.items)).toContain('GASTON-STREET');
    expect(JSON.stringify(open.items)).toContain('GASTON-REPLY');

    // Never listed, searched or exported.
    expect((await handlers['conversations.list']({}, call)).conversations).toEqual([]);
    expect((await handlers['conversations.search']({ query: 'Gaston' }, call)).results).toEqual([]);
    expect((await ask(handlers, bus, QUESTION)).answer).toBe(NOTHING);
    await expect(handlers['conversations.export']({ id: temp.conversationId }, call)).rejects.toThrow(
      /temporary chat is not exported/,
    );
    expect(filesHolding(h.dataDir, 'Gaston')).toEqual([]);
    expect(filesHolding(h.dataDir, 'GASTON')).toEqual([]);

    // Left: gone, its replayable run events too.
    await handlers['conversations.close']({ id: temp.conversationId }, call);
    await expect(handlers['conversations.get']({ id: temp.conversationId }, call)).rejects.toThrow(
      /does not exist/,
    );
    expect(h.core.ctx.runs.attach({ conversationId: temp.conversationId, afterSeq: 0 })).toEqual({
      run: null,
      events: [],
    });
    // Closing a kept conversation changes nothing.
    const kept = (await handlers['conversations.list']({}, call)).conversations[0]!;
    await handlers['conversations.close']({ id: kept.id }, call);
    expect((await handlers['conversations.list']({}, call)).conversations).toHaveLength(1);
    await h.core.close();
    expect(filesHolding(h.dataDir, 'Gaston')).toEqual([]);
  });

  it('left while a reply is being written: the reply stops and the conversation is gone', async () => {
    const h = await start();
    const hold = gate();
    h.fake.enqueue(hold);
    const res = await h.core.handlers['chat.send']({ text: 'Start something', memory: false }, call);
    await hold.reached;
    await h.core.handlers['conversations.close']({ id: res.conversationId }, call);
    const events = await h.finished(res.runId);
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', status: 'aborted' });
    hold.release();
    await new Promise((resolve) => setImmediate(resolve));
    await expect(h.core.handlers['conversations.get']({ id: res.conversationId }, call)).rejects.toThrow(
      /does not exist/,
    );
  });

  it('is never synced to another device', async () => {
    const server = await startGitServer();
    cleanups.push(() => server.close());
    const a = await start();
    const b = await start({ fake: a.fake });
    const url = server.createRepo('temp').replace('http://', `http://${DEFAULT_USER}@`);
    for (const [h, name] of [
      [a, 'Laptop'],
      [b, 'Desktop'],
    ] as const) {
      await h.core.sync.start();
      await h.core.handlers['sync.configure']({ url, token: DEFAULT_TOKEN, deviceName: name }, call);
    }
    a.fake.enqueue(text('ok'), text('ok'));
    await ask(a.core.handlers, a.core.bus, 'SYNCED-WORD for everyone');
    await ask(a.core.handlers, a.core.bus, 'TEMP-SYNC-WORD for nobody', false);
    await a.core.handlers['sync.syncNow']({}, call);
    await b.core.handlers['sync.syncNow']({}, call);
    // A control: the kept conversation arrived.
    expect(filesHolding(path.join(b.dataDir, 'conversations'), 'SYNCED-WORD').length).toBeGreaterThan(0);
    expect(filesHolding(b.dataDir, 'TEMP-SYNC-WORD')).toEqual([]);
    expect((await b.core.handlers['conversations.list']({}, call)).conversations).toHaveLength(1);
  });

  it('kept on disk by an earlier version: erased at the next start, which logs how many', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-temporary-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const dir = path.join(dataDir, 'conversations');
    await mkdir(path.join(dir, '.pages'), { recursive: true });
    const file = (memory: boolean, words: string) => {
      const id = randomUUID();
      const at = new Date().toISOString();
      const lines = [
        { t: 'meta', v: 1, id, title: words, createdAt: at, memory },
        {
          t: 'msg',
          id: randomUUID(),
          kind: 'user',
          role: 'user',
          content: [{ type: 'text', text: words }],
          text: words,
          at,
        },
      ];
      return { id, text: lines.map((l) => JSON.stringify(l) + '\n').join('') };
    };
    const old = file(false, 'OLD-TEMP-WORD');
    const kept = file(true, 'OLD-KEPT-WORD');
    await writeFile(path.join(dir, `${old.id}.jsonl`), old.text);
    await writeFile(path.join(dir, `${kept.id}.jsonl`), kept.text);
    await writeFile(path.join(dir, '.pages', `${old.id}.json`), '{}');

    const h = await start({ dataDir });
    const listed = (await h.core.handlers['conversations.list']({}, call)).conversations;
    expect(listed.map((c) => c.id)).toEqual([kept.id]);
    await getStoreInit(h);
    expect(readdirSync(dir).filter((n) => n.endsWith('.jsonl'))).toEqual([`${kept.id}.jsonl`]);
    expect(readdirSync(path.join(dir, '.pages'))).not.toContain(`${old.id}.json`);
    await h.core.close();
    expect(filesHolding(dataDir, 'OLD-TEMP-WORD')).toEqual([]);
    expect(filesHolding(dataDir, 'OLD-KEPT-WORD').length).toBeGreaterThan(0);
    const log = readFileSync(path.join(dataDir, 'logs', 'mnemo.log'), 'utf8');
    expect(log.match(/erased temporary chats an earlier version kept.*"count":1/g)).toHaveLength(1);

    // Once is enough: the next start finds nothing to erase.
    const next = await start({ dataDir });
    await getStoreInit(next);
    await next.core.close();
    const after = readFileSync(path.join(dataDir, 'logs', 'mnemo.log'), 'utf8');
    expect(after.match(/erased temporary chats/g)).toHaveLength(1);
  });
});

/** Waits for the store's check of the folder (where the erasing happens). */
async function getStoreInit(h: Harness): Promise<void> {
  const { getAgent } = await import('../../../electron/core/agent/index.js');
  await getAgent(h.core.ctx).store.init();
}
