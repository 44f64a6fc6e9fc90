// The client end of the message-based transports (WebSocket, in-memory pair): builds the renderer's `Api`
// (shared/transport/api-proxy.ts: any channel name, checked by the server) over any text channel. The transport tells it when
// the channel is up or down and hands it every message received. No Node and no DOM here.
//
// Calls made before the first connection wait for it; calls made while a connection is down fail at once
// (the UI shows that it is reconnecting); calls in flight when the connection drops fail with
// `unavailable`.
import type { Api, EventMeta, EventName, InvokeName } from '../contract.js';
import { ContractError } from '../errors.js';
import { decodeServerMessage, encodeMessage, WireSizeError, type ClientMessage } from '../wire.js';
import { apiProxy } from './api-proxy.js';

export interface RpcClient {
  readonly api: Api;
  /** The channel is up: `send` carries text to the server. Calls waiting for a connection are sent now. */
  connected(send: (text: string) => void): void;
  /** The channel is down (or the first connection failed): calls in flight or waiting fail with `error`. */
  disconnected(error: ContractError): void;
  /** One text message from the server. */
  receive(text: string): void;
  /** True once the app has called `app.ready` (a transport repeats it after reconnecting). */
  readonly readySent: boolean;
  /** A problem the client cannot hand to a caller (a malformed server message, a throwing listener). */
  onProblem?: (message: string, error?: unknown) => void;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Listener = (payload: unknown, meta: EventMeta) => void;

export function createRpcClient(): RpcClient {
  let send: ((text: string) => void) | null = null;
  // 'initial': never connected yet, calls wait; 'up': calls go out; 'down': calls fail at once.
  let state: 'initial' | 'up' | 'down' = 'initial';
  let readySent = false;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const waiting: Array<{ message: ClientMessage; call: Pending }> = [];
  const listeners = new Map<string, Set<Listener>>();

  const transmit = (message: ClientMessage, call: Pending): void => {
    let text: string;
    try {
      text = encodeMessage(message);
    } catch (error) {
      if (error instanceof WireSizeError) call.reject(new ContractError('invalid_request', error.message));
      else call.reject(error);
      return;
    }
    if (message.t === 'invoke') pending.set(message.id, call);
    try {
      send!(text);
    } catch {
      if (message.t === 'invoke') pending.delete(message.id);
      call.reject(
        new ContractError('unavailable', 'Could not send the request: the connection to Mnemo is down.'),
      );
    }
  };

  const call = (channel: InvokeName, payload: unknown, space?: string): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const message: ClientMessage = { t: 'invoke', id: nextId++, channel, payload };
      if (space !== undefined) message.space = space;
      if (channel === 'app.ready') readySent = true;
      if (state === 'up') transmit(message, { resolve, reject });
      else if (state === 'initial') waiting.push({ message, call: { resolve, reject } });
      else reject(new ContractError('unavailable', 'Not connected to Mnemo right now; reconnecting…'));
    });

  const on = (name: EventName, listener: Listener): (() => void) => {
    if (typeof listener !== 'function') throw new TypeError('The listener must be a function.');
    let set = listeners.get(name);
    if (!set) listeners.set(name, (set = new Set()));
    // Wrapped so that subscribing the same function twice gives two independent subscriptions.
    const entry: Listener = (payload, meta) => listener(payload, meta);
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  };

  const api = apiProxy(
    (channel, payload, space) => call(channel as InvokeName, payload, space),
    on as Api['on'],
  );

  const client: RpcClient = {
    api,
    get readySent() {
      return readySent;
    },
    connected(sender) {
      send = sender;
      state = 'up';
      for (const { message, call: waitingCall } of waiting.splice(0)) transmit(message, waitingCall);
    },
    disconnected(error) {
      send = null;
      state = 'down';
      for (const call of pending.values()) call.reject(error);
      pending.clear();
      for (const { call } of waiting.splice(0)) call.reject(error);
    },
    receive(text) {
      const decoded = decodeServerMessage(text);
      if (!decoded.ok) {
        client.onProblem?.(`Ignored a malformed message from Mnemo: ${decoded.reason}`);
        return;
      }
      const message = decoded.message;
      if (message.t === 'result') {
        const call = pending.get(message.id);
        if (!call) return;
        pending.delete(message.id);
        if (message.ok) call.resolve(message.value);
        else call.reject(new ContractError(message.error.code, message.error.message, message.error.details));
        return;
      }
      // Only listeners of that name hear it (the server sends the contract's events only).
      const meta: EventMeta = message.space === undefined ? {} : { space: message.space };
      for (const listener of [...(listeners.get(message.name) ?? [])]) {
        try {
          listener(message.payload, meta);
        } catch (error) {
          client.onProblem?.(`An event listener for ${message.name} failed.`, error);
        }
      }
    },
  };
  return client;
}
