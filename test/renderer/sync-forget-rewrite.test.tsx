// "Forget permanently" in a synced space, against the small in-memory backends: the
// forget dialog says what happens (the other devices erase the file at their next sync, and this
// device's next sync removes its old versions from the remote's history), and nothing more is asked or
// called after it. In a space without a remote, nothing of it is said. A sync that erased what another
// device forgot (`sync.forgotten`) shows one toast naming each file and the device, in whichever space
// it ran.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncView } from '../../shared/channels/sync';
import { setApi } from '../../renderer/api';
import { resetHost } from '../../renderer/features/memory/host';
import { resetContextStore } from '../../renderer/store/context';
import { resetMemoryStore } from '../../renderer/store/memory';
import { forgetWarmed } from '../../renderer/store/space-calls';
import { useSync } from '../../renderer/store/sync';
import { forgottenMessage } from '../../renderer/store/sync-forgotten';
import { useToasts } from '../../renderer/store/toast';
import { callsTo, createFakeBackend, type FakeBackend } from './memory-fake-backend';
import { createSpaceWire, type SpaceWire } from './space-wire';
import { resetSpaces } from './spaces-backend';
import { resetSyncStore, syncedView } from './sync-setup';
import { renderMemoryPanel, resetWindowStores, windowTests } from './window-setup';

const toasts = (): string[] => useToasts.getState().toasts.map((t) => t.message);

describe('forget permanently in a synced space', () => {
  let backend: FakeBackend;
  let unbind: () => void;

  function setup(view: SyncView | null) {
    backend = createFakeBackend({ '/memories/door.md': '- The door code is 4417.\n' });
    backend.impl['sync.status'] = () => view ?? { remote: null, status: { state: 'off' }, conflicts: 0 };
    useSync.setState({
      views: view ? { personal: view } : {},
      conflicts: [],
      lastRemote: {},
      retrying: false,
    });
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

  it('says the other devices erase it and the next sync cleans the remote’s history; asks nothing more', async () => {
    const panel = setup(syncedView());
    const dialog = await forget(panel);
    expect(dialog.textContent).toContain(
      'This space syncs: the other devices erase it at their next sync, and this device’s next sync removes its old versions from the remote’s history too.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Forget permanently' }));
    expect(await screen.findByText('/memories/door.md and its history are gone.')).toBeTruthy();
    expect(callsTo(backend, 'memory.forget')).toEqual([{ path: '/memories/door.md' }]);
    // No second dialog, now or a moment later, and no sync call but reading its status.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    const syncCalls = backend.calls.map((c) => c.channel).filter((c) => c.startsWith('sync.'));
    expect(syncCalls.filter((c) => c !== 'sync.status')).toEqual([]);
  });

  it('in a space without a remote, nothing about syncing is said', async () => {
    const panel = setup(null);
    const dialog = await forget(panel);
    expect(dialog.textContent).not.toMatch(/remote|sync/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Forget permanently' }));
    await waitFor(() => expect(callsTo(backend, 'memory.forget')).toHaveLength(1));
    expect(await screen.findByText('/memories/door.md and its history are gone.')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('a sync that erased what another device forgot', () => {
  let wire: SpaceWire;
  const theWindow = windowTests();

  beforeEach(async () => {
    localStorage.clear();
    resetSpaces();
    forgetWarmed();
    resetMemoryStore();
    resetContextStore();
    resetWindowStores();
    resetSyncStore();
    wire = createSpaceWire({
      personal: { '/memories/pets.md': '- The cat is Miso.\n' },
      work01: { '/memories/work.md': '- WORK only\n' },
    });
    await theWindow.start(wire.api);
  });

  it('shows one toast per sync, naming the file by its memory path and the device, kept until dismissed', async () => {
    wire.emit('personal', 'sync.forgotten', { forgotten: [{ path: '/memories/pets.md', device: 'Laptop' }] });
    await waitFor(() =>
      expect(toasts()).toEqual([
        '/memories/pets.md was forgotten permanently on Laptop; it is erased here too.',
      ]),
    );
    expect(useToasts.getState().toasts[0]!.timeoutMs).toBe(0);
    expect(screen.getByText(/pets\.md was forgotten permanently on Laptop/)).toBeTruthy();
  });

  it('says which space when the sync ran in one the window is not showing', async () => {
    await screen.findByRole('button', { name: 'Space: Personal' });
    wire.emit('work01', 'sync.forgotten', {
      forgotten: [
        { path: '/memories/work.md', device: 'Desktop' },
        { path: '/memories/old', device: 'Desktop' },
      ],
    });
    await waitFor(() =>
      expect(toasts()).toEqual([
        'In work01, /memories/work.md and /memories/old were forgotten permanently on Desktop; they are erased here too.',
      ]),
    );
  });
});

describe('the words for what other devices forgot', () => {
  const f = (path: string, device = 'Laptop') => ({ path, device });
  it.each([
    [
      [f('/memories/a.md')],
      undefined,
      '/memories/a.md was forgotten permanently on Laptop; it is erased here too.',
    ],
    [
      [f('/memories/a.md'), f('/memories/b.md', 'Phone')],
      undefined,
      '/memories/a.md (on Laptop) and /memories/b.md (on Phone) were forgotten permanently; they are erased here too.',
    ],
    [
      ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n) => f(`/memories/${n}.md`)),
      'Work',
      'In Work, /memories/a.md, /memories/b.md, /memories/c.md, /memories/d.md, /memories/e.md and 2 more files were forgotten permanently on Laptop; they are erased here too.',
    ],
    [
      [...['a', 'b', 'c', 'd', 'e'].map((n) => f(`/memories/${n}.md`)), f('/memories/z.md', 'Phone')],
      undefined,
      '/memories/a.md (on Laptop), /memories/b.md (on Laptop), /memories/c.md (on Laptop), /memories/d.md (on Laptop), /memories/e.md (on Laptop) and 1 more file (on Phone) were forgotten permanently; they are erased here too.',
    ],
  ] as const)('%j in %s', (forgotten, space, words) => {
    expect(forgottenMessage(forgotten, space)).toBe(words);
  });
});
