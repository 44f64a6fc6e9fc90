// The server end of a message-based transport (WebSocket, in-memory pair): decodes client messages,
// dispatches invokes through an RpcSession, encodes results and events. The transport only moves text.
import {
  decodeClientMessage,
  encodeMessage,
  WireSizeError,
  type Outcome,
  type ServerMessage,
} from '../../../shared/wire.js';
import type { RpcServer, RpcSession } from '../rpc/server.js';

export interface WireConnectionOptions<S> {
  kind: string;
  sender: S;
  isAllowed: (sender: S) => boolean;
  /** Sends one text message to the client. */
  send: (text: string) => void;
}

export interface WireConnection {
  readonly clientId: string;
  readonly session: RpcSession<unknown>;
  /** Handles one text message from the client. */
  receive(text: string): void;
  close(): void;
}

export function openWireConnection<S>(server: RpcServer, options: WireConnectionOptions<S>): WireConnection {
  const { log } = server;
  let closed = false;

  const send = (message: ServerMessage): void => {
    if (closed) return;
    options.send(encodeMessage(message));
  };

  const session = server.openSession<S>({
    kind: options.kind,
    isAllowed: options.isAllowed,
    deliver: (name, payload, meta) => {
      try {
        send(
          meta.space === undefined
            ? { t: 'event', name, payload }
            : { t: 'event', name, payload, space: meta.space },
        );
      } catch (error) {
        if (!(error instanceof WireSizeError)) throw error;
        log.error('dropped an event too large to send', { name, bytes: error.bytes });
      }
    },
  });

  const reply = (id: number, outcome: Outcome): void => {
    try {
      send({ t: 'result', id, ...outcome });
    } catch (error) {
      // Too large, or not serialisable (a value JSON cannot carry): the caller still gets an answer.
      const tooLarge = error instanceof WireSizeError;
      log.error(tooLarge ? 'a result was too large to send' : 'a result could not be sent', {
        error: String(error),
      });
      try {
        send({
          t: 'result',
          id,
          ok: false,
          error: {
            code: 'internal',
            message: tooLarge
              ? `The answer is too large to send. ${error.message}`
              : 'The answer could not be sent.',
          },
        });
      } catch (sendError) {
        log.warn('could not send an error result', { error: String(sendError) });
      }
    }
  };

  return {
    clientId: session.clientId,
    session: session as RpcSession<unknown>,
    receive(text) {
      if (closed) return;
      const decoded = decodeClientMessage(text);
      if (!decoded.ok) {
        if (decoded.id !== undefined) {
          reply(decoded.id, { ok: false, error: { code: 'invalid_request', message: decoded.reason } });
        } else {
          log.warn('ignored a malformed client message', {
            clientId: session.clientId,
            reason: decoded.reason,
          });
        }
        return;
      }
      const message = decoded.message;
      if (message.t === 'ready') {
        if (!session.markReady(options.sender)) log.warn('refused ready from a foreign sender');
        return;
      }
      void session.invoke(options.sender, message.channel, message.payload, message.space).then((outcome) => {
        reply(message.id, outcome);
      });
    },
    close() {
      if (closed) return;
      closed = true;
      session.close();
    },
  };
}
