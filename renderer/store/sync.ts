// The sync slice (issue 16): each space's sync view (its remote without the token, its status, how many
// conflicts are open), kept per space id so a switch shows the new space's at once; `sync.status` events
// keep it current. Settings → Sync, the sidebar's status line and the memory panel's conflict cards read
// it; none of them calls the backend itself. A sync that erased what another device forgot says so in a
// toast (`sync.forgotten`), in whichever space it ran.
import { create } from 'zustand';
import type { ResOut } from '../../shared/contract';
import type {
  SyncConflictDetail,
  SyncConflictView,
  SyncForgotten,
  SyncView,
} from '../../shared/channels/sync';
import { getApi } from '../api';
import { errorMessage } from '../lib/format';
import { currentSpaceId } from '../transport/current-space';
import { onForgottenElsewhere, registerBinder } from './bridge';
import { useSpaces } from './spaces';
import { forgottenMessage } from './sync-forgotten';
import { toast } from './toast';

export type ConfigureResult = ResOut<'sync.configure'> | { error: string };

interface SyncState {
  /** By space id; absent: not read yet (or this backend has no sync: nothing is shown). */
  views: Record<string, SyncView>;
  /** The current space's open conflicts (the memory panel's cards). */
  conflicts: SyncConflictView[];
  /** The remote a space was disconnected from (this window): the form offers it again to reconnect. */
  lastRemote: Record<string, NonNullable<SyncView['remote']>>;
  retrying: boolean;
  load(): Promise<void>;
  configure(input: {
    url: string;
    token?: string;
    deviceName: string;
    confirmOtherSpace?: boolean;
  }): Promise<ConfigureResult>;
  disconnect(): Promise<boolean>;
  syncNow(): Promise<void>;
  /** After the remote's history was rewritten: the backup's place (said in a toast too), or null. */
  resolveRewritten(how: 'push-mine' | 'take-theirs'): Promise<string | null>;
  /** Settings → Sync's "check the remote every". */
  setCheckInterval(seconds: number): Promise<void>;
  loadConflicts(): Promise<void>;
  conflict(id: string): Promise<SyncConflictDetail | null>;
  resolve(id: string, how: { keep: 'mine' | 'theirs' } | { text: string }): Promise<boolean>;
}

export const useSync = create<SyncState>()((set, get) => {
  const put = (space: string, view: SyncView): void => set((s) => ({ views: { ...s.views, [space]: view } }));
  return {
    views: {},
    conflicts: [],
    lastRemote: {},
    retrying: false,

    async load() {
      const space = currentSpaceId();
      try {
        put(space, await getApi()['sync.status']({}));
        if ((get().views[space]?.conflicts ?? 0) > 0) await get().loadConflicts();
        else set({ conflicts: [] });
      } catch {
        // A backend without sync (or not reachable yet): nothing is shown.
      }
    },

    async configure(input) {
      const space = currentSpaceId();
      try {
        const res = await getApi()['sync.configure'](input);
        if (res.joined) put(space, res.view);
        return res;
      } catch (err) {
        return { error: errorMessage(err) };
      }
    },

    async disconnect() {
      const space = currentSpaceId();
      const before = get().views[space]?.remote;
      try {
        put(space, await getApi()['sync.disconnect']({}));
        set((s) => ({
          conflicts: [],
          lastRemote: before ? { ...s.lastRemote, [space]: before } : s.lastRemote,
        }));
        return true;
      } catch (err) {
        toast(errorMessage(err), { tone: 'error' });
        return false;
      }
    },

    async syncNow() {
      const space = currentSpaceId();
      set({ retrying: true });
      try {
        const res = await getApi()['sync.syncNow']({});
        put(space, res.view);
        if (res.conflicts > 0 || res.view.conflicts !== get().conflicts.length) await get().loadConflicts();
      } catch (err) {
        // The status line shows the reason (the service's status event); a call that failed before
        // reaching it (e.g. disconnected) says so here.
        toast(`Sync failed: ${errorMessage(err)}`, { tone: 'error' });
      } finally {
        set({ retrying: false });
      }
    },

    async setCheckInterval(seconds) {
      const space = currentSpaceId();
      try {
        put(space, await getApi()['sync.setCheckInterval']({ seconds }));
      } catch (err) {
        toast(errorMessage(err), { tone: 'error' });
      }
    },

    async resolveRewritten(how) {
      const space = currentSpaceId();
      set({ retrying: true });
      try {
        const res = await getApi()['sync.resolveRewritten']({ how });
        put(space, res.view);
        const done =
          how === 'push-mine'
            ? 'This device’s copy is on the remote now.'
            : 'This space took the remote’s copy.';
        toast(res.backup ? `${done} Backup: ${res.backup}.` : done, { tone: 'success', timeoutMs: 0 });
        return res.backup;
      } catch (err) {
        toast(`Sync failed: ${errorMessage(err)}`, { tone: 'error' });
        return null;
      } finally {
        set({ retrying: false });
      }
    },

    async loadConflicts() {
      try {
        set({ conflicts: (await getApi()['sync.conflicts']({})).conflicts });
      } catch {
        set({ conflicts: [] });
      }
    },

    async conflict(id) {
      try {
        return await getApi()['sync.conflict']({ id });
      } catch (err) {
        toast(errorMessage(err), { tone: 'error' });
        void get().loadConflicts();
        return null;
      }
    },

    async resolve(id, how) {
      const space = currentSpaceId();
      try {
        put(space, await getApi()['sync.resolve']({ id, ...how }));
        set((s) => ({ conflicts: s.conflicts.filter((c) => c.id !== id) }));
        return true;
      } catch (err) {
        toast(errorMessage(err), { tone: 'error' });
        return false;
      }
    },
  };
});

/** The current space's view (undefined: not read, or no sync here). */
export function useSyncView(space: string): SyncView | undefined {
  return useSync((s) => s.views[space]);
}

/** The space syncs (the forget dialog says what that means for a forget). */
export function useSpaceSyncs(spaceId: string): boolean {
  return useSync((s) => Boolean(s.views[spaceId]?.remote));
}

/** What a sync erased because other devices forgot it: kept until dismissed, since it cannot be undone. */
function showForgotten(forgotten: SyncForgotten['forgotten'], spaceName?: string): void {
  toast(forgottenMessage(forgotten, spaceName), { tone: 'warning', timeoutMs: 0 });
}

registerBinder('sync', (api) => {
  const offs = [
    api.on('sync.status', (view, meta) => {
      const space = meta?.space ?? currentSpaceId();
      const before = useSync.getState().views[space];
      useSync.setState((s) => ({ views: { ...s.views, [space]: view } }));
      if (space === currentSpaceId() && view.conflicts !== (before?.conflicts ?? 0))
        void useSync.getState().loadConflicts();
    }),
    api.on('sync.forgotten', ({ forgotten }) => showForgotten(forgotten)),
  ];
  return () => offs.forEach((off) => off());
});

onForgottenElsewhere((space, forgotten) =>
  showForgotten(forgotten, useSpaces.getState().list.find((s) => s.id === space)?.name ?? 'another space'),
);
