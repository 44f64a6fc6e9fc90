// Settings → Sync's "Check the remote every" (issue 16, point 3), in the whole window against the
// scripted backend: shown only with a remote, it says what the backend keeps (1 minute by default), a
// choice goes to sync.setCheckInterval at once, and a value set elsewhere is listed as it is.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SyncView } from '../../shared/channels/sync';
import { type ChatBackend } from './chat-backend';
import { resetSpaces } from './spaces-backend';
import { resetSyncStore, syncedView } from './sync-setup';
import { emptyMemoryChatBackend, resetWindowStores, windowTests } from './window-setup';

let backend: ChatBackend;
let view: SyncView;
const theWindow = windowTests();

beforeEach(() => {
  sessionStorage.clear();
  backend = emptyMemoryChatBackend();
  view = { ...syncedView(), checkSeconds: 60 };
  backend.impl['sync.setCheckInterval'] = (req) => (view = { ...view, checkSeconds: req.seconds });
  backend.impl['sync.status'] = () => view;
  resetWindowStores();
  resetSyncStore();
  resetSpaces();
});

const start = (): Promise<void> => theWindow.start(backend.api);

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
