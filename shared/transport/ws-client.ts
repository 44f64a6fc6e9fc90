// Browser mode's transport: the contract over one WebSocket to electron/web.ts, reconnecting with backoff
// after a drop. No DOM here: the caller supplies the socket (the browser's WebSocket in renderer/api.ts,
// the `ws` package in tests and scripts). After a reconnect it says `ready` again (if the app had) and tells `onReconnect` listeners,
// so the chat store can re-attach to its runs with the last seq it saw (chat.attach).
import type { Api } from '../contract.js';
import { ContractError } from '../errors.js';
import { createRpcClient } from './rpc-client.js';
import { encodeMessage } from '../wire.js';

/** The part of the WebSocket interface we use: the browser's and the `ws` package's both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  send(text: string): void;
  close(code?: number, reason?: string): void;
}

export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface WsTransportOptions {
  url: string;
  createSocket: (url: string) => WebSocketLike;
  /** First retry delay and the cap; doubled per failed attempt, with jitter. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  onProblem?: (message: string, error?: unknown) => void;
}

export interface WsTransport {
  readonly api: Api;
  readonly status: ConnectionStatus;
  /** Called after every reconnect (not after the first connection). */
  onReconnect(listener: () => void): () => void;
  onStatus(listener: (status: ConnectionStatus) => void): () => void;
  /** Stops for good: calls in flight fail, no more reconnects. */
  close(): void;
}

const OPEN = 1;

export function createWsTransport(options: WsTransportOptions): WsTransport {
  const createSocket = options.createSocket;
  const initialDelay = options.initialDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 5_000;
  const client = createRpcClient();
  if (options.onProblem) client.onProblem = options.onProblem;
  const reconnectListeners = new Set<() => void>();
  const statusListeners = new Set<(status: ConnectionStatus) => void>();
  let status: ConnectionStatus = 'connecting';
  let attempts = 0;
  let everOpened = false;
  let stopped = false;
  let socket: WebSocketLike | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const setStatus = (next: ConnectionStatus): void => {
    if (status === next) return;
    status = next;
    for (const listener of [...statusListeners]) listener(next);
  };

  const connect = (): void => {
    const ws = createSocket(options.url);
    socket = ws;
    let opened = false;
    ws.onopen = () => {
      if (stopped || socket !== ws) return;
      opened = true;
      attempts = 0;
      const isReconnect = everOpened;
      everOpened = true;
      client.connected((text) => {
        if (ws.readyState !== OPEN) throw new Error('socket not open');
        ws.send(text);
      });
      // The server session is new: it queues events until it hears `ready` again.
      if (isReconnect && client.readySent) ws.send(encodeMessage({ t: 'ready' }));
      setStatus('open');
      if (isReconnect) {
        for (const listener of [...reconnectListeners]) {
          try {
            listener();
          } catch (error) {
            options.onProblem?.('A reconnect listener failed.', error);
          }
        }
      }
    };
    ws.onmessage = (event) => {
      if (socket !== ws) return;
      if (typeof event.data === 'string') client.receive(event.data);
    };
    ws.onerror = () => {
      // Always followed by close; nothing to do here (and no details are exposed by browsers anyway).
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      client.disconnected(
        new ContractError(
          'unavailable',
          opened
            ? 'The connection to Mnemo was lost; reconnecting. Try again in a moment.'
            : 'Could not connect to Mnemo. Is it still running? Open the address it printed (with its token).',
        ),
      );
      if (stopped) return;
      setStatus('reconnecting');
      const delay = Math.min(maxDelay, initialDelay * 2 ** attempts++);
      timer = setTimeout(connect, delay / 2 + Math.random() * (delay / 2));
    };
  };

  connect();

  return {
    api: client.api,
    get status() {
      return status;
    },
    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
    close() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      const ws = socket;
      socket = null;
      client.disconnected(new ContractError('unavailable', 'The connection to Mnemo was closed.'));
      ws?.close(1000, 'closed by the app');
      setStatus('closed');
    },
  };
}

/** The page's token: `?token=` in the query or `#token=` in the hash. */
export function tokenFromLocation(location: { search: string; hash: string }): string | null {
  const fromQuery = new URLSearchParams(location.search).get('token');
  if (fromQuery) return fromQuery;
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('token');
  return fromHash || null;
}

/** ws://host/ws?token=... for the page's own server. */
export function webSocketUrl(location: { protocol: string; host: string }, token: string): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws?token=${encodeURIComponent(token)}`;
}
