// Browser mode: the backend behind HTTP + WebSocket on 127.0.0.1. Serves the built renderer, carries the
// contract over one WebSocket per page (/ws?token=...), takes uploads for memory import (POST /upload) and
// hands out one-time downloads for exports (GET /download/<id>). Who may connect: see
// core/transports/web-guard.ts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Handlers } from '../shared/contract.js';
import { MAX_MESSAGE_BYTES } from '../shared/wire.js';
import type { Logger } from './core/context.js';
import { createBrowserHost, type BrowserHost } from './core/host-browser.js';
import { RpcServer, type EventSource, type SpaceSource } from './core/rpc/server.js';
import { resolveStatic } from './core/transports/http-static.js';
import { checkHost, checkRequest, newToken, type Verdict } from './core/transports/web-guard.js';
import { openWireConnection } from './core/transports/wire-connection.js';
import { contentSecurityPolicy } from './shell/csp.js';

export interface WebServerOptions {
  handlers: Handlers;
  bus: EventSource;
  /** core.spaces: calls run in the space they name, events go out tagged with theirs. */
  spaces?: SpaceSource;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  /** 0 or omitted: a free port. */
  port?: number;
  /** Default: 32 random bytes, base64url. */
  token?: string;
  csp?: string;
  logger: Logger;
  /** The browser host the handlers use (for uploads and downloads). */
  host?: BrowserHost;
  /** Without `host`: where uploads go (a browser host is created; the handlers will not see it). */
  uploadDir?: string;
}

export interface WebServer {
  /** http://127.0.0.1:PORT/?token=... */
  url: string;
  port: number;
  token: string;
  host: BrowserHost | undefined;
  rpc: RpcServer;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  // The page URL carries the token: never send it anywhere as a Referer.
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const log = options.logger;
  const token = options.token ?? newToken();
  const csp = options.csp ?? contentSecurityPolicy();
  const ownsHost = !options.host && options.uploadDir !== undefined;
  const host =
    options.host ?? (options.uploadDir ? createBrowserHost({ uploadDir: options.uploadDir }) : undefined);
  const rpc = new RpcServer({ handlers: options.handlers, bus: options.bus, spaces: options.spaces, log });
  let port = 0;

  const headers = (extra: Record<string, string | number>): Record<string, string | number> => ({
    ...SECURITY_HEADERS,
    'Content-Security-Policy': csp,
    ...extra,
  });
  const sendText = (res: ServerResponse, status: number, message: string): void => {
    res.writeHead(status, headers({ 'Content-Type': 'text/plain; charset=utf-8' })).end(message);
  };
  const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
    res
      .writeHead(status, headers({ 'Content-Type': 'application/json; charset=utf-8' }))
      .end(JSON.stringify(body));
  };

  const handleUpload = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const verdict = checkRequest(
      req.headers,
      req.headers['x-mnemo-token']?.toString() ?? url.searchParams.get('token'),
      token,
      port,
    );
    if (!verdict.ok) {
      log.warn('refused an upload', { reason: verdict.reason });
      return sendJson(res, verdict.status, { error: { code: 'forbidden', message: 'Not allowed.' } });
    }
    if (!host)
      return sendJson(res, 404, { error: { code: 'not_found', message: 'Uploads are not enabled.' } });
    const tooLarge = {
      error: {
        code: 'invalid_request',
        message: `The file is too large (at most ${host.maxUploadBytes / 1024 / 1024} MB).`,
      },
    };
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > host.maxUploadBytes) {
      res.setHeader('Connection', 'close');
      return sendJson(res, 413, tooLarge);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > host.maxUploadBytes) {
        res.setHeader('Connection', 'close');
        sendJson(res, 413, tooLarge);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    }
    let name = 'upload.zip';
    try {
      name = decodeURIComponent(req.headers['x-file-name']?.toString() ?? name);
    } catch {
      // A malformed name is not worth refusing the file for: keep the default.
    }
    const uploadId = await host.storeUpload(name, Buffer.concat(chunks));
    sendJson(res, 200, { uploadId });
  };

  const handleDownload = (res: ServerResponse, id: string): void => {
    const download = host?.takeDownload(id);
    if (!download)
      return sendText(res, 404, 'This download link has expired or was already used. Export again.');
    res
      .writeHead(
        200,
        headers({
          'Content-Type': download.mime,
          'Content-Length': download.data.byteLength,
          'Content-Disposition': `attachment; filename="${download.fileName}"; filename*=UTF-8''${encodeURIComponent(download.fileName)}`,
        }),
      )
      .end(Buffer.from(download.data.buffer, download.data.byteOffset, download.data.byteLength));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const hostCheck = checkHost(req.headers, port);
    if (!hostCheck.ok) return sendText(res, 403, 'Forbidden.');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname === '/upload') {
      if (req.method !== 'POST') return sendText(res, 405, 'Use POST.');
      return handleUpload(req, res, url);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Method not allowed.');
    if (url.pathname === '/ws') return sendText(res, 426, 'This endpoint speaks WebSocket.');
    const download = /^\/download\/([A-Za-z0-9_-]{1,64})$/.exec(url.pathname);
    if (download) return handleDownload(res, download[1]!);
    const file = await resolveStatic(options.rendererDir, url.pathname);
    if (file.status !== 200) return sendText(res, file.status, file.message);
    res.writeHead(200, headers({ 'Content-Type': file.contentType, 'Content-Length': file.body.length }));
    res.end(req.method === 'HEAD' ? undefined : file.body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log.error('web request failed', {
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      if (!res.headersSent)
        sendText(res, 500, 'Something went wrong inside Mnemo. The details are in the log file.');
      else res.destroy();
    });
  });

  // The message cap is enforced by ws itself: a larger message closes the socket with 1009 (Message Too
  // Big). The app's own client never sends one (its codec refuses it first with a clear error).
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  const refuse = (socket: Duplex, verdict: Extract<Verdict, { ok: false }>): void => {
    const text =
      verdict.status === 401 ? 'Unauthorized' : verdict.status === 403 ? 'Forbidden' : 'Bad Request';
    socket.end(`HTTP/1.1 ${verdict.status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname !== '/ws') return refuse(socket, { ok: false, status: 400, reason: 'unknown endpoint' });
    const verdict = checkRequest(req.headers, url.searchParams.get('token'), token, port);
    if (!verdict.ok) {
      log.warn('refused a WebSocket connection', { reason: verdict.reason });
      return refuse(socket, verdict);
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws));
  });

  const accept = (ws: WebSocket): void => {
    // The sender was checked at the handshake (token, Origin, Host); every call of this connection is its.
    const connection = openWireConnection(rpc, {
      kind: 'ws',
      sender: 'checked-at-handshake' as const,
      isAllowed: (sender) => sender === 'checked-at-handshake',
      send: (text) => ws.send(text),
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return ws.close(1003, 'Text messages only.');
      connection.receive(Array.isArray(data) ? Buffer.concat(data).toString('utf8') : data.toString('utf8'));
    });
    ws.on('close', () => connection.close());
    ws.on('error', (error) => log.warn('WebSocket error', { error: error.message }));
  };

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', () => {
      http.off('error', reject);
      resolve();
    });
  });
  port = (http.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    host,
    rpc,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      rpc.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      if (ownsHost) await host?.dispose();
    },
  };
}
