// The memory panel's sync-conflict card (issue 16): an open conflict shows both versions and the merged
// draft; Keep mine, Keep theirs and Edit → Save each resolve it once with what was chosen, and the card
// goes; a refusal (the draft's markers left in) keeps the card and says why.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncConflictDetail, SyncView } from '../../shared/channels/sync';
import { ContractError } from '../../shared/errors';
import { setApi } from '../../renderer/api';
import { resetHost } from '../../renderer/features/memory/host';
import { resetMemoryStore } from '../../renderer/store/memory';
import { useSync } from '../../renderer/store/sync';
import { useToasts } from '../../renderer/store/toast';
import { callsTo, createFakeBackend, type FakeBackend } from './memory-fake-backend';
import { resetSyncStore } from './sync-setup';
import { renderMemoryPanel } from './window-setup';

const mine = '# Team\n\n- standup at 8:30\n- deploys on Tuesday\n';
const theirs = '# Team\n\n- standup at 10\n- deploys on Tuesday\n';
const draft =
  '# Team\n\n<<<<<<< this device\n- standup at 8:30\n=======\n- standup at 10\n>>>>>>> Laptop\n- deploys on Tuesday\n';
const detail: SyncConflictDetail = {
  id: 'c1',
  path: '/memories/team.md',
  device: 'Laptop',
  at: '2026-12-01T12:00:00.000Z',
  mine,
  theirs,
  draft,
};

let backend: FakeBackend;
let unbind: () => void;
let open: boolean;

function setup(): HTMLElement {
  backend = createFakeBackend({ '/memories/team.md': mine });
  open = true;
  const view = (): SyncView => ({
    remote: { url: 'https://git.example.com/n.git', username: 'me', device: 'Desktop', hasToken: true },
    status: { state: 'synced', lastSyncAt: Date.now(), waiting: 0 },
    conflicts: open ? 1 : 0,
  });
  Object.assign(backend.impl, {
    'sync.status': view,
    'sync.conflicts': () => ({
      conflicts: open ? [{ id: 'c1', path: detail.path, device: 'Laptop', at: detail.at }] : [],
    }),
    'sync.conflict': () => detail,
    'sync.resolve': (req: { id: string; text?: string }) => {
      if (req.text?.includes('<<<<<<<'))
        throw new ContractError('invalid_request', 'The text still has conflict markers: remove them.');
      open = false;
      return view();
    },
  });
  let panel: HTMLElement;
  ({ panel, unbind } = renderMemoryPanel(backend.api));
  return panel;
}

beforeEach(() => {
  resetHost();
  resetMemoryStore();
  useToasts.setState({ toasts: [] });
  resetSyncStore();
});
afterEach(() => {
  unbind();
  cleanup();
  setApi(null);
});

async function openCard(panel: HTMLElement): Promise<HTMLElement> {
  const card = await within(panel).findByRole('region', { name: 'Sync conflict: /memories/team.md' });
  expect(card.textContent).toContain('changed in the same place here and on Laptop');
  fireEvent.click(within(card).getByRole('button', { name: 'Show both versions' }));
  await within(card).findByRole('button', { name: 'Keep mine' });
  return card;
}

describe('the sync-conflict card', () => {
  it('shows both versions; Keep theirs resolves it with theirs and the card goes', async () => {
    const card = await openCard(setup());
    const versions = card.querySelectorAll('pre');
    expect(versions[0]!.textContent).toBe(mine);
    expect(versions[1]!.textContent).toBe(theirs);
    expect(within(card).getByRole('heading', { name: 'This device' })).toBeTruthy();
    expect(within(card).getByRole('heading', { name: 'Laptop' })).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Keep theirs' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /Sync conflict/ })).toBeNull());
    expect(callsTo(backend, 'sync.resolve')).toEqual([{ id: 'c1', keep: 'theirs' }]);
  });

  it('Keep mine sends mine', async () => {
    const card = await openCard(setup());
    fireEvent.click(within(card).getByRole('button', { name: 'Keep mine' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /Sync conflict/ })).toBeNull());
    expect(callsTo(backend, 'sync.resolve')).toEqual([{ id: 'c1', keep: 'mine' }]);
  });

  it('Edit starts from the merged draft; markers left in are refused and the card stays; a clean text saves', async () => {
    const card = await openCard(setup());
    fireEvent.click(within(card).getByRole('button', { name: 'Edit' }));
    const box = within(card).getByLabelText('Merged text') as HTMLTextAreaElement;
    expect(box.value).toBe(draft);
    fireEvent.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(useToasts.getState().toasts.map((t) => t.message)).toContain(
        'The text still has conflict markers: remove them.',
      ),
    );
    expect(screen.getByRole('region', { name: 'Sync conflict: /memories/team.md' })).toBe(card);
    const edited = '# Team\n\n- standup at 9:30\n- deploys on Tuesday\n';
    act(() => void fireEvent.change(box, { target: { value: edited } }));
    fireEvent.click(within(card).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /Sync conflict/ })).toBeNull());
    expect(callsTo(backend, 'sync.resolve').at(-1)).toEqual({ id: 'c1', text: edited });
  });

  it('shows no card when nothing conflicts', async () => {
    const panel = setup();
    open = false;
    useSync.setState({ views: {}, conflicts: [] });
    await waitFor(() => expect(callsTo(backend, 'sync.status').length).toBeGreaterThan(0));
    await act(async () => {
      await useSync.getState().load();
    });
    expect(within(panel).queryByRole('region', { name: /Sync conflict/ })).toBeNull();
  });
});
