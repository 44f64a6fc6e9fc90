// Moving things between spaces: "Copy to space…" / "Move to space…" of a memory file, "Move to space…" of
// a conversation. The only handlers that reach a second space, and only the one the request names (`to`):
// the source is always this table's own space.
import type { Handlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import type { CoreContext } from '../context.js';

export const TRANSFER_CHANNELS = [
  'memory.copyToSpace',
  'memory.moveToSpace',
  'conversations.moveToSpace',
] as const;
export type TransferChannel = (typeof TRANSFER_CHANNELS)[number];
type Domain = Pick<Handlers, TransferChannel>;

export function createTransferHandlers(ctx: CoreContext): Domain {
  void ctx;
  const notYet = (): Promise<never> =>
    Promise.reject(new ContractError('unavailable', 'Moving between spaces is not available yet.'));
  return {
    'memory.copyToSpace': notYet,
    'memory.moveToSpace': notYet,
    'conversations.moveToSpace': notYet,
  };
}
