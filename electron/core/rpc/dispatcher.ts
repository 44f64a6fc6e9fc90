// The one entry point every transport goes through: sender check, channel check, payload parse, handler,
// result parse, error mapping. No handler ever sees an unchecked sender or an unparsed payload.
import {
  invoke,
  isInvokeName,
  isSpaceFree,
  type CallContext,
  type Handlers,
  type InvokeName,
} from '../../../shared/contract.js';
import { PERSONAL_SPACE_ID, spaceId } from '../../../shared/channels/spaces.js';
import type { Outcome } from '../../../shared/wire.js';
import type { RpcLogger as Logger } from './logger.js';
import { invalidRequest, toErrorData } from './errors.js';

/** A handler the transport layer answers itself (e.g. `app.ready`), after the same checks. */
export type Override = (req: unknown, ctx: CallContext) => Promise<unknown>;

/**
 * Where a call naming a space is answered (core.spaces fits it): that space's own handler table, or a
 * refusal for a space that does not exist (any more). Never another space's table.
 */
export interface SpaceRouter {
  route(id: string): Promise<{ handlers: Handlers }>;
}

export interface DispatcherOptions {
  /** Personal's table: calls naming no space, and the space-free channels (app.*, spaces.*). */
  handlers: Handlers;
  /** Without it, a call may name only Personal. */
  spaces?: SpaceRouter | undefined;
  log: Logger;
}

export interface Call<S> {
  sender: S;
  /** Supplied by the transport: is this sender one of the app's own windows/clients? */
  isAllowed: (sender: S) => boolean;
  channel: unknown;
  payload: unknown;
  /** The space the envelope names (shared/contract.ts, "Spaces on the wire"); undefined: Personal. */
  space?: unknown;
  ctx: CallContext;
  overrides?: Partial<Record<InvokeName, Override>>;
}

export type Dispatch = <S>(call: Call<S>) => Promise<Outcome>;

/** The table a call runs in, or the refusal to send instead. */
async function tableFor(
  channel: InvokeName,
  space: unknown,
  options: DispatcherOptions,
): Promise<{ ok: true; handlers: Handlers; space?: string } | { ok: false; outcome: Outcome }> {
  if (space === undefined || isSpaceFree(channel)) return { ok: true, handlers: options.handlers };
  if (!spaceId.safeParse(space).success) {
    return {
      ok: false,
      outcome: { ok: false, error: { code: 'invalid_request', message: 'The call names no valid space.' } },
    };
  }
  const id = space as string;
  if (id === PERSONAL_SPACE_ID) return { ok: true, handlers: options.handlers, space: id };
  if (!options.spaces) {
    return {
      ok: false,
      outcome: {
        ok: false,
        error: { code: 'not_found', message: 'That space does not exist.', details: { spaceGone: id } },
      },
    };
  }
  try {
    return { ok: true, handlers: (await options.spaces.route(id)).handlers, space: id };
  } catch (error) {
    return { ok: false, outcome: { ok: false, error: toErrorData(error, options.log, channel) } };
  }
}

export function createDispatcher(options: DispatcherOptions): Dispatch {
  const { log } = options;
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
    // The space is settled before the payload is looked at: a handler only ever runs in the table of
    // the space the call named.
    const table = await tableFor(channel, call.space, options);
    if (!table.ok) return table.outcome;
    const spec = invoke[channel];
    const parsed = spec.req.safeParse(call.payload);
    if (!parsed.success) return { ok: false, error: invalidRequest(channel, parsed.error) };

    let value: unknown;
    try {
      const handler = call.overrides?.[channel] ?? (table.handlers[channel] as Override);
      const ctx = table.space === undefined ? call.ctx : { ...call.ctx, space: table.space };
      value = await handler(parsed.data, ctx);
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
