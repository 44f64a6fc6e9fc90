import type { Handlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import type { CoreContext } from '../context.js';

type Domain = Pick<Handlers, 'context.get' | 'context.compact'>;

// Placeholder until this domain lands: every channel answers 'unavailable'.
const notYet = (): Promise<never> => Promise.reject(new ContractError('unavailable', 'Not available yet.'));

export function createContextHandlers(_ctx: CoreContext): Domain {
  return {
    'context.get': notYet,
    'context.compact': notYet,
  };
}
