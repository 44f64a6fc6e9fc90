import type { Handlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import type { CoreContext } from '../context.js';

type Domain = Pick<
  Handlers,
  | 'chat.send'
  | 'chat.abort'
  | 'chat.attach'
  | 'chat.retry'
  | 'chat.regenerate'
  | 'chat.editResend'
  | 'chat.pin'
  | 'chat.review'
>;

// Placeholder until this domain lands: every channel answers 'unavailable'.
const notYet = (): Promise<never> => Promise.reject(new ContractError('unavailable', 'Not available yet.'));

export function createChatHandlers(_ctx: CoreContext): Domain {
  return {
    'chat.send': notYet,
    'chat.abort': notYet,
    'chat.attach': notYet,
    'chat.retry': notYet,
    'chat.regenerate': notYet,
    'chat.editResend': notYet,
    'chat.pin': notYet,
    'chat.review': notYet,
  };
}
