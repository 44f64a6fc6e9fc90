// What the renderer's sync tests share: a remote as the backend describes it, a synced view of it, and
// the sync store back to its first state.
import type { SyncView } from '../../shared/channels/sync';
import { useSync } from '../../renderer/store/sync';

export const REMOTE = {
  url: 'https://git.example.com/notes.git',
  username: 'me',
  device: 'Laptop',
  hasToken: true,
};

/** REMOTE, synced just now with nothing waiting. */
export function syncedView(): SyncView {
  return { remote: REMOTE, status: { state: 'synced', lastSyncAt: Date.now(), waiting: 0 }, conflicts: 0 };
}

export function resetSyncStore(): void {
  useSync.setState({ views: {}, conflicts: [], lastRemote: {}, retrying: false });
}
