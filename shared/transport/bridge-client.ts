// The Electron transport, renderer side: wraps the preload's `window.mnemo` (whose functions resolve to
// Outcomes, because contextBridge drops the fields of thrown errors) into the `Api` the app uses.
import { invokeChannelNames } from '../channel-names.js';
import type { Api } from '../contract.js';
import { ContractError } from '../errors.js';
import { outcomeSchema, type BridgeApi } from '../wire.js';

export function apiFromBridge(bridge: BridgeApi): Api {
  const api: Record<string, unknown> = {
    on: (name: string, listener: (payload: unknown) => void) =>
      (bridge.on as (n: string, l: (p: unknown) => void) => () => void)(name, listener),
  };
  for (const name of invokeChannelNames) {
    const call = bridge[name] as (req: unknown) => Promise<unknown>;
    api[name] = async (req: unknown) => {
      let answer: unknown;
      try {
        answer = await call(req);
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
  }
  return api as unknown as Api;
}
