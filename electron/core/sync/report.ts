// What one sync did, in the shape every face shows it: what arrived, what went, each conflict, each
// refused entry with why. Paths are the model's (`/memories/...`) or a conversation's id: never host paths.

export interface SyncReport {
  /** up-to-date: nothing moved either way. */
  outcome: 'synced' | 'up-to-date';
  received: { path: string; change: 'added' | 'changed' | 'deleted' | 'merged' }[];
  /** Entries this device sent (its own changes since the last sync). */
  sent: string[];
  conflicts: { path: string; device: string }[];
  refused: { path: string; reason: string }[];
  /** This device's files not sent (a credential another program wrote into one), with why. */
  held: { path: string; reason: string }[];
  /** Not applied yet (a conversation answering, a file changed meanwhile): the next sync tries again. */
  pending: { path: string; reason: string }[];
  notes: string[];
  /** Files another device forgot permanently, erased here by this sync (its tombstones), and that device. */
  forgotten: { path: string; device: string }[];
  /** Where the backup made before a destructive choice is (relative to the data folder), if one was. */
  backup?: string;
}

/** An open conflict: both versions are kept until the user resolves it (DIR/sync/<id>.conflicts.json). */
export interface SyncConflict {
  id: string;
  path: string;
  device: string;
  at: string;
  baseOid: string | null;
  mineOid: string;
  theirsOid: string;
}

export type SyncErrorKind =
  'not_configured' | 'auth' | 'offline' | 'rewritten' | 'other_space' | 'busy' | 'rejected' | 'failed';

/** A sync that did not complete: nothing local was overwritten; the message says what to do. */
export class SyncError extends Error {
  constructor(
    readonly kind: SyncErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export const emptyReport = (): SyncReport => ({
  outcome: 'up-to-date',
  received: [],
  sent: [],
  conflicts: [],
  refused: [],
  held: [],
  pending: [],
  notes: [],
  forgotten: [],
});
