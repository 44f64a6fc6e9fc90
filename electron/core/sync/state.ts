// What sync remembers between runs on this device (DIR/sync/<space-id>.state.json, never synced): the hash
// cache behind the cheap idle check, the entries this device keeps for the remote without using them, the
// journal position, and the remote head it last merged.
import { z } from 'zod';
import { readJson, writePrivate } from './config.js';

const foreignSchema = z.object({
  segs: z.array(z.string()),
  mode: z.string(),
  oid: z.string(),
  /** The local file's blob when it was set aside (null: none); once the local file changes, it is dropped. */
  localOid: z.string().nullable(),
  reason: z.string(),
  /** Not refused, only not applied yet (a conversation answering, a file changed meanwhile): tried again. */
  retry: z.boolean(),
});
export type ForeignEntry = z.infer<typeof foreignSchema>;

const stateSchema = z.object({
  v: z.literal(1),
  stat: z.record(
    z.string(),
    z.object({
      size: z.number(),
      mtime: z.number(),
      oid: z.string(),
      /** The file looks like it holds a credential (the detector's words): it is not sent. */
      held: z.string().optional(),
    }),
  ),
  foreign: z.record(z.string(), foreignSchema),
  lastJournalId: z.string().optional(),
  lastRemote: z.string().optional(),
  lastSyncAt: z.number().optional(),
  /** The remote history rewrites (after a forget, history.ts) this device has joined or made. */
  rejoined: z.array(z.string()).optional(),
  /**
   * A forget purged this device's history (purge.ts): the next push replaces the remote's history by a
   * root commit, so no version of what was forgotten stays reachable there.
   */
  rewritePending: z.boolean().optional(),
});
export type SyncState = z.infer<typeof stateSchema>;

export function loadState(file: string): SyncState {
  const parsed = stateSchema.safeParse(readJson(file));
  const state: SyncState = parsed.success ? parsed.data : { v: 1, stat: {}, foreign: {} };
  const { lastSyncAt: _at, ...rest } = state;
  written.set(file, JSON.stringify(rest));
  return state;
}

const written = new Map<string, string>();

/** Saves the state, unless it is what this process last read or wrote there (an idle sync writes nothing). */
export function saveState(file: string, state: SyncState): void {
  const { lastSyncAt: _at, ...rest } = state;
  const key = JSON.stringify(rest);
  if (written.get(file) === key) return;
  writePrivate(file, JSON.stringify(state));
  written.set(file, key);
}
