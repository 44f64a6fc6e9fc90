// The Electron transport, renderer side: wraps the preload's `window.mnemo` (a generic invoke, whose answers
// are Outcomes because contextBridge drops the fields of thrown errors, and `on`) into the `Api` the app
// uses.
import type { Api, EventMeta } from '../contract.js';
import { ContractError } from '../errors.js';
import { outcomeSchema, type BridgeApi } from '../wire.js';
import { apiProxy } from './api-proxy.js';

export function apiFromBridge(bridge: BridgeApi): Api {
  const call = async (channel: string, payload: unknown, space?: string): Promise<unknown> => {
    let answer: unknown;
    try {
      answer = await (space === undefined
        ? bridge.invoke(channel, payload)
        : bridge.invoke(channel, payload, space));
    } catch {
      // Electron's own rejection ("Error invoking remote method ...") says nothing a person can act on.
      throw new ContractError(
        'unavailable',
        'Mnemo did not answer. If this keeps happening, restart the app.',
      );
    }
    const outcome = outcomeSchema.safeParse(answer);
    if (!outcome.success)
      throw new ContractError('internal', 'Mnemo sent an answer this window cannot read.');
    if (outcome.data.ok) return outcome.data.value;
    const { code, message, details } = outcome.data.error;
    throw new ContractError(code, message, details);
  };
  const on = ((name: string, listener: (payload: unknown, meta: EventMeta) => void) =>
    (bridge.on as (n: string, l: (p: unknown, m: EventMeta) => void) => () => void)(
      name,
      listener,
    )) as Api['on'];
  return apiProxy(call, on);
}
