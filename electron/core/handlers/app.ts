import type { Handlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import type { CoreContext } from '../context.js';

type Domain = Pick<Handlers, 'app.info' | 'app.openExternal' | 'app.openDataFolder' | 'app.ready'>;

// Placeholder until this domain lands: every channel answers 'unavailable'.
const notYet = (): Promise<never> => Promise.reject(new ContractError('unavailable', 'Not available yet.'));

export function createAppHandlers(_ctx: CoreContext): Domain {
  return {
    'app.info': notYet,
    'app.openExternal': notYet,
    'app.openDataFolder': notYet,
    'app.ready': notYet,
  };
}
