// One conformance suite over the contract's three transports (in-memory pair, WebSocket, Electron IPC with
// the real bundled preload), against the real backend: every transport must refuse what the contract
// refuses and deliver what it promises, in the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../shared/channels/chat.js';
import type { EventPayload } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import { CONTRACT_FAILURE, RAW_FAILURE, startBackend, until, type TestBackend } from './backend.js';
import { transports, type Client, type Transport } from './transports.js';

type Notice = EventPayload<'app.notice'>;
const notice = (n: number): Notice => ({ level: 'info', message: `notice ${n}` });
const messages = (list: Notice[]) => list.map((n) => n.message);

async function rejection(promise: Promise<unknown>): Promise<ContractError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ContractError);
    return error as ContractError;
  }
  throw new Error('expected the call to be refused');
}

/** Subscribes, says ready, and collects. */
async function readyClient(client: Client): Promise<Notice[]> {
  const seen: Notice[] = [];
  client.api.on('app.notice', (n) => seen.push(n));
  await client.api['app.ready']({});
  return seen;
}

const HOST_PATH = /\/home\/|\/tmp\/|[A-Za-z]:\\|\n\s+at\s/;

describe.each(transports)('contract over the %s', (_name, factory) => {
  let backend: TestBackend;
  let transport: Transport;
  const clients: Client[] = [];
  const connect = async (): Promise<Client> => {
    const client = await transport.connect();
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    backend = await startBackend();
    transport = await factory(backend);
  });
  afterAll(async () => {
    for (const client of clients) client.drop();
    await transport?.close();
    await backend?.close();
  });

  it('answers a valid call with the backend result', async () => {
    const { api } = await connect();
    const view = await api['settings.get']({});
    expect(view.settings.maxTurns).toBeGreaterThan(0);
    expect(view.apiKey).not.toHaveProperty('key');
    const changed = await api['settings.set']({ patch: { maxTurns: 7 } });
    expect(changed.settings.maxTurns).toBe(7);
  });

  it('refuses a malformed payload with invalid_request and a readable message', async () => {
    const { api } = await connect();
    const error = await rejection(api['settings.set']({ patch: { maxTurns: 'many' } } as never));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/^patch\.maxTurns: Invalid input: expected number/);
    const refine = await rejection(api['chat.attach']({}));
    expect(refine.message).toBe('Give a runId or a conversationId.');
    const notObject = await rejection(api['settings.get']('hello' as never));
    expect(notObject.code).toBe('invalid_request');
    // Nothing changed.
    expect((await api['settings.get']({})).settings.maxTurns).not.toBe('many');
  });

  it('refuses an unknown channel', async () => {
    for (const channel of ['memory.format', '__proto__', 'constructor', 7]) {
      const outcome = await transport.raw(channel, {});
      expect(outcome).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    }
    expect(await transport.raw('settings.get', {})).toMatchObject({ ok: true });
  });

  it('refuses a foreign sender: no call runs, no event arrives', async () => {
    const foreign = await transport.foreign();
    expect(foreign.length).toBeGreaterThan(0);
    const received: Array<{ label: string; events: Notice[] }> = [];
    for (const f of foreign) {
      if ('refusedWith' in f) {
        expect([401, 403], f.label).toContain(f.refusedWith);
        continue;
      }
      const events: Notice[] = [];
      received.push({ label: f.label, events });
      f.api.on('app.notice', (n) => events.push(n));
      for (const call of [
        () => f.api['app.ready']({}),
        () => f.api['settings.get']({}),
        () => f.api['settings.set']({ patch: { maxTurns: 99 } }),
      ]) {
        const error = await rejection(call());
        expect(error.code, f.label).toBe('forbidden');
      }
    }
    // An allowed client proves the event went out; the foreign ones got nothing.
    const allowed = await connect();
    const seen = await readyClient(allowed);
    backendNotice(backend, notice(99));
    await until(() => seen.length === 1, 'the allowed client to get the event');
    await allowed.api['settings.get']({});
    for (const r of received) expect(r.events, r.label).toEqual([]);
    expect((await allowed.api['settings.get']({})).settings.maxTurns).not.toBe(99);
  });

  it('stops delivering to a listener once it unsubscribes', async () => {
    const { api } = await connect();
    const first: Notice[] = [];
    const second: Notice[] = [];
    const offFirst = api.on('app.notice', (n) => first.push(n));
    api.on('app.notice', (n) => second.push(n));
    await api['app.ready']({});
    backendNotice(backend, notice(1));
    await until(() => second.length === 1 && first.length === 1, 'both listeners');
    offFirst();
    offFirst();
    backendNotice(backend, notice(2));
    await until(() => second.length === 2, 'the remaining listener');
    expect(messages(first)).toEqual(['notice 1']);
    expect(messages(second)).toEqual(['notice 1', 'notice 2']);
    expect(() => api.on('no.such.event' as never, () => undefined)).toThrow(/no event named/);
  });

  it('queues events until the window is ready, then delivers them in order, once', async () => {
    const client = await connect();
    const seen: Notice[] = [];
    client.api.on('app.notice', (n) => seen.push(n));
    // Make sure the server knows this client before emitting (a round trip).
    await client.api['settings.get']({});
    for (let i = 1; i <= 3; i++) backendNotice(backend, notice(i));
    await client.api['settings.get']({});
    expect(seen).toEqual([]);
    await client.api['app.ready']({});
    await until(() => seen.length === 3, 'the queued events');
    backendNotice(backend, notice(4));
    await until(() => seen.length === 4, 'a live event');
    await client.api['app.ready']({});
    await client.api['settings.get']({});
    expect(messages(seen)).toEqual(['notice 1', 'notice 2', 'notice 3', 'notice 4']);
  });

  it('carries errors without a stack trace or a host path', async () => {
    const { api } = await connect();
    const internal = await rejection(api['app.openExternal']({ url: 'https://example.com/' }));
    expect(internal.code).toBe('internal');
    expect(internal.message).not.toContain('EACCES');
    expect(internal.message).not.toMatch(HOST_PATH);
    const contract = await rejection(api['app.openDataFolder']({ which: 'data' }));
    expect(contract.code).toBe('not_found');
    expect(contract.message).toBe('Nothing at <path> for /memories/a.md');
    expect(JSON.stringify([internal.details, contract.details])).not.toMatch(HOST_PATH);
    expect(RAW_FAILURE).toMatch(HOST_PATH);
    expect(CONTRACT_FAILURE).toMatch(HOST_PATH);
  });

  it('re-attaches after a reload mid-run: attach returns what was missed, later events arrive live', async () => {
    const first = await connect();
    const before: RunEvent[] = [];
    first.api.on('chat.event', (e) => before.push(e));
    await first.api['app.ready']({});

    const run = backend.core.ctx.runs.start('conversation-1');
    run.emit({ type: 'run.started', userMessageId: 'user-1' });
    run.emit({ type: 'text.delta', messageId: 'assistant-1', text: 'Hel' });
    await until(() => before.length === 2, 'the first two events');
    const lastSeq = before.at(-1)!.seq;

    // The window reloads; the run goes on meanwhile.
    const reloading = transport.reload(first);
    run.emit({ type: 'text.delta', messageId: 'assistant-1', text: 'lo' });
    const second = await reloading;
    clients.push(second);
    const live: RunEvent[] = [];
    second.api.on('chat.event', (e) => live.push(e));
    await second.api['app.ready']({});
    const attached = await second.api['chat.attach']({ runId: run.runId, afterSeq: lastSeq });
    expect(attached.run).toEqual({ runId: run.runId, conversationId: 'conversation-1', status: 'running' });
    expect(attached.events.map((e) => [e.seq, e.type])).toEqual([[3, 'text.delta']]);

    run.emit({ type: 'text.delta', messageId: 'assistant-1', text: '!' });
    run.finish('done');
    await until(() => live.some((e) => e.type === 'run.finished'), 'the end of the run');
    // A live copy of an event attach already returned may arrive too (it was queued during the reload);
    // the seq tells them apart, and none arrives twice.
    const liveSeqs = live.map((e) => e.seq);
    expect(new Set(liveSeqs).size).toBe(liveSeqs.length);
    expect(liveSeqs.filter((s) => s > 3)).toEqual([4, 5]);
    expect(live.at(-1)).toMatchObject({ seq: 5, type: 'run.finished', status: 'done' });
    expect(before.map((e) => e.seq)).toEqual([1, 2]);
    const text = [...attached.events, ...live.filter((e) => e.seq > 3)]
      .map((e) => (e.type === 'text.delta' ? e.text : ''))
      .join('');
    expect(text).toBe('lo!');
  });
});

function backendNotice(backend: TestBackend, payload: Notice): void {
  backend.core.bus.emit('app.notice', payload);
}
