// The one place the renderer gets its backend from. Picks the transport:
// - Electron: the preload's `window.mnemo` (named functions only, see electron/preload.cts);
// - browser mode: a WebSocket to the page's own server, with the token from the page URL (?token=... or
//   #token=...), reconnecting after a drop;
// - tests: whatever `setApi` injected (e.g. electron/core/transports/memory-pair.ts).
// Components never call this directly: the stores do (house style).
//
// Every call names the window's current space (renderer/transport/current-space.ts) in its envelope:
// getApi() is the transport's Api bound to it (shared/contract.ts, "Spaces on the wire"). A test's
// hand-made Api that cannot carry a space is used as it is (it stands in for one backend).
import type { Api } from '../shared/contract.js';
import { ContractError } from '../shared/errors.js';
import type { BridgeApi } from '../shared/wire.js';
import { canNameSpace, spaceBound } from '../shared/transport/api-proxy.js';
import { apiFromBridge } from '../shared/transport/bridge-client.js';
import {
  createWsTransport,
  tokenFromLocation,
  webSocketUrl,
  type ConnectionStatus,
  type WebSocketLike,
  type WsTransport,
} from '../shared/transport/ws-client.js';
import { currentSpaceId } from './transport/current-space.js';
import { uploadFile } from './transport/upload.js';

export type { ConnectionStatus };
export { tokenFromLocation, webSocketUrl };

declare global {
  interface Window {
    mnemo?: BridgeApi;
  }
}

let current: Api | null = null;
/** The transport itself (calls name no space): what getApi and getApiIn bind. */
let transport: Api | null = null;
let ws: WsTransport | null = null;
const reconnectListeners = new Set<() => void>();
const statusListeners = new Set<(status: ConnectionStatus) => void>();

function pickTransport(): Api {
  if (typeof window !== 'undefined' && window.mnemo) return apiFromBridge(window.mnemo);
  const token = typeof location !== 'undefined' ? tokenFromLocation(location) : null;
  if (!token) {
    throw new ContractError(
      'forbidden',
      'This page has no access token. Open the address that `npm run web` printed (it ends in ?token=…).',
    );
  }
  ws = createWsTransport({
    url: webSocketUrl(location, token),
    createSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
    onProblem: (message, error) => console.warn(message, error),
  });
  ws.onReconnect(() => {
    for (const listener of [...reconnectListeners]) listener();
  });
  ws.onStatus((status) => {
    for (const listener of [...statusListeners]) listener(status);
  });
  return ws.api;
}

export function getApi(): Api {
  current ??= inCurrentSpace((transport ??= pickTransport()));
  return current;
}

const spaceGoneListeners = new Set<(space: string) => void>();

/**
 * The same transport with every call naming `space`, for the few calls a window makes in a space other
 * than its own: opening the space the switcher has highlighted ahead of the click, "Export first" of a
 * space being deleted. A test's hand-made Api that cannot name a space is used as it is.
 */
export function getApiIn(space: string): Api {
  getApi();
  const api = transport!;
  return canNameSpace(api) ? spaceBound(api, () => space) : api;
}

function inCurrentSpace(api: Api): Api {
  return canNameSpace(api)
    ? spaceBound(api, currentSpaceId, (space) => {
        for (const listener of [...spaceGoneListeners]) listener(space);
      })
    : api;
}

/** A call was refused because the window's space is gone (deleted by another window or process). */
export function onSpaceGone(listener: (space: string) => void): () => void {
  spaceGoneListeners.add(listener);
  return () => spaceGoneListeners.delete(listener);
}

/** For tests: use this Api (null: pick again on the next getApi). */
export function setApi(api: Api | null): void {
  ws?.close();
  ws = null;
  transport = api;
  current = api && inCurrentSpace(api);
}

/**
 * After the WebSocket reconnects (browser mode only; an Electron window does not lose its IPC): the
 * server has already been told `ready` again; re-attach to runs here (chat.attach with the last seq seen).
 */
export function onReconnect(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

/** Connection status changes (browser mode only): for a "Reconnecting…" banner. */
export function onConnectionStatus(listener: (status: ConnectionStatus) => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

/** Browser mode: uploads a file for memory.importPreview and returns its upload id. */
export function uploadForImport(file: Blob, fileName: string): Promise<string> {
  const token = tokenFromLocation(location);
  if (!token) throw new ContractError('forbidden', 'This page has no access token.');
  return uploadFile(file, fileName, token, location.href);
}

/** Browser mode: starts the download of an export (the URL is one-time). */
export function startDownload(downloadUrl: string): void {
  const link = document.createElement('a');
  link.href = downloadUrl;
  link.rel = 'noopener';
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}
