import type { Handlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import type { CoreContext } from '../context.js';

type Domain = Pick<
  Handlers,
  | 'memory.list'
  | 'memory.read'
  | 'memory.write'
  | 'memory.create'
  | 'memory.rename'
  | 'memory.delete'
  | 'memory.forgetFact'
  | 'memory.revert'
  | 'memory.history'
  | 'memory.diff'
  | 'memory.deleted'
  | 'memory.restore'
  | 'memory.forget'
  | 'memory.search'
  | 'memory.stale'
  | 'memory.export'
  | 'memory.importPreview'
  | 'memory.importApply'
>;

// Placeholder until this domain lands: every channel answers 'unavailable'.
const notYet = (): Promise<never> => Promise.reject(new ContractError('unavailable', 'Not available yet.'));

export function createMemoryHandlers(_ctx: CoreContext): Domain {
  return {
    'memory.list': notYet,
    'memory.read': notYet,
    'memory.write': notYet,
    'memory.create': notYet,
    'memory.rename': notYet,
    'memory.delete': notYet,
    'memory.forgetFact': notYet,
    'memory.revert': notYet,
    'memory.history': notYet,
    'memory.diff': notYet,
    'memory.deleted': notYet,
    'memory.restore': notYet,
    'memory.forget': notYet,
    'memory.search': notYet,
    'memory.stale': notYet,
    'memory.export': notYet,
    'memory.importPreview': notYet,
    'memory.importApply': notYet,
  };
}
