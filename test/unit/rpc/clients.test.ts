import { describe, expect, it } from 'vitest';
import { checkOrigin, checkRequest, tokensEqual } from '../../../electron/core/transports/web-guard.js';
import { ContractError } from '../../../shared/errors.js';
import { apiFromBridge } from '../../../shared/transport/bridge-client.js';
import { createRpcClient } from '../../../shared/transport/rpc-client.js';
import { tokenFromLocation, webSocketUrl } from '../../../shared/transport/ws-client.js';
import type { BridgeApi, ClientMessage } from '../../../shared/wire.js';

describe('rpc client', () => {
  it('holds calls until the first connection, then sends them in order', async () => {
    const client = createRpcClient();
    const first = client.api['settings.get']({});
    const second = client.api['app.info']({});
    const sent: ClientMessage[] = [];
    client.connected((text) => sent.push(JSON.parse(text) as ClientMessage));
    expect(sent.map((m) => (m.t === 'invoke' ? m.channel : m.t))).toEqual(['settings.get', 'app.info']);
    const ids = sent.map((m) => (m.t === 'invoke' ? m.id : -1));
    client.receive(JSON.stringify({ t: 'result', id: ids[1], ok: true, value: 'info' }));
    client.receive(
      JSON.stringify({
        t: 'result',
        id: ids[0],
        ok: false,
        error: { code: 'not_found', message: 'gone', details: { a: 1 } },
      }),
    );
    expect(await second).toBe('info');
    const error = await first.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect(error).toMatchObject({ code: 'not_found', message: 'gone', details: { a: 1 } });
  });

  it('fails calls in flight and calls made while down; remembers that ready was sent', async () => {
    const client = createRpcClient();
    client.connected(() => undefined);
    expect(client.readySent).toBe(false);
    const ready = client.api['app.ready']({});
    expect(client.readySent).toBe(true);
    client.disconnected(new ContractError('unavailable', 'lost'));
    await expect(ready).rejects.toMatchObject({ code: 'unavailable', message: 'lost' });
    await expect(client.api['settings.get']({})).rejects.toMatchObject({ code: 'unavailable' });
  });

  it('fails a call whose send throws, and a payload too large to encode', async () => {
    const client = createRpcClient();
    client.connected(() => {
      throw new Error('closed');
    });
    await expect(client.api['settings.get']({})).rejects.toMatchObject({ code: 'unavailable' });
    await expect(
      client.api['settings.setApiKey']({ apiKey: 'x'.repeat(6 * 1024 * 1024) }),
    ).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  it('keeps delivering when a listener throws, reports malformed messages, ignores unknown ids', () => {
    const client = createRpcClient();
    const problems: string[] = [];
    client.onProblem = (message) => problems.push(message);
    const seen: unknown[] = [];
    const listener = (p: unknown) => seen.push(p);
    client.api.on('app.notice', () => {
      throw new Error('bad listener');
    });
    client.api.on('app.notice', listener);
    const offSecond = client.api.on('app.notice', listener);
    client.receive(JSON.stringify({ t: 'event', name: 'app.notice', payload: 1 }));
    offSecond();
    client.receive(JSON.stringify({ t: 'event', name: 'app.notice', payload: 2 }));
    client.receive(JSON.stringify({ t: 'event', name: 'not.an.event', payload: 3 }));
    client.receive('{broken');
    client.receive(JSON.stringify({ t: 'result', id: 999, ok: true, value: null }));
    expect(seen).toEqual([1, 1, 2]);
    expect(problems).toEqual([
      'An event listener for app.notice failed.',
      'An event listener for app.notice failed.',
      'Ignored a malformed message from Mnemo: The message is not valid JSON.',
    ]);
  });
});

describe('bridge client', () => {
  it('turns outcomes into values and ContractErrors', async () => {
    const answers: Record<string, () => Promise<unknown>> = {
      'settings.get': () => Promise.resolve({ ok: true, value: 'v' }),
      'app.info': () => Promise.resolve({ ok: false, error: { code: 'forbidden', message: 'no' } }),
    };
    const bridge = {
      invoke: (channel: string) => answers[channel]!(),
      on: () => () => undefined,
    } as unknown as BridgeApi;
    const api = apiFromBridge(bridge);
    expect(await api['settings.get']({})).toBe('v');
    await expect(api['app.info']({})).rejects.toBeInstanceOf(ContractError);
    await expect(api['app.info']({})).rejects.toMatchObject({ code: 'forbidden', message: 'no' });
  });

  it('turns a failed IPC call or a malformed answer into a ContractError', async () => {
    const answers: Record<string, () => Promise<unknown>> = {
      'settings.get': () => Promise.reject(new Error("Error invoking remote method 'mnemo:invoke': boom")),
      'app.info': () => Promise.resolve({ weird: true }),
    };
    const bridge = {
      invoke: (channel: string) => answers[channel]!(),
      on: () => () => undefined,
    } as unknown as BridgeApi;
    const api = apiFromBridge(bridge);
    await expect(api['settings.get']({})).rejects.toMatchObject({
      code: 'unavailable',
      message: /did not answer/,
    });
    await expect(api['app.info']({})).rejects.toMatchObject({ code: 'internal' });
  });
});

describe('page location helpers', () => {
  it('reads the token from the query or the hash', () => {
    expect(tokenFromLocation({ search: '?token=abc', hash: '' })).toBe('abc');
    expect(tokenFromLocation({ search: '', hash: '#token=def' })).toBe('def');
    expect(tokenFromLocation({ search: '?x=1', hash: '' })).toBeNull();
  });
  it('builds the WebSocket URL of the page server', () => {
    expect(webSocketUrl({ protocol: 'http:', host: '127.0.0.1:5000' }, 'a+b')).toBe(
      'ws://127.0.0.1:5000/ws?token=a%2Bb',
    );
    expect(webSocketUrl({ protocol: 'https:', host: 'x' }, 't')).toBe('wss://x/ws?token=t');
  });
});

describe('web guard', () => {
  it('compares tokens exactly', () => {
    expect(tokensEqual('abc', 'abc')).toBe(true);
    expect(tokensEqual('abd', 'abc')).toBe(false);
    expect(tokensEqual('ab', 'abc')).toBe(false);
    expect(tokensEqual('', 'abc')).toBe(false);
  });
  it('accepts only the server own origins and host', () => {
    expect(checkOrigin({ origin: 'http://127.0.0.1:80' }, 80).ok).toBe(true);
    expect(checkOrigin({ origin: 'http://127.0.0.1:81' }, 80).ok).toBe(false);
    expect(checkOrigin({ origin: 'null' }, 80).ok).toBe(false);
    expect(checkOrigin({ origin: 'https://127.0.0.1:80' }, 80).ok).toBe(false);
    expect(checkRequest({ host: '127.0.0.1:80' }, 't', 't', 80)).toEqual({ ok: true });
    expect(checkRequest({ host: '127.0.0.1:80' }, null, 't', 80)).toMatchObject({ ok: false, status: 401 });
    expect(checkRequest({ host: 'evil:80' }, 't', 't', 80)).toMatchObject({ ok: false, status: 403 });
    expect(checkRequest({}, 't', 't', 80)).toMatchObject({ ok: false, status: 403 });
  });
});
