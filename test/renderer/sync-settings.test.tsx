// Settings → Sync and the sidebar's sync line (issue 16), in the whole window against the scripted
// backend with a small sync model: the line is absent without a remote and says synced / waiting /
// syncing / failed (with Retry); the form joins (the token goes to the backend once and is never shown:
// only "saved"), shows the backend's refusal, asks before merging another space, and disconnects after a
// confirmation, keeping the address for a reconnect.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SyncView } from '../../shared/channels/sync';
import { ContractError } from '../../shared/errors';
import { agoText, statusLine } from '../../renderer/features/sync/format';
import { type ChatBackend } from './chat-backend';
import { resetSpaces } from './spaces-backend';
import { REMOTE, resetSyncStore } from './sync-setup';
import { emptyMemoryChatBackend, resetWindowStores, windowTests } from './window-setup';

const TOKEN = 'ghp_example_token_1234';
let backend: ChatBackend;
let view: SyncView;
const theWindow = windowTests();

beforeEach(() => {
  sessionStorage.clear();
  backend = emptyMemoryChatBackend();
  view = { remote: null, status: { state: 'off' }, conflicts: 0 };
  backend.impl['sync.status'] = () => view;
  backend.impl['sync.configure'] = (req) => {
    if (req.token === 'wrong')
      throw new ContractError('forbidden', 'The remote refused the token: check it and try again.');
    view = {
      remote: {
        url: 'https://git.example.com/notes.git',
        username: 'me',
        device: req.deviceName,
        hasToken: true,
      },
      status: { state: 'synced', lastSyncAt: Date.now(), waiting: 0 },
      conflicts: 0,
    };
    return { joined: true, view };
  };
  backend.impl['sync.disconnect'] = () => (view = { remote: null, status: { state: 'off' }, conflicts: 0 });
  backend.impl['sync.syncNow'] = () => {
    view = { ...view, status: { state: 'synced', lastSyncAt: Date.now(), waiting: 0 } };
    return { view, received: 0, sent: 0, conflicts: 0, refused: [] };
  };
  resetWindowStores();
  resetSyncStore();
  resetSpaces();
});

async function start(): Promise<void> {
  await theWindow.start(backend.api);
}

const line = (): HTMLElement | null => screen.queryByRole('status', { name: 'Sync status' });
const emit = (next: SyncView): void => {
  view = next;
  act(() => backend.emit('sync.status', next));
};
const remote = REMOTE;

describe('the sidebar sync line', () => {
  it('shows nothing without a remote, then synced, waiting, syncing and a failure with Retry', async () => {
    await start();
    await screen.findByRole('button', { name: 'Space: Personal' });
    await waitFor(() => expect(backend.callsTo('sync.status').length).toBeGreaterThan(0));
    await backend.settle();
    expect(line()).toBeNull();

    emit({ remote, status: { state: 'synced', lastSyncAt: Date.now() - 125_000, waiting: 0 }, conflicts: 0 });
    await waitFor(() => expect(line()?.textContent).toContain('Synced 2 min ago'));
    expect(within(line()!).queryByRole('button', { name: 'Retry' })).toBeNull();

    emit({ remote, status: { state: 'synced', lastSyncAt: Date.now(), waiting: 3 }, conflicts: 0 });
    await waitFor(() => expect(line()?.textContent).toContain('3 changes waiting'));
    emit({ remote, status: { state: 'syncing' }, conflicts: 0 });
    await waitFor(() => expect(line()?.textContent).toContain('Syncing…'));

    emit({
      remote,
      status: { state: 'error', kind: 'offline', message: 'The remote cannot be reached.', waiting: 1 },
      conflicts: 1,
    });
    await waitFor(() => expect(line()?.textContent).toContain('Sync failed: The remote cannot be reached.'));
    expect(line()?.textContent).toContain('1 conflict to resolve');
    fireEvent.click(within(line()!).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(backend.callsTo('sync.syncNow')).toHaveLength(1));
    await waitFor(() => expect(line()?.textContent).toContain('Synced just now'));

    // Disconnected elsewhere: the line goes.
    emit({ remote: null, status: { state: 'off' }, conflicts: 0 });
    await waitFor(() => expect(line()).toBeNull());
  });

  it('words the status plainly (table)', () => {
    const now = Date.parse('2026-12-01T12:00:00Z');
    expect(agoText(now - 5_000, now)).toBe('just now');
    expect(agoText(now - 60_000, now)).toBe('1 min ago');
    expect(agoText(now - 59 * 60_000, now)).toBe('59 min ago');
    expect(agoText(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(agoText(now + 10_000, now)).toBe('just now');
    const cases: [SyncView['status'], string | null][] = [
      [{ state: 'synced', lastSyncAt: now - 120_000, waiting: 0 }, 'Synced 2 min ago'],
      [{ state: 'synced', lastSyncAt: now, waiting: 1 }, '1 change waiting'],
      [{ state: 'synced', lastSyncAt: now, waiting: 12 }, '12 changes waiting'],
      [{ state: 'syncing' }, 'Syncing…'],
      [
        { state: 'error', kind: 'auth', message: 'The remote refused the token.', waiting: 0 },
        'Sync failed: The remote refused the token.',
      ],
    ];
    for (const [status, text] of cases)
      expect(statusLine({ remote, status, conflicts: 0 }, now)?.text).toBe(text);
    expect(statusLine({ remote: null, status: { state: 'syncing' }, conflicts: 0 }, now)).toBeNull();
    expect(statusLine(undefined, now)).toBeNull();
  });
});

async function openSyncSettings(): Promise<HTMLElement> {
  fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
  const dialog = await screen.findByRole('dialog', { name: 'Settings' });
  return within(dialog).getByRole('region', { name: 'Sync (Personal)' });
}

describe('Settings → Sync', () => {
  it('joins with the token sent once and shown only as saved; refusals and empty fields say what to do', async () => {
    await start();
    const section = await openSyncSettings();
    expect(section.textContent).toMatch(/as readable as the remote is/);
    const url = within(section).getByLabelText('Remote address');
    const token = within(section).getByLabelText('Token') as HTMLInputElement;
    const device = within(section).getByLabelText('This device’s name');
    expect(token.type).toBe('password');

    fireEvent.click(within(section).getByRole('button', { name: 'Join' }));
    expect((await within(section).findByRole('alert')).textContent).toMatch(
      /Enter the remote’s HTTPS address/,
    );
    fireEvent.change(url, { target: { value: 'https://me@git.example.com/notes.git' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Join' }));
    expect((await within(section).findByRole('alert')).textContent).toMatch(/Enter the token/);
    expect(backend.callsTo('sync.configure')).toHaveLength(0);

    fireEvent.change(token, { target: { value: 'wrong' } });
    fireEvent.change(device, { target: { value: 'Laptop' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Join' }));
    await waitFor(() =>
      expect(within(section).getByRole('alert').textContent).toBe(
        'The remote refused the token: check it and try again.',
      ),
    );
    expect(view.remote).toBeNull();

    fireEvent.change(token, { target: { value: TOKEN } });
    fireEvent.click(within(section).getByRole('button', { name: 'Join' }));
    await waitFor(() => expect(within(section).getByRole('button', { name: 'Save' })).toBeTruthy());
    expect(backend.callsTo('sync.configure').at(-1)).toEqual({
      url: 'https://me@git.example.com/notes.git',
      token: TOKEN,
      deviceName: 'Laptop',
    });
    const saved = within(section).getByLabelText('Token') as HTMLInputElement;
    expect(saved.value).toBe('');
    expect(saved.placeholder).toBe('saved');
    expect(document.body.textContent).not.toContain(TOKEN);
    expect(within(section).getByLabelText('Remote address')).toHaveProperty(
      'value',
      'https://me@git.example.com/notes.git',
    );
    expect(section.textContent).toContain('Connected as Laptop. Synced just now');
    // The sidebar shows it too.
    await waitFor(() => expect(line()?.textContent).toContain('Synced just now'));

    // Renaming the device keeps the saved token: none is sent.
    fireEvent.change(within(section).getByLabelText('This device’s name'), {
      target: { value: 'Work laptop' },
    });
    fireEvent.click(within(section).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(backend.callsTo('sync.configure')).toHaveLength(3));
    expect(backend.callsTo('sync.configure').at(-1)).toEqual({
      url: 'https://me@git.example.com/notes.git',
      deviceName: 'Work laptop',
    });
  });

  it('asks before merging a remote that holds another space', async () => {
    let asked = 0;
    backend.impl['sync.configure'] = (req) => {
      asked++;
      if (!req.confirmOtherSpace)
        return {
          joined: false,
          otherSpace: { id: 'abc123abc123', name: 'Work' },
          memoryFiles: 4,
          conversations: 2,
        };
      view = { remote, status: { state: 'synced', lastSyncAt: Date.now(), waiting: 0 }, conflicts: 0 };
      return { joined: true, view };
    };
    await start();
    const section = await openSyncSettings();
    fireEvent.change(within(section).getByLabelText('Remote address'), {
      target: { value: 'https://me@git.example.com/notes.git' },
    });
    fireEvent.change(within(section).getByLabelText('Token'), { target: { value: TOKEN } });
    fireEvent.click(within(section).getByRole('button', { name: 'Join' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Merge “Work” into Personal?' });
    expect(confirm.textContent).toContain('4 memory files and 2 conversations');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Merge' }));
    await waitFor(() => expect(asked).toBe(2));
    expect(backend.callsTo('sync.configure').at(-1)).toMatchObject({ confirmOtherSpace: true, token: TOKEN });
    await waitFor(() => expect(within(section).getByRole('button', { name: 'Save' })).toBeTruthy());
  });

  it('disconnects only after a confirmation; the address stays in the form to reconnect', async () => {
    view = { remote, status: { state: 'synced', lastSyncAt: Date.now(), waiting: 0 }, conflicts: 0 };
    await start();
    const section = await openSyncSettings();
    fireEvent.click(await within(section).findByRole('button', { name: 'Disconnect' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Disconnect sync?' });
    expect(confirm.textContent).toMatch(/stay here/);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(backend.callsTo('sync.disconnect')).toHaveLength(0);

    fireEvent.click(within(section).getByRole('button', { name: 'Disconnect' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Disconnect sync?' })).getByRole('button', {
        name: 'Disconnect',
      }),
    );
    await waitFor(() => expect(within(section).getByRole('button', { name: 'Join' })).toBeTruthy());
    expect(backend.callsTo('sync.disconnect')).toHaveLength(1);
    expect(within(section).getByLabelText('Remote address')).toHaveProperty(
      'value',
      'https://me@git.example.com/notes.git',
    );
    expect(within(section).getByLabelText('This device’s name')).toHaveProperty('value', 'Laptop');
    expect((within(section).getByLabelText('Token') as HTMLInputElement).placeholder).toBe('');
    await waitFor(() => expect(line()).toBeNull());
  });
});
