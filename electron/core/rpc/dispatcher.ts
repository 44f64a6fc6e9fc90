// The one entry point every transport goes through: sender check, channel check, payload parse, handler,
// result parse, error mapping. No handler ever sees an unchecked sender or an unparsed payload.
import {
  invoke,
  isInvokeName,
  type CallContext,
  type Handlers,
  type InvokeName,
} from '../../../shared/contract.js';
import type { Outcome } from '../../../shared/wire.js';
import type { RpcLogger as Logger } from './logger.js';
import { invalidRequest, toErrorData } from './errors.js';

/** A handler the transport layer answers itself (e.g. `app.ready`), after the same checks. */
export type Override = (req: unknown, ctx: CallContext) => Promise<unknown>;

export interface DispatcherOptions {
  handlers: Handlers;
  log: Logger;
}

export interface Call<S> {
  sender: S;
  /** Supplied by the transport: is this sender one of the app's own windows/clients? */
  isAllowed: (sender: S) => boolean;
  channel: unknown;
  payload: unknown;
  ctx: CallContext;
  overrides?: Partial<Record<InvokeName, Override>>;
}

export type Dispatch = <S>(call: Call<S>) => Promise<Outcome>;

export function createDispatcher({ handlers, log }: DispatcherOptions): Dispatch {
  return async function dispatch<S>(call: Call<S>): Promise<Outcome> {
    let allowed = false;
    try {
      allowed = call.isAllowed(call.sender);
    } catch (error) {
      log.warn('sender check failed', { error: String(error) });
    }
    if (!allowed) {
      log.warn('refused a call from a foreign sender', { channel: String(call.channel).slice(0, 200) });
      return {
        ok: false,
        error: { code: 'forbidden', message: 'This client is not allowed to talk to Mnemo.' },
      };
    }
    if (!isInvokeName(call.channel)) {
      const shown = typeof call.channel === 'string' ? call.channel.slice(0, 100) : typeof call.channel;
      return {
        ok: false,
        error: { code: 'unknown_channel', message: `There is no channel named "${shown}".` },
      };
    }
    const channel = call.channel;
    const spec = invoke[channel];
    const parsed = spec.req.safeParse(call.payload);
    if (!parsed.success) return { ok: false, error: invalidRequest(channel, parsed.error) };

    let value: unknown;
    try {
      const handler = call.overrides?.[channel] ?? (handlers[channel] as Override);
      value = await handler(parsed.data, call.ctx);
    } catch (error) {
      return { ok: false, error: toErrorData(error, log, channel) };
    }
    // The result is parsed too: clients receive the schema's output type, and a handler that returns more
    // than its schema allows (an extra key, say) cannot leak it.
    const result = spec.res.safeParse(value);
    if (!result.success) {
      return {
        ok: false,
        error: toErrorData(
          new Error(`${channel} returned an invalid result: ${result.error.message}`),
          log,
          channel,
        ),
      };
    }
    return { ok: true, value: result.data };
  };
}
