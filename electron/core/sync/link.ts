// The SyncService as the sync.* handlers reach it (context.ts's SyncLink): the contract's shapes, the
// status and forgotten events on the space's own bus, and SyncErrors as contract errors whose message
// says what to do.
// The token goes into the service and nowhere else: no view, event or log line carries it.
import type { ReqOut } from '../../../shared/contract.js';
import type { SyncView } from '../../../shared/channels/sync.js';
import { ContractError, type ContractErrorData } from '../../../shared/errors.js';
import { isMemoryError } from '../../../memory/index.js';
import type { SyncLink } from '../context.js';
import type { SyncBackend } from './for-core.js';
import { SyncError, type SyncErrorKind } from './report.js';
import type { SyncService } from './service.js';

const CONFLICT_MARKER = /^(<{7}|={7}|>{7})( |$)/m;

const codeOf: Record<SyncErrorKind, ContractErrorData['code']> = {
  not_configured: 'invalid_request',
  auth: 'forbidden',
  offline: 'unavailable',
  rewritten: 'conflict',
  other_space: 'conflict',
  busy: 'unavailable',
  rejected: 'conflict',
  failed: 'unavailable',
};

/** A SyncError (or a memory guard's refusal) as the window gets it; anything else stays internal. */
function contractError(error: unknown): unknown {
  if (error instanceof SyncError)
    return new ContractError(codeOf[error.kind], error.message, { syncError: error.kind });
  if (isMemoryError(error)) return new ContractError('invalid_request', error.message);
  if (error instanceof Error && error.message === 'That sync conflict is resolved already.')
    return new ContractError('not_found', error.message);
  return error;
}

async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw contractError(error);
  }
}

export function syncLink(core: SyncBackend, service: SyncService): SyncLink {
  const view = async (spaceId: string): Promise<SyncView> => {
    const sync = await service.of(spaceId);
    const remote = sync.config.remote();
    return {
      remote: remote
        ? {
            url: remote.url,
            username: remote.username,
            device: remote.device,
            hasToken: sync.config.token() !== undefined,
          }
        : null,
      ...(remote ? { checkSeconds: Math.round(service.periodMs(sync) / 1000) } : {}),
      status: service.status(spaceId),
      conflicts: sync.conflicts().length,
    };
  };
  // Each space's status, to the windows showing that space (its bus tags the event with it).
  service.onStatus((spaceId) => {
    void (async () => {
      const { bus } = await core.spaces.open(spaceId);
      bus.emit('sync.status', await view(spaceId));
    })().catch(() => undefined);
  });
  // What other devices forgot, erased here by a sync: said to the windows (each sync once) and logged.
  service.onSynced((spaceId, report) => {
    if (report.forgotten.length === 0) return;
    const forgotten = report.forgotten.map(({ path, device }) => ({ path, device }));
    void (async () => {
      const { ctx, bus } = await core.spaces.open(spaceId);
      for (const f of forgotten) ctx.log.info('sync: forgotten by another device', f);
      bus.emit('sync.forgotten', { forgotten });
    })().catch(() => undefined);
  });
  return {
    'sync.status': (spaceId) => view(spaceId),
    'sync.configure': (spaceId, req) =>
      guarded(async () => {
        const sync = await service.of(spaceId);
        // No token given: the saved one stays (renaming the device, or re-joining after a disconnect
        // needs it again, since a disconnect removes it).
        const token = req.token ?? sync.config.token();
        if (!token)
          throw new SyncError(
            'not_configured',
            'Give the token: it is stored on this device only and never shown again.',
          );
        const result = await service.join(spaceId, {
          url: req.url,
          token,
          device: req.deviceName,
          ...(req.confirmOtherSpace ? { confirmOtherSpace: true } : {}),
        });
        if (!result.joined) return result;
        return { joined: true as const, view: await view(spaceId) };
      }),
    'sync.disconnect': (spaceId) =>
      guarded(async () => {
        await service.disconnect(spaceId);
        return view(spaceId);
      }),
    'sync.syncNow': (spaceId) =>
      guarded(async () => {
        const report = await service.syncNow(spaceId);
        return {
          view: await view(spaceId),
          received: report.received.length,
          sent: report.sent.length,
          conflicts: report.conflicts.length,
          refused: report.refused,
        };
      }),
    'sync.resolveRewritten': (spaceId, req) =>
      guarded(async () => {
        const report = await service.syncNow(spaceId, { resolve: req.how });
        return {
          view: await view(spaceId),
          backup: report.backup ?? null,
          received: report.received.length,
          sent: report.sent.length,
        };
      }),
    'sync.setCheckInterval': (spaceId, { seconds }) =>
      guarded(async () => {
        await service.setCheckInterval(spaceId, seconds);
        return view(spaceId);
      }),
    'sync.conflicts': (spaceId) =>
      guarded(async () => ({
        conflicts: (await service.of(spaceId))
          .conflicts()
          .map((c) => ({ id: c.id, path: c.path, device: c.device, at: c.at })),
      })),
    'sync.conflict': (spaceId, { id }) =>
      guarded(async () => {
        const d = await (await service.of(spaceId)).conflict(id);
        return {
          id: d.id,
          path: d.path,
          device: d.device,
          at: d.at,
          mine: d.mine,
          theirs: d.theirs,
          draft: d.draft,
        };
      }),
    'sync.resolve': (spaceId, req: ReqOut<'sync.resolve'>) =>
      guarded(async () => {
        // The draft's markers are a starting point only: memory is never written with them.
        if ('text' in req && CONFLICT_MARKER.test(req.text))
          throw new ContractError(
            'invalid_request',
            'The text still has conflict markers (<<<<<<<, =======, >>>>>>>): keep what you want and remove them.',
          );
        await (
          await service.of(spaceId)
        ).resolve(req.id, 'text' in req ? { text: req.text } : { keep: req.keep });
        const v = await view(spaceId);
        (await core.spaces.open(spaceId)).bus.emit('sync.status', v);
        return v;
      }),
    beforeConversation: async (spaceId) => void (await service.beforeConversation(spaceId)),
  };
}
