// The bundled preload (built with the project's vite.preload.config.ts), evaluated the way a sandboxed
// preload runs: it may require only 'electron', and must expose exactly a generic `invoke` and `on` (no
// channel names: the main side checks them, see ipc.test.ts), never ipcRenderer.
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventNames, invokeNames } from '../../../shared/contract.js';
import { IPC_EVENT, IPC_INVOKE } from '../../../shared/channel-names.js';
import { FakeFrame, FakeIpcMain, FakeWebContents, loadPage, type LoadedPage } from './electron-stand-ins.js';
import { buildPreload } from './preload-build.js';

let preloadFile: string;
let page: LoadedPage;
let mnemo: Record<string, unknown>;
const calls: unknown[][] = [];

beforeAll(async () => {
  preloadFile = await buildPreload();
  const ipcMain = new FakeIpcMain();
  ipcMain.handle(IPC_INVOKE, (_event, ...args) => {
    calls.push(args);
    return { ok: true, value: 'pong' };
  });
  const contents = new FakeWebContents();
  page = await loadPage({ preloadFile, ipcMain, contents, frame: new FakeFrame('app://mnemo/index.html') });
  mnemo = page.exposed.mnemo as Record<string, unknown>;
});

describe('the bundled preload', () => {
  it('is one self-contained file that requires only electron', async () => {
    expect(page.required).toEqual(['electron']);
    const code = await readFile(preloadFile, 'utf8');
    expect(code).not.toMatch(/require\((?!"electron"\))/);
    expect(code).not.toContain('zod');
  });

  it('exposes one object, window.mnemo, with exactly invoke and on', () => {
    expect(Object.keys(page.exposed)).toEqual(['mnemo']);
    expect(Object.keys(mnemo).sort()).toEqual(['invoke', 'on']);
    // No channel is named in the preload: the contract's table is the only list.
    expect(invokeNames.length).toBeGreaterThan(10);
    for (const key of Object.keys(mnemo)) expect(typeof mnemo[key], key).toBe('function');
  });

  it('never hands out ipcRenderer, directly or through an event', async () => {
    const values = Object.values(mnemo);
    expect(values).not.toContain(page.ipcRenderer);
    expect(mnemo.invoke).not.toBe(page.ipcRenderer.invoke);
    for (const name of ['ipcRenderer', 'send', 'sendSync', 'removeAllListeners']) {
      expect(mnemo).not.toHaveProperty(name);
    }
    const received: unknown[][] = [];
    (mnemo.on as (n: string, l: (...a: unknown[]) => void) => () => void)('app.notice', (...args) =>
      received.push(args),
    );
    page.ipcRenderer.deliver(IPC_EVENT, [{ name: 'app.notice', payload: { level: 'info', message: 'hi' } }]);
    page.ipcRenderer.deliver(IPC_EVENT, [
      { name: 'app.notice', payload: { level: 'info', message: 'in a space' }, space: 'personal' },
    ]);
    // The listener gets the payload and the space it happened in only, never the IPC event object.
    expect(received).toEqual([
      [{ level: 'info', message: 'hi' }, {}],
      [{ level: 'info', message: 'in a space' }, { space: 'personal' }],
    ]);
  });

  it('forwards a call as {channel, payload} on the one invoke channel', async () => {
    const invoke = mnemo.invoke as (channel: unknown, req: unknown) => Promise<unknown>;
    const result = await invoke('settings.get', { x: 1 });
    expect(result).toEqual({ ok: true, value: 'pong' });
    expect(calls.at(-1)).toEqual([{ channel: 'settings.get', payload: { x: 1 } }]);
    // The space goes beside the payload (shared/contract.ts, "Spaces on the wire"), checked on the main side.
    await (mnemo.invoke as (c: unknown, r: unknown, s: unknown) => Promise<unknown>)(
      'memory.list',
      {},
      'a1b2c3d4e5f6',
    );
    expect(calls.at(-1)).toEqual([{ channel: 'memory.list', payload: {}, space: 'a1b2c3d4e5f6' }]);
    // Only on the one invoke channel, whatever the page passes as a name.
    await expect(invoke({ toString: () => 'mnemo:invoke' }, {})).rejects.toThrow(/is a string/);
  });

  it('subscribes by name (a Map: no prototype names) and returns an unsubscribe function', () => {
    const on = mnemo.on as (n: unknown, l: unknown) => () => void;
    expect(() => on(42, () => undefined)).toThrow(/is a string/);
    expect(() => on('app.notice', 'not a function')).toThrow(/must be a function/);
    const proto: unknown[] = [];
    on('__proto__', (p: unknown) => proto.push(p));
    page.ipcRenderer.deliver(IPC_EVENT, [{ name: 'constructor', payload: 0 }]);
    expect(proto).toEqual([]);
    const seen: unknown[] = [];
    const off = on('memory.changed', (p: unknown) => seen.push(p));
    page.ipcRenderer.deliver(IPC_EVENT, [{ name: 'memory.changed', payload: 1 }]);
    off();
    page.ipcRenderer.deliver(IPC_EVENT, [{ name: 'memory.changed', payload: 2 }]);
    expect(seen).toEqual([1]);
    expect(eventNames).toContain('memory.changed');
  });
});
