// The Electron transport, renderer side: wraps the preload's `window.mnemo` (whose functions resolve to
// Outcomes, because contextBridge drops the fields of thrown errors) into the `Api` the app uses.
import { invokeChannelNames } from '../channel-names.js';
import type { Api } from '../contract.js';
import { ContractError } from '../errors.js';
import type { BridgeApi, Outcome } from '../wire.js';

export function apiFromBridge(bridge: BridgeApi): Api {
  const api: Record<string, unknown> = {
    on: (name: string, listener: (payload: unknown) => void) =>
      (bridge.on as (n: string, l: (p: unknown) => void) => () => void)(name, listener),
  };
  for (const name of invokeChannelNames) {
    const call = bridge[name] as (req: unknown) => Promise<Outcome>;
    api[name] = async (req: unknown) => {
      const outcome = await call(req);
      if (outcome.ok) return outcome.value;
      throw new ContractError(outcome.error.code, outcome.error.message, outcome.error.details);
    };
  }
  return api as unknown as Api;
}
