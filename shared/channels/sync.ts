// Sync of a space through a git remote (issue 16). Every call works in the space its envelope names (see
// "Spaces on the wire" in shared/contract.ts): each space has its own remote, token and conflicts. The
// token travels renderer → main only (`sync.configure`), never back and never into a log.
import { z } from 'zod';
import { empty, id, isoTime, memoryPath } from './common.js';

export const syncErrorKind = z.enum([
  'not_configured',
  'auth',
  'offline',
  'rewritten',
  'other_space',
  'busy',
  'rejected',
  'failed',
]);

/** What the sidebar shows: synced (with its time), N changes waiting, syncing, or an error with its reason. */
export const syncStatus = z.discriminatedUnion('state', [
  z.object({ state: z.literal('off') }),
  z.object({ state: z.literal('syncing'), lastSyncAt: z.number().optional() }),
  z.object({ state: z.literal('synced'), lastSyncAt: z.number(), waiting: z.number().int().min(0) }),
  z.object({
    state: z.literal('error'),
    kind: syncErrorKind,
    message: z.string(),
    lastSyncAt: z.number().optional(),
    waiting: z.number().int().min(0),
  }),
]);
export type SyncStatusView = z.infer<typeof syncStatus>;

/** A space's sync as the window sees it: the remote (never its token: only whether one is saved). */
export const syncView = z.object({
  remote: z
    .object({ url: z.string(), username: z.string(), device: z.string(), hasToken: z.boolean() })
    .nullable(),
  /** How often this device checks the remote while the app runs (default 60); absent without a remote. */
  checkSeconds: z.number().int().min(1).optional(),
  status: syncStatus,
  conflicts: z.number().int().min(0),
});
export type SyncView = z.infer<typeof syncView>;

export const syncConflict = z.object({ id, path: memoryPath, device: z.string(), at: isoTime });
export type SyncConflictView = z.infer<typeof syncConflict>;

export const syncConflictDetail = syncConflict.extend({
  /** This device's file now (null: deleted meanwhile). */
  mine: z.string().nullable(),
  theirs: z.string(),
  /** Both versions with conflict markers: a starting point for an edit, never saved as is. */
  draft: z.string(),
});
export type SyncConflictDetail = z.infer<typeof syncConflictDetail>;

export const syncInvoke = {
  'sync.status': { req: empty, res: syncView },
  /**
   * Sets the remote and joins it (its content is pulled and merged first). No token: the saved one is kept
   * (to rename the device). A remote holding another space answers `joined: false` with what it holds;
   * the call again with `confirmOtherSpace` merges it into this one.
   */
  'sync.configure': {
    req: z
      .object({
        url: z.string().trim().min(1).max(2_000),
        token: z.string().trim().min(1).max(2_000).optional(),
        deviceName: z.string().trim().max(100),
        confirmOtherSpace: z.boolean().optional(),
      })
      .strict(),
    res: z.discriminatedUnion('joined', [
      z.object({ joined: z.literal(true), view: syncView }),
      z.object({
        joined: z.literal(false),
        otherSpace: z.object({ id: z.string(), name: z.string() }),
        memoryFiles: z.number().int().min(0),
        conversations: z.number().int().min(0),
      }),
    ]),
  },
  /** The remote and token go; the space's memory and conversations stay. */
  'sync.disconnect': { req: empty, res: syncView, destructive: true as const },
  /** Syncs now (Retry); a failure is an error whose message says what to do. */
  'sync.syncNow': {
    req: empty,
    res: z.object({
      view: syncView,
      received: z.number().int().min(0),
      sent: z.number().int().min(0),
      conflicts: z.number().int().min(0),
      refused: z.array(z.object({ path: z.string(), reason: z.string() })),
    }),
  },
  /**
   * After the remote's history was rewritten elsewhere (status error `rewritten`): push this device's copy
   * over it, or take the remote's. Each makes a backup first; `backup` says where, relative to the app's
   * data folder (null: the remote was not rewritten after all, and this was an ordinary sync).
   */
  'sync.resolveRewritten': {
    req: z.object({ how: z.enum(['push-mine', 'take-theirs']) }).strict(),
    res: z.object({
      view: syncView,
      backup: z.string().nullable(),
      received: z.number().int().min(0),
      sent: z.number().int().min(0),
    }),
    destructive: true as const,
  },
  /** How often this device checks the space's remote while the app runs; kept with the remote, on this device. */
  'sync.setCheckInterval': {
    req: z.object({ seconds: z.number().int().min(5).max(86_400) }).strict(),
    res: syncView,
  },
  'sync.conflicts': { req: empty, res: z.object({ conflicts: z.array(syncConflict) }) },
  'sync.conflict': { req: z.object({ id }).strict(), res: syncConflictDetail },
  'sync.resolve': {
    req: z.union([
      z.object({ id, keep: z.enum(['mine', 'theirs']) }).strict(),
      z.object({ id, text: z.string().max(10_000_000) }).strict(),
    ]),
    res: syncView,
  },
};

/**
 * Files another device forgot permanently, erased on this device by one sync (its tombstones): each with
 * the device that forgot it. A memory path, never its content.
 */
export const syncForgotten = z.object({
  forgotten: z.array(z.object({ path: z.string(), device: z.string() })).min(1),
});
export type SyncForgotten = z.infer<typeof syncForgotten>;

export const syncEvents = {
  /** The space's sync changed state (tagged with its space like every spaced event). */
  'sync.status': syncView,
  /** A sync erased what other devices forgot (one event per such sync, tagged with its space). */
  'sync.forgotten': syncForgotten,
};
