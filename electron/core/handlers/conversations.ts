import type { Handlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import type { CoreContext } from '../context.js';

type Domain = Pick<
  Handlers,
  | 'conversations.list'
  | 'conversations.get'
  | 'conversations.create'
  | 'conversations.rename'
  | 'conversations.delete'
  | 'conversations.search'
  | 'conversations.export'
>;

// Placeholder until this domain lands: every channel answers 'unavailable'.
const notYet = (): Promise<never> => Promise.reject(new ContractError('unavailable', 'Not available yet.'));

export function createConversationsHandlers(_ctx: CoreContext): Domain {
  return {
    'conversations.list': notYet,
    'conversations.get': notYet,
    'conversations.create': notYet,
    'conversations.rename': notYet,
    'conversations.delete': notYet,
    'conversations.search': notYet,
    'conversations.export': notYet,
  };
}
