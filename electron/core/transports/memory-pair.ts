// The in-memory transport: a real client (shared/transport/rpc-client.ts) and a real server connection joined by
// asynchronous text delivery, for renderer tests (jsdom) and integration tests. Every message goes through
// the same JSON codec as the WebSocket, so payloads that would not survive the wire fail here too, and
// nothing is shared by reference between the two sides.
import type { Api } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import { createRpcClient } from '../../../shared/transport/rpc-client.js';
import type { RpcServer } from '../rpc/server.js';
import { openWireConnection } from './wire-connection.js';

/** The sender id of the app's own client; any other id is a foreign sender and is refused. */
export const MEMORY_APP_SENDER = 'app';

export interface MemoryPairOptions {
  /** Who this client claims to be (default: the app). */
  sender?: string;
  /** The server's check (default: only MEMORY_APP_SENDER). */
  isAllowed?: (sender: string) => boolean;
}

export type MemoryClient = Api & {
  /** Drops the connection, as a closed window would: calls in flight fail, the server session ends. */
  close(): void;
  readonly clientId: string;
};

export function createMemoryPair(server: RpcServer, options: MemoryPairOptions = {}): MemoryClient {
  const sender = options.sender ?? MEMORY_APP_SENDER;
  const client = createRpcClient();
  let open = true;
  // Messages are delivered in later microtasks, in order, like a real boundary (never synchronously).
  const later = (fn: () => void): void => {
    queueMicrotask(() => {
      if (open) fn();
    });
  };
  const connection = openWireConnection(server, {
    kind: 'memory',
    sender,
    isAllowed: options.isAllowed ?? ((s: string) => s === MEMORY_APP_SENDER),
    send: (text) => later(() => client.receive(text)),
  });
  client.connected((text) => later(() => connection.receive(text)));

  const api = client.api as MemoryClient;
  Object.defineProperties(api, {
    close: {
      enumerable: false,
      value: () => {
        if (!open) return;
        open = false;
        connection.close();
        client.disconnected(new ContractError('unavailable', 'The connection to Mnemo was closed.'));
      },
    },
    clientId: { enumerable: false, value: connection.clientId },
  });
  return api;
}
