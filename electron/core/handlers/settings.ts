import type { Handlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import type { CoreContext } from '../context.js';

type Domain = Pick<Handlers, 'settings.get' | 'settings.set' | 'settings.setApiKey' | 'settings.reset'>;

// Placeholder until this domain lands: every channel answers 'unavailable'.
const notYet = (): Promise<never> => Promise.reject(new ContractError('unavailable', 'Not available yet.'));

export function createSettingsHandlers(_ctx: CoreContext): Domain {
  return {
    'settings.get': notYet,
    'settings.set': notYet,
    'settings.setApiKey': notYet,
    'settings.reset': notYet,
  };
}
