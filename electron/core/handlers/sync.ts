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
    'sync.status': async (req) => sync()['sync.status'](spaceId, req),
    'sync.configure': async (req) => sync()['sync.configure'](spaceId, req),
    'sync.disconnect': async (req) => {
      await confirmNatively(ctx.host, 'sync.disconnect');
      return sync()['sync.disconnect'](spaceId, req);
    },
    'sync.syncNow': async (req) => sync()['sync.syncNow'](spaceId, req),
    'sync.resolveRewritten': async (req) => {
      await confirmNatively(ctx.host, 'sync.resolveRewritten');
      return sync()['sync.resolveRewritten'](spaceId, req);
    },
    'sync.setCheckInterval': async (req) => sync()['sync.setCheckInterval'](spaceId, req),
    'sync.conflicts': async (req) => sync()['sync.conflicts'](spaceId, req),
    'sync.conflict': async (req) => sync()['sync.conflict'](spaceId, req),
    'sync.resolve': async (req) => sync()['sync.resolve'](spaceId, req),
  };
}
