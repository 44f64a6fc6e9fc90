// The bundled preload (built with the project's vite.preload.config.ts), evaluated the way a sandboxed
// preload runs: it may require only 'electron', and must expose exactly the contract's functions and `on`.
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

  it('exposes one object, window.mnemo, with exactly the contract functions and on', () => {
    expect(Object.keys(page.exposed)).toEqual(['mnemo']);
    expect(Object.keys(mnemo).sort()).toEqual([...invokeNames, 'on'].sort());
    for (const key of Object.keys(mnemo)) expect(typeof mnemo[key], key).toBe('function');
  });

  it('never hands out ipcRenderer, directly or through an event', async () => {
    const values = Object.values(mnemo);
    expect(values).not.toContain(page.ipcRenderer);
    for (const name of ['ipcRenderer', 'invoke', 'send', 'sendSync', 'removeAllListeners']) {
      expect(mnemo).not.toHaveProperty(name);
    }
    const received: unknown[][] = [];
    (mnemo.on as (n: string, l: (...a: unknown[]) => void) => () => void)('app.notice', (...args) =>
      received.push(args),
    );
    page.ipcRenderer.deliver(IPC_EVENT, [{ name: 'app.notice', payload: { level: 'info', message: 'hi' } }]);
    // The listener gets the payload only, never the IPC event object.
    expect(received).toEqual([[{ level: 'info', message: 'hi' }]]);
  });

  it('forwards a call as {channel, payload} on the one invoke channel', async () => {
    const result = await (mnemo['settings.get'] as (req: unknown) => Promise<unknown>)({ x: 1 });
    expect(result).toEqual({ ok: true, value: 'pong' });
    expect(calls.at(-1)).toEqual([{ channel: 'settings.get', payload: { x: 1 } }]);
  });

  it('subscribes only to known events and returns an unsubscribe function', () => {
    const on = mnemo.on as (n: unknown, l: unknown) => () => void;
    expect(() => on('ipc.raw', () => undefined)).toThrow(/no event named/);
    expect(() => on('__proto__', () => undefined)).toThrow(/no event named/);
    expect(() => on('app.notice', 'not a function')).toThrow(/must be a function/);
    const seen: unknown[] = [];
    const off = on('memory.changed', (p: unknown) => seen.push(p));
    page.ipcRenderer.deliver(IPC_EVENT, [{ name: 'memory.changed', payload: 1 }]);
    off();
    page.ipcRenderer.deliver(IPC_EVENT, [{ name: 'memory.changed', payload: 2 }]);
    expect(seen).toEqual([1]);
    expect(eventNames).toContain('memory.changed');
  });
});
