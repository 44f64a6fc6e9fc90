// The errors the conversation store gives a person (never a path), and how a failed body read is told apart.
import { ContractError } from '../../../shared/errors.js';
import { BUSY_MESSAGE } from './lock.js';

export const busy = (): ContractError =>
  new ContractError('unavailable', `${BUSY_MESSAGE}: wait for that answer to finish, then try again.`);

export const notFound = (): ContractError =>
  new ContractError('not_found', 'That conversation does not exist (it may have been deleted).');

/** A body read that failed: a missing file is a conversation gone (undefined), anything else is thrown. */
export function gone(error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  throw error;
}
