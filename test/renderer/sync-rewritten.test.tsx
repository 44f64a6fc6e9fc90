// A remote whose history was rewritten elsewhere (issue 16, point 5), in the whole window against the
// scripted backend: the sidebar and Settings → Sync explain it instead of offering a Retry, and offer
// "Push my copy" and "Take the remote's", each only after a confirmation that says a backup is made
// first; the choice goes to sync.resolveRewritten and the toast says where the backup is.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SyncView } from '../../shared/channels/sync';
import { useToasts } from '../../renderer/store/toast';
import { type ChatBackend } from './chat-backend';
import { resetSpaces } from './spaces-backend';
import { REMOTE, resetSyncStore, syncedView } from './sync-setup';
import { emptyMemoryChatBackend, resetWindowStores, windowTests } from './window-setup';

const rewritten: SyncView = {
  remote: REMOTE,
  status: {
    state: 'error',
    kind: 'rewritten',
    message:
      "The remote's history was rewritten (a force-push from elsewhere); nothing here was overwritten.",
    waiting: 2,
  },
  conflicts: 0,
};
let backend: ChatBackend;
let view: SyncView;
const theWindow = windowTests();

beforeEach(() => {
  sessionStorage.clear();
  backend = emptyMemoryChatBackend();
  view = rewritten;
  backend.impl['sync.status'] = () => view;
  backend.impl['sync.resolveRewritten'] = (req) => {
    view = syncedView();
    const backup =
      req.how === 'push-mine'
        ? "the remote's copy, kept on this device as refs/sync/backup-1 in sync/personal.git/ in the app's data folder"
        : "this space as it was, in sync/personal.backups/1/ in the app's data folder";
    return { view, backup, received: 0, sent: 0 };
  };
  resetWindowStores();
  resetSyncStore();
  resetSpaces();
});

const start = (): Promise<void> => theWindow.start(backend.api);

const line = (): HTMLElement | null => screen.queryByRole('status', { name: 'Sync status' });
const toasts = (): string =>
  useToasts
    .getState()
    .toasts.map((t) => t.message)
    .join('\n');

describe('a rewritten remote in the window', () => {
  it('the sidebar explains it and pushes this copy only after a confirmation naming the backup', async () => {
    await start();
    await waitFor(() => expect(line()?.textContent).toContain('history was rewritten'));
    expect(within(line()!).queryByRole('button', { name: 'Retry' })).toBeNull();
    const sidebar = line()!.parentElement!;
    expect(sidebar.textContent).toMatch(/Nothing here was overwritten/);

    fireEvent.click(within(sidebar).getByRole('button', { name: 'Push my copy' }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Push this device’s copy?' });
    expect(confirm.textContent).toMatch(/backup/);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(backend.callsTo('sync.resolveRewritten')).toHaveLength(0);

    fireEvent.click(within(sidebar).getByRole('button', { name: 'Push my copy' }));
    confirm = await screen.findByRole('alertdialog', { name: 'Push this device’s copy?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Push my copy' }));
    await waitFor(() => expect(backend.callsTo('sync.resolveRewritten')).toEqual([{ how: 'push-mine' }]));
    await waitFor(() => expect(toasts()).toContain('refs/sync/backup-1 in sync/personal.git/'));
    await waitFor(() => expect(line()?.textContent).toContain('Synced just now'));
    expect(screen.queryByRole('button', { name: 'Push my copy' })).toBeNull();
  });

  it("Settings → Sync takes the remote's copy after a confirmation; the toast says where the backup is", async () => {
    await start();
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Settings' });
    const section = within(dialog).getByRole('region', { name: 'Sync (Personal)' });
    await waitFor(() => expect(section.textContent).toMatch(/history was rewritten from somewhere else/));
    fireEvent.click(within(section).getByRole('button', { name: 'Take the remote’s' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Take the remote’s copy?' });
    expect(confirm.textContent).toMatch(/copied to a backup/);
    expect(confirm.textContent).toContain('sync/personal.backups');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Take the remote’s' }));
    await waitFor(() => expect(backend.callsTo('sync.resolveRewritten')).toEqual([{ how: 'take-theirs' }]));
    await waitFor(() => expect(toasts()).toContain('sync/personal.backups/1/'));
    await waitFor(() =>
      expect(within(section).queryByRole('button', { name: 'Take the remote’s' })).toBeNull(),
    );
  });

  it('another error keeps its Retry and offers no choice', async () => {
    view = {
      ...rewritten,
      status: { ...rewritten.status, kind: 'offline', message: 'Offline.' } as SyncView['status'],
    };
    await start();
    await waitFor(() => expect(line()?.textContent).toContain('Sync failed: Offline.'));
    expect(within(line()!).getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Push my copy' })).toBeNull();
  });
});
