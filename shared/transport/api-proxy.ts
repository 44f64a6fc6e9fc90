// The renderer's `Api` over one generic call: `api['chat.send'](req)` is `call('chat.send', req)`. The
// functions are derived from the contract's table (no list of names is kept here); the main side's
// dispatcher checks every call again, since a page's word is not to be trusted.
import { type Api, isEventName, isInvokeName } from '../contract.js';

export function apiProxy(call: (channel: string, payload: unknown) => Promise<unknown>, on: Api['on']): Api {
  const functions = new Map<string, (payload: unknown) => Promise<unknown>>();
  const checkedOn = ((name: unknown, listener: unknown) => {
    if (!isEventName(name)) throw new TypeError(`There is no event named "${String(name)}".`);
    return (on as (n: unknown, l: unknown) => () => void)(name, listener);
  }) as Api['on'];
  // Properties set on the object (`on`, a transport's own extras such as `close`) come first.
  return new Proxy({ on: checkedOn } as Record<string | symbol, unknown>, {
    get(target, name) {
      if (Reflect.has(target, name)) return Reflect.get(target, name);
      if (!isInvokeName(name)) return undefined;
      let fn = functions.get(name);
      if (!fn) functions.set(name, (fn = (payload: unknown) => call(name, payload)));
      return fn;
    },
    has: (target, name) => Reflect.has(target, name) || isInvokeName(name),
  }) as unknown as Api;
}
