// sync.*: a space's git remote (issue 16). Each call works in the space its envelope routed it to (this
// table's ctx.space); the work is the SyncService's (ctx.sync), reached through an interface.
import type { DomainHandlers } from '../../../shared/contract.js';
import { PERSONAL_SPACE_ID } from '../../../shared/channels/spaces.js';
import { ContractError } from '../../../shared/errors.js';
import { confirmNatively } from '../confirm.js';
import type { CoreContext, SyncLink } from '../context.js';

type Domain = DomainHandlers<'sync'>;

export function createSyncHandlers(ctx: CoreContext): Domain {
  const spaceId = ctx.space?.id ?? PERSONAL_SPACE_ID;
  const sync = (): SyncLink => {
    if (!ctx.sync) throw new ContractError('unavailable', 'Sync is not available here.');
    return ctx.sync;
  };
  return {
    'sync.status': async () => sync().view(spaceId),
    'sync.configure': async (req) => sync().configure(spaceId, req),
    'sync.disconnect': async () => {
      await confirmNatively(ctx.host, 'sync.disconnect');
      return sync().disconnect(spaceId);
    },
    'sync.syncNow': async () => sync().syncNow(spaceId),
    'sync.resolveRewritten': async (req) => {
      await confirmNatively(ctx.host, 'sync.resolveRewritten');
      return sync().resolveRewritten(spaceId, req);
    },
    'sync.rewriteHistory': async () => {
      await confirmNatively(ctx.host, 'sync.rewriteHistory');
      return sync().rewriteHistory(spaceId);
    },
    'sync.setCheckInterval': async (req) => sync().setCheckInterval(spaceId, req.seconds),
    'sync.conflicts': async () => sync().conflicts(spaceId),
    'sync.conflict': async (req) => sync().conflict(spaceId, req.id),
    'sync.resolve': async (req) => sync().resolve(spaceId, req),
  };
}
