// "Copy to space…" and "Move to space…" of a memory file (issue 15, "The window"): pick the target among
// the other spaces, a move asks once more, a toast says what happened; the current space is named over
// the Memory region without renaming it.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../renderer/api';
import { resetHost } from '../../renderer/features/memory/host';
import { refreshCounts, switchSpace } from '../../renderer/features/spaces/use-spaces';
import { resetMemoryStore } from '../../renderer/store/memory';
import { useToasts } from '../../renderer/store/toast';
import { resetSpaces } from './spaces-backend';
import { callsTo, createFakeBackend, type FakeBackend } from './memory-fake-backend';
import { addSpaces, type SpacesModel } from './spaces-backend';
import { renderMemoryPanel } from './window-setup';

let backend: FakeBackend;
let spaces: SpacesModel;
let unbind: () => void;

async function setup(): Promise<HTMLElement> {
  backend = createFakeBackend({ '/memories/notes/tea.md': '# Tea\n\n- Likes green tea\n' });
  spaces = addSpaces(backend);
  resetSpaces();
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

async function openFile(panel: HTMLElement): Promise<void> {
  const row = await within(panel).findByRole('listitem', { name: '/memories/notes/tea.md' });
  fireEvent.click(within(row).getByRole('button', { name: 'Open' }));
  await within(panel).findByRole('article', { name: 'File /memories/notes/tea.md' });
}

describe('memory files between spaces', () => {
  it('names the current space over the Memory region (the region keeps its name)', async () => {
    const panel = await setup();
    expect(panel.textContent).toContain('Memory of');
    expect(panel.querySelector('[data-space-label]')?.textContent).toContain('Personal');
    const work = spaces.seed('Work');
    await act(() => refreshCounts(true));
    await act(() => switchSpace(work.id));
    expect(
      screen.getByRole('region', { name: 'Memory' }).querySelector('[data-space-label]')?.textContent,
    ).toContain('Work');
  });

  it('copies a file to the space picked, and says so', async () => {
    const panel = await setup();
    const work = spaces.seed('Work');
    spaces.seed('Home');
    await act(() => refreshCounts(true));
    backend.impl['memory.copyToSpace'] = (req) => ({ path: req.as ?? req.path, journalId: 'j-copy' });
    await openFile(panel);
    fireEvent.click(within(panel).getByRole('button', { name: 'Copy to space…' }));
    const dialog = screen.getByRole('dialog', { name: 'Copy to space' });
    const radios = within(dialog).getAllByRole('radio');
    expect(radios.map((r) => r.closest('label')?.textContent)).toEqual(['Work', 'Home']);
    expect(document.activeElement).toBe(radios[0]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy to Work' }));
    await waitFor(() =>
      expect(callsTo(backend, 'memory.copyToSpace')).toEqual([
        { path: '/memories/notes/tea.md', to: work.id },
      ]),
    );
    await screen.findByText('Copied /memories/notes/tea.md to “Work”.');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // A copy leaves the file open here.
    expect(within(panel).getByRole('article', { name: 'File /memories/notes/tea.md' })).toBeTruthy();
  });

  it('asks before a move, and shows the backend’s refusal without closing the dialog', async () => {
    const panel = await setup();
    spaces.seed('Work');
    const home = spaces.seed('Home');
    await act(() => refreshCounts(true));
    let refuse = true;
    backend.impl['memory.moveToSpace'] = (req) => {
      if (refuse) {
        refuse = false;
        throw Object.assign(new Error('There is already a file at /memories/notes/tea.md in “Home”.'), {
          code: 'conflict',
        });
      }
      return { path: req.path, journalId: 'j-in', sourceJournalId: 'j-out' };
    };
    await openFile(panel);
    fireEvent.click(within(panel).getByRole('button', { name: 'Move to space…' }));
    const dialog = screen.getByRole('dialog', { name: 'Move to space' });
    // The targets come with the space list, which may still be on its way under load.
    fireEvent.click(await within(dialog).findByRole('radio', { name: /Home/ }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Move to Home' }));
    // The confirmation step: nothing has moved yet.
    const confirm = screen.getByRole('alertdialog', { name: 'Move to space' });
    expect(confirm.textContent).toContain('leaves “Personal” and goes to “Home”');
    expect(callsTo(backend, 'memory.moveToSpace')).toEqual([]);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Move to Home' }));
    await screen.findByText(/already a file/);
    expect(screen.getByRole('alertdialog', { name: 'Move to space' })).toBeTruthy();
    // The button reads "Moving…" until the refused call has settled.
    fireEvent.click(await within(confirm).findByRole('button', { name: 'Move to Home' }));
    await screen.findByText('Moved /memories/notes/tea.md to “Home”.');
    expect(callsTo(backend, 'memory.moveToSpace')).toEqual([
      { path: '/memories/notes/tea.md', to: home.id },
      { path: '/memories/notes/tea.md', to: home.id },
    ]);
    // The file left this space: its view closes.
    await waitFor(() => expect(within(panel).queryByRole('article')).toBeNull());
  });

  it('offers no target when there is no other space', async () => {
    const panel = await setup();
    await act(() => refreshCounts(true));
    await openFile(panel);
    fireEvent.click(within(panel).getByRole('button', { name: 'Copy to space…' }));
    const dialog = screen.getByRole('dialog', { name: 'Copy to space' });
    expect(dialog.textContent).toContain('There is no other space yet');
    expect(within(dialog).queryByRole('button', { name: /^Copy to / })).toBeNull();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
