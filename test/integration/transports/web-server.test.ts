// Browser mode's server beyond the conformance suite: static files (MIME, CSP, no traversal), who may
// connect (Host, Origin, token), uploads and one-time downloads, the message cap, and the renderer's
// WebSocket client reconnecting after the server restarts.
import { request } from 'node:http';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createBrowserHost, type BrowserHost } from '../../../electron/core/host-browser.js';
import { contentSecurityPolicy } from '../../../electron/shell/csp.js';
import { startWebServer, type WebServer } from '../../../electron/web.js';
import type { Handlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import { createWsTransport, type WebSocketLike } from '../../../shared/transport/ws-client.js';
import { MAX_MESSAGE_BYTES } from '../../../shared/wire.js';
import { startBackend, until, type TestBackend } from './backend.js';
import { handshakeStatus } from './transports.js';

let backend: TestBackend;
let root: string;
let rendererDir: string;
let host: BrowserHost;
let web: WebServer;
let handlers: Handlers;
/** Lets a test hold conversations.list open (a call in flight). */
let releaseList: (() => void) | undefined;

beforeAll(async () => {
  backend = await startBackend();
  root = await mkdtemp(path.join(tmpdir(), 'mnemo-web-'));
  rendererDir = path.join(root, 'renderer');
  await mkdir(path.join(rendererDir, 'assets'), { recursive: true });
  await writeFile(path.join(rendererDir, 'index.html'), '<!doctype html><title>Mnemo</title>');
  await writeFile(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(path.join(rendererDir, 'assets', 'app.css'), 'body{}');
  await writeFile(path.join(rendererDir, '.env'), 'HIDDEN');
  await writeFile(path.join(root, 'secret.txt'), 'SECRET');
  await symlink(path.join(root, 'secret.txt'), path.join(rendererDir, 'link.txt'));
  host = createBrowserHost({ uploadDir: path.join(root, 'uploads'), maxUploadBytes: 64 * 1024 });
  handlers = {
    ...backend.handlers,
    'conversations.list': (req, ctx) =>
      new Promise((resolve, reject) => {
        releaseList = () => void backend.handlers['conversations.list'](req, ctx).then(resolve, reject);
      }),
  };
  web = await startWebServer({
    handlers,
    bus: backend.core.bus,
    rendererDir,
    logger: backend.core.log,
    host,
  });
});
afterAll(async () => {
  await web?.close();
  await host?.dispose();
  await backend?.close();
  await rm(root, { recursive: true, force: true });
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A raw HTTP request: the path is sent exactly as given (fetch would normalise `..` away). */
function raw(
  rawPath: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: web.port,
        path: rawPath,
        method: options.method ?? 'GET',
        headers: { host: `127.0.0.1:${web.port}`, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('static files', () => {
  it('prints a loopback URL with a long random token', () => {
    expect(web.url).toBe(`http://127.0.0.1:${web.port}/?token=${web.token}`);
    expect(web.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('serves the renderer with the right MIME types and the security headers', async () => {
    const index = await raw('/?token=whatever');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['content-security-policy']).toBe(contentSecurityPolicy());
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect(index.headers['referrer-policy']).toBe('no-referrer');
    expect(index.body.toString()).toContain('<title>Mnemo</title>');
    expect((await raw('/assets/app.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await raw('/assets/app.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await raw('/settings/memory')).body.toString()).toContain('<title>Mnemo</title>');
    expect((await raw('/assets/missing.js')).status).toBe(404);
    expect((await raw('/', { method: 'DELETE' })).status).toBe(405);
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/..%5csecret.txt',
    '/%2e%2e%5csecret.txt',
    '/link.txt',
    '/.env',
    '/assets/%00.js',
    '/%E0%A4%A',
    '//etc/passwd',
  ])('never serves anything outside the renderer: %s', async (rawPath) => {
    const reply = await raw(rawPath);
    expect([400, 404, 200]).toContain(reply.status);
    expect(reply.body.toString()).not.toMatch(/SECRET|HIDDEN|root:/);
    if (reply.status === 200) expect(reply.body.toString()).toContain('<title>Mnemo</title>');
  });

  it('refuses a request for another Host (DNS rebinding)', async () => {
    const reply = await raw('/', { headers: { host: `evil.example:${web.port}` } });
    expect(reply.status).toBe(403);
    expect((await raw('/', { headers: { host: `localhost:${web.port}` } })).status).toBe(200);
  });
});

describe('who may open the WebSocket', () => {
  const wsUrl = (query: string) => `ws://127.0.0.1:${web.port}/ws${query}`;

  it('accepts the page origin with the token, and a non-browser client (no Origin) with the token', async () => {
    expect(
      await handshakeStatus(wsUrl(`?token=${web.token}`), { origin: `http://127.0.0.1:${web.port}` }),
    ).toBe(101);
    expect(
      await handshakeStatus(wsUrl(`?token=${web.token}`), { origin: `http://localhost:${web.port}` }),
    ).toBe(101);
    expect(await handshakeStatus(wsUrl(`?token=${web.token}`))).toBe(101);
  });

  it('refuses without the token even with no Origin, a foreign Host, and other paths', async () => {
    expect(await handshakeStatus(wsUrl(''))).toBe(401);
    expect(await handshakeStatus(wsUrl(`?token=${web.token}`), { host: 'evil.example' })).toBe(403);
    expect(await handshakeStatus(`ws://127.0.0.1:${web.port}/other?token=${web.token}`)).toBe(400);
    expect((await raw(`/ws?token=${web.token}`)).status).toBe(426);
  });

  it('closes a socket that sends a message above the cap (1009), and the app client refuses to send one', async () => {
    const code = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(wsUrl(`?token=${web.token}`));
      ws.on('open', () => ws.send('x'.repeat(MAX_MESSAGE_BYTES + 1)));
      ws.on('close', (c) => resolve(c));
      ws.on('error', () => undefined);
      setTimeout(() => reject(new Error('no close')), 30_000).unref();
    });
    expect(code).toBe(1009);
    const transport = clientTransport();
    const error = await transport.api['settings.setApiKey']({ apiKey: 'k'.repeat(MAX_MESSAGE_BYTES) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ContractError);
    expect((error as ContractError).message).toMatch(/too large .*at most 5 MB/);
    transport.close();
  });
});

describe('uploads and downloads', () => {
  const upload = (headers: Record<string, string>, body: Buffer) =>
    raw('/upload', {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', ...headers },
      body,
    });

  it('takes an upload with the token and hands it to pickImport once', async () => {
    const bytes = Buffer.from('PK\u0003\u0004 pretend zip');
    const reply = await upload(
      { 'x-mnemo-token': web.token, 'x-file-name': encodeURIComponent('../my memories.zip') },
      bytes,
    );
    expect(reply.status).toBe(200);
    const { uploadId } = JSON.parse(reply.body.toString()) as { uploadId: string };
    const picked = await host.pickImport({ uploadId });
    expect(picked).toEqual({ kind: 'zip', name: 'my memories.zip', data: new Uint8Array(bytes) });
    const again = await host.pickImport({ uploadId }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ContractError);
    expect((again as ContractError).code).toBe('not_found');
    expect(await host.pickImport({})).toBeNull();
  });

  it('refuses an upload without the token, from a foreign Origin, or above the size cap', async () => {
    const small = Buffer.from('x');
    expect((await upload({}, small)).status).toBe(401);
    expect((await upload({ 'x-mnemo-token': 'wrong' }, small)).status).toBe(401);
    expect((await upload({ 'x-mnemo-token': web.token, origin: 'http://evil.example' }, small)).status).toBe(
      403,
    );
    const big = await upload({ 'x-mnemo-token': web.token }, Buffer.alloc(64 * 1024 + 1));
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body.toString())).toMatchObject({
      error: { message: expect.stringMatching(/too large/) },
    });
    expect((await raw('/upload')).status).toBe(405);
  });

  it('serves an export once through its download URL', async () => {
    const saved = await host.saveFile({
      defaultName: 'memories.zip',
      mime: 'application/zip',
      data: new Uint8Array([1, 2, 3]),
    });
    expect(saved).toMatchObject({ saved: true, fileName: 'memories.zip' });
    const first = await raw(saved.downloadUrl!);
    expect(first.status).toBe(200);
    expect([...first.body]).toEqual([1, 2, 3]);
    expect(first.headers['content-type']).toBe('application/zip');
    expect(first.headers['content-disposition']).toMatch(/^attachment; filename="memories.zip"/);
    expect((await raw(saved.downloadUrl!)).status).toBe(404);
    expect((await raw('/download/not-a-real-id')).status).toBe(404);
  });
});

function clientTransport(onReconnect?: () => void) {
  const transport = createWsTransport({
    url: `ws://127.0.0.1:${web.port}/ws?token=${web.token}`,
    createSocket: (url) =>
      new WebSocket(url, { origin: `http://127.0.0.1:${web.port}` }) as unknown as WebSocketLike,
    initialDelayMs: 20,
    maxDelayMs: 200,
  });
  if (onReconnect) transport.onReconnect(onReconnect);
  return transport;
}

describe("the renderer's WebSocket client", () => {
  it('fails calls in flight when the server goes away, reconnects when it is back, and says ready again', async () => {
    let reconnects = 0;
    const statuses: string[] = [];
    const transport = clientTransport(() => reconnects++);
    transport.onStatus((s) => statuses.push(s));
    const seen: string[] = [];
    transport.api.on('app.notice', (n) => seen.push(n.message));
    await transport.api['app.ready']({});
    backend.core.bus.emit('app.notice', { level: 'info', message: 'before' });
    await until(() => seen.length === 1, 'the first event');

    const inFlight = transport.api['conversations.list']({}).catch((e: unknown) => e);
    await until(() => releaseList !== undefined, 'the call to reach the server');
    const { port, token } = web;
    await web.close();
    const error = await inFlight;
    expect(error).toBeInstanceOf(ContractError);
    expect((error as ContractError).code).toBe('unavailable');
    expect((error as ContractError).message).toMatch(/connection to Mnemo was lost/);
    const whileDown = await transport.api['settings.get']({}).catch((e: unknown) => e);
    expect((whileDown as ContractError).code).toBe('unavailable');

    web = await startWebServer({
      handlers,
      bus: backend.core.bus,
      rendererDir,
      logger: backend.core.log,
      host,
      port,
      token,
    });
    await until(() => reconnects === 1, 'the reconnect');
    expect(statuses).toContain('reconnecting');
    expect(transport.status).toBe('open');
    // No second app.ready from the app: the client said it again by itself.
    backend.core.bus.emit('app.notice', { level: 'info', message: 'after' });
    await until(() => seen.length === 2, 'an event after the reconnect');
    expect(seen).toEqual(['before', 'after']);
    expect((await transport.api['settings.get']({})).settings).toBeDefined();

    transport.close();
    expect(transport.status).toBe('closed');
    const afterClose = await transport.api['settings.get']({}).catch((e: unknown) => e);
    expect((afterClose as ContractError).code).toBe('unavailable');
  });

  it('gives up waiting calls with a clear message when the first connection is refused', async () => {
    const transport = createWsTransport({
      url: `ws://127.0.0.1:${web.port}/ws?token=wrong`,
      createSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
      initialDelayMs: 1_000,
    });
    const error = await transport.api['settings.get']({}).catch((e: unknown) => e);
    transport.close();
    expect(error).toBeInstanceOf(ContractError);
    expect((error as ContractError).message).toMatch(/Could not connect to Mnemo/);
  });
});
