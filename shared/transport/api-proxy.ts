// The renderer's `Api` over one generic call: `api['chat.send'](req)` is `call('chat.send', req)`. The
// functions are derived from the contract's table (no list of names is kept here); the main side's
// dispatcher checks every call again, since a page's word is not to be trusted.
//
// The space a call runs in travels in the envelope, not the payload (shared/contract.ts, "Spaces on the
// wire"): `spaceBound(api, () => id)` is the same Api with every call naming that space.
import { spaceGoneOf } from '../channels/spaces.js';
import { type Api, isEventName, isInvokeName } from '../contract.js';
import { ContractError } from '../errors.js';

export type GenericCall = (channel: string, payload: unknown, space?: string) => Promise<unknown>;

/** The generic call behind each Api made here: how spaceBound names the space without a second transport. */
const calls = new WeakMap<object, GenericCall>();

export function apiProxy(call: GenericCall, on: Api['on']): Api {
  const functions = new Map<string, (payload: unknown) => Promise<unknown>>();
  const checkedOn = ((name: unknown, listener: unknown) => {
    if (!isEventName(name)) throw new TypeError(`There is no event named "${String(name)}".`);
    return (on as (n: unknown, l: unknown) => () => void)(name, listener);
  }) as Api['on'];
  // Properties set on the object (`on`, a transport's own extras such as `close`) come first.
  const api = new Proxy({ on: checkedOn } as Record<string | symbol, unknown>, {
    get(target, name) {
      if (Reflect.has(target, name)) return Reflect.get(target, name);
      if (!isInvokeName(name)) return undefined;
      let fn = functions.get(name);
      if (!fn) functions.set(name, (fn = (payload: unknown) => call(name, payload)));
      return fn;
    },
    has: (target, name) => Reflect.has(target, name) || isInvokeName(name),
  }) as unknown as Api;
  calls.set(api, call);
  return api;
}

/** Can this Api name a space (was it made by one of our transports)? */
export function canNameSpace(api: Api): boolean {
  return calls.has(api);
}

/**
 * The same Api, every call made in the space `space()` names at the time of the call (so a window that
 * switches space needs no new Api). Events are not filtered here: a listener gets `meta.space` and the
 * renderer's bridge decides.
 */
export function spaceBound(
  api: Api,
  space: () => string,
  /** A call was refused because the space it named does not exist (any more). */
  onSpaceGone?: (space: string) => void,
): Api {
  const call = calls.get(api);
  if (!call) {
    throw new TypeError('This Api cannot name a space: it was not made by a Mnemo transport.');
  }
  return apiProxy(async (channel, payload) => {
    const named = space();
    try {
      return await call(channel, payload, named);
    } catch (error) {
      if (error instanceof ContractError && spaceGoneOf(error.details) === named) onSpaceGone?.(named);
      throw error;
    }
  }, api.on);
}
