// "Forget permanently" in a synced space (issue 16, point 5), in the memory panel against the small
// in-memory backend: the forget dialog says the remote's history still holds old versions; after the
// forget, a second dialog offers to rewrite the remote's history (backup first, the other devices
// re-join); confirming calls sync.rewriteHistory and the toast says where the backup is; "Not now" calls
// nothing. In a space without a remote, neither is said nor offered.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncView } from '../../shared/channels/sync';
import { setApi } from '../../renderer/api';
import { resetHost } from '../../renderer/features/memory/host';
import { resetMemoryStore } from '../../renderer/store/memory';
import { useSync } from '../../renderer/store/sync';
import { useToasts } from '../../renderer/store/toast';
import { callsTo, createFakeBackend, type FakeBackend } from './memory-fake-backend';
import { syncedView } from './sync-setup';
import { renderMemoryPanel } from './window-setup';

const synced = syncedView();
let backend: FakeBackend;
let unbind: () => void;

function setup(view: SyncView | null) {
  backend = createFakeBackend({ '/memories/door.md': '- The door code is 4417.\n' });
  backend.impl['sync.status'] = () => view ?? { remote: null, status: { state: 'off' }, conflicts: 0 };
  backend.impl['sync.rewriteHistory'] = () => ({
    view: synced,
    backup:
      "the previous history (it still holds the forgotten versions), kept on this device only as refs/sync/backup-1 in sync/personal.git/ in the app's data folder",
  });
  useSync.setState({ views: view ? { personal: view } : {}, conflicts: [], lastRemote: {}, retrying: false });
  let panel: HTMLElement;
  ({ panel, unbind } = renderMemoryPanel(backend.api));
  return panel;
}

beforeEach(() => {
  resetHost();
  resetMemoryStore();
  useToasts.setState({ toasts: [] });
});
afterEach(() => {
  unbind();
  cleanup();
  setApi(null);
});

async function forget(panel: HTMLElement): Promise<HTMLElement> {
  const item = await within(panel).findByRole('listitem', { name: '/memories/door.md' });
  fireEvent.click(within(item).getByRole('button', { name: 'Open' }));
  fireEvent.click(await within(panel).findByRole('button', { name: 'Forget permanently' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'Forget permanently?' });
  fireEvent.change(within(dialog).getByLabelText(/Type/), { target: { value: 'door.md' } });
  return dialog;
}

describe('forget permanently in a synced space', () => {
  it("says the remote's history still holds old versions and rewrites it only when asked", async () => {
    const panel = setup(synced);
    const dialog = await forget(panel);
    expect(dialog.textContent).toMatch(/remote’s history still holds its old versions/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Forget permanently' }));
    const offer = await screen.findByRole('alertdialog', {
      name: 'Remove the old versions from the remote too?',
    });
    expect(callsTo(backend, 'memory.forget')).toEqual([{ path: '/memories/door.md' }]);
    expect(offer.textContent).toMatch(/kept on this device as a backup first/);
    expect(offer.textContent).toMatch(/other devices re-join the new history/);
    expect(callsTo(backend, 'sync.rewriteHistory')).toHaveLength(0);
    fireEvent.click(within(offer).getByRole('button', { name: 'Rewrite the remote’s history' }));
    await waitFor(() => expect(callsTo(backend, 'sync.rewriteHistory')).toHaveLength(1));
    expect(await screen.findByText(/Backup: .*refs\/sync\/backup-1 in sync\/personal\.git\//)).toBeTruthy();
  });

  it('"Not now" leaves the remote as it is', async () => {
    const panel = setup(synced);
    fireEvent.click(within(await forget(panel)).getByRole('button', { name: 'Forget permanently' }));
    const offer = await screen.findByRole('alertdialog', {
      name: 'Remove the old versions from the remote too?',
    });
    fireEvent.click(within(offer).getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(callsTo(backend, 'sync.rewriteHistory')).toHaveLength(0);
  });

  it('in a space without a remote, nothing about it is said or offered', async () => {
    const panel = setup(null);
    const dialog = await forget(panel);
    expect(dialog.textContent).not.toMatch(/remote/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Forget permanently' }));
    await waitFor(() => expect(callsTo(backend, 'memory.forget')).toHaveLength(1));
    expect(await screen.findByText('/memories/door.md and its history are gone.')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
