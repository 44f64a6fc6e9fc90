// Settings → Sync's "Check the remote every" (issue 16, point 3), in the whole window against the
// scripted backend: shown only with a remote, it says what the backend keeps (1 minute by default), a
// choice goes to sync.setCheckInterval at once, and a value set elsewhere is listed as it is.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SyncView } from '../../shared/channels/sync';
import { setApi } from '../../renderer/api';
import { App } from '../../renderer/app';
import { boot } from '../../renderer/boot';
import { useSync } from '../../renderer/store/sync';
import { useToasts } from '../../renderer/store/toast';
import { useUi } from '../../renderer/store/ui';
import { createChatBackend, type ChatBackend } from './chat-backend';
import { installLayoutShim } from './layout-shim';
import { resetSpaces } from './spaces-backend';

const remote = { url: 'https://git.example.com/notes.git', username: 'me', device: 'Laptop', hasToken: true };
let backend: ChatBackend;
let view: SyncView;
let shutdown: () => void = () => undefined;
let removeShim: () => void;

beforeAll(() => {
  removeShim = installLayoutShim();
});
afterAll(() => removeShim());
beforeEach(() => {
  sessionStorage.clear();
  backend = createChatBackend();
  backend.impl['memory.list'] = () => ({ entries: [], totalBytes: 0 });
  backend.impl['memory.stale'] = () => ({ entries: [] });
  view = {
    remote,
    checkSeconds: 60,
    status: { state: 'synced', lastSyncAt: Date.now(), waiting: 0 },
    conflicts: 0,
  };
  backend.impl['sync.setCheckInterval'] = (req) => (view = { ...view, checkSeconds: req.seconds });
  backend.impl['sync.status'] = () => view;
  backend.impl['sync.resolveRewritten'] = (req) => {
    view = { remote, status: { state: 'synced', lastSyncAt: Date.now(), waiting: 0 }, conflicts: 0 };
    const backup =
      req.how === 'push-mine'
        ? "the remote's copy, kept on this device as refs/sync/backup-1 in sync/personal.git/ in the app's data folder"
        : "this space as it was, in sync/personal.backups/1/ in the app's data folder";
    return { view, backup, received: 0, sent: 0 };
  };
  useToasts.setState({ toasts: [] });
  useUi.setState({ settingsOpen: false, helpOpen: false });
  useSync.setState({ views: {}, conflicts: [], lastRemote: {}, retrying: false });
  resetSpaces();
});
afterEach(() => {
  cleanup();
  shutdown();
  setApi(null);
});

async function start(): Promise<void> {
  setApi(backend.api);
  render(<App />);
  shutdown = await act(() => boot(backend.api));
}

async function section(): Promise<HTMLElement> {
  fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
  const dialog = await screen.findByRole('dialog', { name: 'Settings' });
  return within(dialog).getByRole('region', { name: 'Sync (Personal)' });
}

describe('the periodic check interval in Settings → Sync', () => {
  it('shows the saved interval and sends a new one at once', async () => {
    await start();
    const s = await section();
    const select = (await within(s).findByLabelText('Check the remote every')) as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe('60'));
    expect(select.selectedOptions[0]?.textContent).toBe('1 minute');
    fireEvent.change(select, { target: { value: '300' } });
    await waitFor(() => expect(backend.callsTo('sync.setCheckInterval')).toEqual([{ seconds: 300 }]));
    await waitFor(() => expect(select.value).toBe('300'));
  });

  it('lists an interval set elsewhere as it is', async () => {
    view = { ...view, checkSeconds: 5 };
    await start();
    const select = (await within(await section()).findByLabelText(
      'Check the remote every',
    )) as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe('5'));
    expect(select.selectedOptions[0]?.textContent).toBe('5 seconds');
  });

  it('is not shown without a remote', async () => {
    view = { remote: null, status: { state: 'off' }, conflicts: 0 };
    await start();
    const s = await section();
    expect(within(s).queryByLabelText('Check the remote every')).toBeNull();
  });
});
