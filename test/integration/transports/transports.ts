// The three transports of the contract behind one test interface, each built from its real parts: the
// in-memory pair; the WebSocket server (startWebServer) with the renderer's own WebSocket client over the
// `ws` package; and the IPC server with the real bundled preload evaluated against Electron stand-ins.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { RpcServer } from '../../../electron/core/rpc/server.js';
import { createIpcServer } from '../../../electron/core/transports/ipc-server.js';
import { createMemoryPair } from '../../../electron/core/transports/memory-pair.js';
import { openWireConnection } from '../../../electron/core/transports/wire-connection.js';
import { isTrustedSenderUrl } from '../../../electron/shell/navigation.js';
import { APP_URL } from '../../../electron/shell/window-options.js';
import { startWebServer } from '../../../electron/web.js';
import { IPC_INVOKE } from '../../../shared/channel-names.js';
import type { Api } from '../../../shared/contract.js';
import { apiFromBridge } from '../../../shared/transport/bridge-client.js';
import { createWsTransport, type WebSocketLike } from '../../../shared/transport/ws-client.js';
import type { BridgeApi, Outcome } from '../../../shared/wire.js';
import { until, type TestBackend } from './backend.js';
import { FakeFrame, FakeIpcMain, FakeWebContents, loadPage } from './electron-stand-ins.js';
import { buildPreload } from './preload-build.js';

export interface Client {
  api: Api;
  /** The window closes or the connection drops. */
  drop(): void;
}

/** A foreign client: refused when connecting (an HTTP status), or connected but refused on every call. */
export type Foreign = { label: string } & ({ refusedWith: number } | { api: Api });

export interface Transport {
  readonly name: string;
  connect(): Promise<Client>;
  /** The same window reloads (IPC) or the page reconnects after a drop (the others). */
  reload(client: Client): Promise<Client>;
  foreign(): Promise<Foreign[]>;
  /** An allowed client calling a channel by any name with any payload (a compromised renderer). */
  raw(channel: unknown, payload: unknown): Promise<Outcome>;
  close(): Promise<void>;
}

export type TransportFactory = (backend: TestBackend) => Promise<Transport>;

export const memoryTransport: TransportFactory = async (backend) => {
  const server = new RpcServer({
    handlers: backend.handlers,
    bus: backend.core.bus,
    spaces: backend.core.spaces,
    log: backend.core.log,
  });
  const connect = (): Promise<Client> => {
    const api = createMemoryPair(server);
    return Promise.resolve({ api, drop: () => api.close() });
  };
  return {
    name: 'in-memory pair',
    connect,
    reload: (client) => {
      client.drop();
      return connect();
    },
    foreign: async () => [
      { label: 'a pair with a foreign sender id', api: createMemoryPair(server, { sender: 'intruder' }) },
    ],
    raw: (channel, payload) =>
      new Promise((resolve) => {
        const connection = openWireConnection(server, {
          kind: 'raw',
          sender: 'app',
          isAllowed: (s) => s === 'app',
          send: (text) => {
            connection.close();
            resolve(JSON.parse(text) as Outcome);
          },
        });
        connection.receive(JSON.stringify({ t: 'invoke', id: 1, channel, payload }));
      }),
    close: async () => server.close(),
  };
};

/** Opens a raw WebSocket; resolves with the HTTP status it was refused with, or 101 if it opened. */
export function handshakeStatus(
  url: string,
  headers: { origin?: string; host?: string } = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, {
      ...(headers.origin ? { origin: headers.origin } : {}),
      ...(headers.host ? { headers: { host: headers.host } } : {}),
    });
    ws.on('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      resolve(101);
      ws.close();
    });
    ws.on('error', (error) => reject(error));
  });
}

export const webSocketTransport: TransportFactory = async (backend) => {
  const rendererDir = await mkdtemp(path.join(tmpdir(), 'mnemo-renderer-'));
  await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>Mnemo</title>');
  const web = await startWebServer({
    handlers: backend.handlers,
    bus: backend.core.bus,
    spaces: backend.core.spaces,
    rendererDir,
    logger: backend.core.log,
  });
  const origin = `http://127.0.0.1:${web.port}`;
  const wsUrl = (token: string | null) =>
    `ws://127.0.0.1:${web.port}/ws${token === null ? '' : `?token=${encodeURIComponent(token)}`}`;

  const connect = async (): Promise<Client> => {
    const transport = createWsTransport({
      url: wsUrl(web.token),
      // The renderer's browser sends its page's Origin; so does this client.
      createSocket: (url) => new WebSocket(url, { origin }) as unknown as WebSocketLike,
    });
    await until(() => transport.status === 'open', 'the WebSocket to open');
    return { api: transport.api, drop: () => transport.close() };
  };

  return {
    name: 'WebSocket',
    connect,
    reload: (client) => {
      client.drop();
      return connect();
    },
    foreign: async () => [
      { label: 'no token', refusedWith: await handshakeStatus(wsUrl(null), { origin }) },
      {
        label: 'a wrong token',
        refusedWith: await handshakeStatus(wsUrl(`${web.token.slice(0, -2)}xx`), { origin }),
      },
      { label: 'a token of another length', refusedWith: await handshakeStatus(wsUrl('short'), { origin }) },
      {
        label: 'a foreign Origin with the right token',
        refusedWith: await handshakeStatus(wsUrl(web.token), { origin: 'http://evil.example' }),
      },
      {
        label: 'another local port as Origin',
        refusedWith: await handshakeStatus(wsUrl(web.token), { origin: `http://127.0.0.1:${web.port + 1}` }),
      },
    ],
    raw: (channel, payload) =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(wsUrl(web.token), { origin });
        ws.on('open', () => ws.send(JSON.stringify({ t: 'invoke', id: 1, channel, payload })));
        ws.on('message', (data) => {
          const message = JSON.parse(String(data)) as { t: string } & Outcome;
          if (message.t !== 'result') return;
          ws.close();
          const { t: _t, id: _id, ...outcome } = message as typeof message & { id: number };
          resolve(outcome as Outcome);
        });
        ws.on('error', reject);
      }),
    close: async () => {
      await web.close();
      await rm(rendererDir, { recursive: true, force: true });
    },
  };
};

export const ipcTransport: TransportFactory = async (backend) => {
  const preloadFile = await buildPreload();
  const ipcMain = new FakeIpcMain();
  const server = createIpcServer({
    ipcMain,
    handlers: backend.handlers,
    bus: backend.core.bus,
    spaces: backend.core.spaces,
    log: backend.core.log,
    isAllowedSender: isTrustedSenderUrl,
  });
  const windows = new Map<Api, FakeWebContents>();

  const open = async (contents: FakeWebContents, frame: FakeFrame | null): Promise<Client> => {
    const page = await loadPage({ preloadFile, ipcMain, contents, frame });
    const api = apiFromBridge(page.exposed.mnemo as BridgeApi);
    windows.set(api, contents);
    return { api, drop: () => contents.destroy() };
  };
  const newWindow = (): FakeWebContents => {
    const contents = new FakeWebContents();
    server.addWindow(contents);
    return contents;
  };

  return {
    name: 'Electron IPC',
    connect: () => open(newWindow(), new FakeFrame(APP_URL)),
    // A reload keeps the webContents (and its queue) and runs the preload again in a new page.
    reload: (client) => open(windows.get(client.api)!, new FakeFrame(APP_URL)),
    foreign: async () => [
      {
        label: 'a window navigated to a foreign page',
        api: (await open(newWindow(), new FakeFrame('https://evil.example/'))).api,
      },
      {
        label: 'a subframe on the app origin',
        api: (await open(newWindow(), new FakeFrame(APP_URL, new FakeFrame(APP_URL)))).api,
      },
      { label: 'a message without a frame', api: (await open(newWindow(), null)).api },
    ],
    raw: async (channel, payload) => {
      const page = await loadPage({
        preloadFile,
        ipcMain,
        contents: newWindow(),
        frame: new FakeFrame(APP_URL),
      });
      return (await page.ipcRenderer.invoke(IPC_INVOKE, { channel, payload })) as Outcome;
    },
    close: async () => server.dispose(),
  };
};

export const transports: Array<[string, TransportFactory]> = [
  ['in-memory pair', memoryTransport],
  ['WebSocket', webSocketTransport],
  ['Electron IPC', ipcTransport],
];
