// The IPC transport's own duties beyond the conformance suite: readiness follows the page (a reload or a
// crashed renderer queues again), a closed window's session ends, and oversized or unserialisable
// payloads are refused. Electron stand-ins + the real bundled preload + the real backend.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIpcServer, type IpcServer } from '../../../electron/core/transports/ipc-server.js';
import { isTrustedSenderUrl } from '../../../electron/shell/navigation.js';
import { APP_URL } from '../../../electron/shell/window-options.js';
import { IPC_INVOKE } from '../../../shared/channel-names.js';
import type { Api, EventPayload } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import { apiFromBridge } from '../../../shared/transport/bridge-client.js';
import { MAX_MESSAGE_BYTES, type BridgeApi } from '../../../shared/wire.js';
import { startBackend, until, type TestBackend } from './backend.js';
import { FakeFrame, FakeIpcMain, FakeWebContents, loadPage } from './electron-stand-ins.js';
import { buildPreload } from './preload-build.js';

type Notice = EventPayload<'app.notice'>;
const notice = (message: string): Notice => ({ level: 'info', message });

let backend: TestBackend;
let ipcMain: FakeIpcMain;
let server: IpcServer;
let preloadFile: string;

beforeAll(async () => {
  backend = await startBackend();
  preloadFile = await buildPreload();
  ipcMain = new FakeIpcMain();
  server = createIpcServer({
    ipcMain,
    handlers: backend.handlers,
    bus: backend.core.bus,
    log: backend.core.log,
    isAllowedSender: isTrustedSenderUrl,
  });
});
afterAll(async () => {
  server?.dispose();
  await backend?.close();
});

async function page(contents: FakeWebContents): Promise<{ api: Api; seen: string[] }> {
  const loaded = await loadPage({ preloadFile, ipcMain, contents, frame: new FakeFrame(APP_URL) });
  const api = apiFromBridge(loaded.exposed.mnemo as BridgeApi);
  const seen: string[] = [];
  api.on('app.notice', (n) => seen.push(n.message));
  return { api, seen };
}

const emit = (message: string) => backend.core.bus.emit('app.notice', notice(message));

describe('IPC readiness follows the page', () => {
  it('queues for a window added before its page loads, and flushes on ready', async () => {
    const contents = new FakeWebContents();
    server.addWindow(contents);
    emit('while loading');
    const { api, seen } = await page(contents);
    await api['app.ready']({});
    await until(() => seen.length === 1, 'the queued event');
    expect(seen).toEqual(['while loading']);
  });

  it('queues again on a reload and delivers to the new page only after it is ready', async () => {
    const contents = new FakeWebContents();
    server.addWindow(contents);
    const first = await page(contents);
    await first.api['app.ready']({});
    emit('a');
    await until(() => first.seen.length === 1, 'a');
    const second = await page(contents); // did-start-navigation: main frame, new document
    emit('b');
    await second.api['settings.get']({});
    expect(second.seen).toEqual([]);
    await second.api['app.ready']({});
    await until(() => second.seen.length === 1, 'b');
    expect(second.seen).toEqual(['b']);
    expect(first.seen).toEqual(['a']);
  });

  it('keeps delivering across same-document and subframe navigations', async () => {
    const contents = new FakeWebContents();
    server.addWindow(contents);
    const { api, seen } = await page(contents);
    await api['app.ready']({});
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: true });
    contents.emit('did-start-navigation', { isMainFrame: false, isSameDocument: false });
    emit('still here');
    await until(() => seen.length === 1, 'the event');
  });

  it('understands the older positional navigation arguments too', async () => {
    const contents = new FakeWebContents();
    server.addWindow(contents);
    const { api, seen } = await page(contents);
    await api['app.ready']({});
    contents.emit('did-start-navigation', undefined, APP_URL, false, true);
    emit('queued');
    await api['settings.get']({});
    expect(seen).toEqual([]);
  });

  it('queues after the renderer process is gone, and ends the session when the window is destroyed', async () => {
    const contents = new FakeWebContents();
    server.addWindow(contents);
    const { api, seen } = await page(contents);
    await api['app.ready']({});
    const sessions = server.rpc.sessionCount;
    contents.emit('render-process-gone', {}, { reason: 'crashed' });
    emit('after crash');
    await api['settings.get']({});
    expect(seen).toEqual([]);
    contents.destroy();
    expect(server.rpc.sessionCount).toBe(sessions - 1);
    emit('after destroy'); // must not throw on a destroyed webContents
  });
});

describe('IPC payload limits', () => {
  it('refuses a payload above the size cap with a clear message', async () => {
    const contents = new FakeWebContents();
    const { api } = await page(contents);
    const huge = 'x'.repeat(MAX_MESSAGE_BYTES + 1);
    const error = await api['settings.setApiKey']({ apiKey: huge }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as ContractError).code).toBe('invalid_request');
    expect((error as ContractError).message).toMatch(/too large \(at most 5 MB\)/);
  });

  it('refuses a cyclic payload (IPC can carry one, the contract cannot)', async () => {
    const contents = new FakeWebContents();
    const loaded = await loadPage({ preloadFile, ipcMain, contents, frame: new FakeFrame(APP_URL) });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const outcome = await loaded.ipcRenderer.invoke(IPC_INVOKE, { channel: 'settings.get', payload: cyclic });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const notAnObject = await loaded.ipcRenderer.invoke(IPC_INVOKE, 'settings.get');
    expect(notAnObject).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('removes its handler on dispose', () => {
    const local = new FakeIpcMain();
    const s = createIpcServer({
      ipcMain: local,
      handlers: backend.handlers,
      bus: backend.core.bus,
      log: backend.core.log,
      isAllowedSender: isTrustedSenderUrl,
    });
    expect(local.handlers.has(IPC_INVOKE)).toBe(true);
    s.dispose();
    expect(local.handlers.has(IPC_INVOKE)).toBe(false);
  });
});
