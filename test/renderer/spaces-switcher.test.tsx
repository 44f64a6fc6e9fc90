// The space switcher (issue 15, "The window"): the button "Space: NAME" in the space's colour, its
// shortcut, the list with counts and its keyboard, create / rename / recolour, and delete with the typed
// name, Export first and Undo (restore), and "Recently deleted" (restore once the Undo toast has gone).
// Against the scripted backend with the spaces channels.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useToasts } from '../../renderer/store/toast';
import { useUi } from '../../renderer/store/ui';
import { switchSpace } from '../../renderer/features/spaces/use-spaces';
import { resetSpaces } from './spaces-backend';
import { type ChatBackend } from './chat-backend';
import { addSpaces, type SpacesModel } from './spaces-backend';
import { emptyMemoryChatBackend, resetWindowStores, windowTests } from './window-setup';

let backend: ChatBackend;
let spaces: SpacesModel;
const theWindow = windowTests();

beforeEach(async () => {
  sessionStorage.clear();
  localStorage.clear();
  backend = emptyMemoryChatBackend();
  spaces = addSpaces(backend);
  resetWindowStores();
  resetSpaces();
});

async function start(): Promise<void> {
  await theWindow.start(backend.api);
}

const switcher = (name: string): HTMLElement => screen.getByRole('button', { name: `Space: ${name}` });

async function openList(name = 'Personal'): Promise<HTMLElement> {
  fireEvent.click(await screen.findByRole('button', { name: `Space: ${name}` }));
  return screen.findByRole('listbox', { name: 'Spaces' });
}

describe('the switcher', () => {
  it('is a button named "Space: NAME" with the shortcut in its tooltip; the list shows counts', async () => {
    spaces.seed('Work', '#2563eb', { conversations: 3, memoryFiles: 1 });
    spaces.spaces[0]!.conversations = 1;
    spaces.spaces[0]!.memoryFiles = 12;
    await start();
    const button = await screen.findByRole('button', { name: 'Space: Personal' });
    expect(button.getAttribute('title')).toMatch(/Switch space \((Ctrl|⌘)\+Shift\+S\)/);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    const list = await openList();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const options = await waitFor(() => {
      const found = within(list).getAllByRole('option');
      expect(found).toHaveLength(2);
      return found;
    });
    expect(options[0]!.textContent).toContain('1 conversation · 12 memory files');
    expect(options[1]!.textContent).toContain('3 conversations · 1 memory file');
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    expect(options[1]!.getAttribute('aria-selected')).toBe('false');
    // Personal cannot be deleted: the list does not offer it.
    expect(screen.queryByRole('button', { name: 'Delete Personal' })).toBeNull();

    // Opening it again soon after does not count every space's folders again.
    const listed = backend.callsTo('spaces.list').length;
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await openList();
    await backend.settle();
    expect(backend.callsTo('spaces.list')).toHaveLength(listed);
    // A memory change in this space makes the next opening count again.
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    act(() => backend.emit('memory.changed', { actor: 'agent', command: 'create', path: '/memories/a.md' }));
    await backend.settle();
    await openList();
    await waitFor(() => expect(backend.callsTo('spaces.list')).toHaveLength(listed + 1));
  });

  it('opens with Ctrl+Shift+S, moves with the arrow keys, picks with Enter, closes with Escape', async () => {
    spaces.seed('Work');
    spaces.seed('Home');
    await start();
    await screen.findByRole('button', { name: 'Space: Personal' });
    fireEvent.keyDown(window, { key: 'S', ctrlKey: true, shiftKey: true });
    const list = await screen.findByRole('listbox', { name: 'Spaces' });
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(3));
    expect(document.activeElement?.textContent).toContain('Personal');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toContain('Work');
    fireEvent.keyDown(document.activeElement!, { key: 'End' });
    expect(document.activeElement?.textContent).toContain('Home');
    fireEvent.keyDown(document.activeElement!, { key: 'w' });
    expect(document.activeElement?.textContent).toContain('Work');
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('listbox', { name: 'Spaces' })).toBeNull();
    expect(document.activeElement).toBe(switcher('Personal'));

    // ArrowDown on the button opens it too; focus leaving the popover (Tab) closes it.
    fireEvent.keyDown(switcher('Personal'), { key: 'ArrowDown' });
    const reopened = await screen.findByRole('listbox', { name: 'Spaces' });
    fireEvent.focusOut(document.activeElement!, {
      relatedTarget: screen.getByRole('button', { name: 'New chat' }),
    });
    expect(screen.queryByRole('listbox', { name: 'Spaces' })).toBeNull();
    expect(reopened.isConnected).toBe(false);

    await openList();
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(3));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    await screen.findByRole('button', { name: 'Space: Work' });
    expect(screen.queryByRole('listbox', { name: 'Spaces' })).toBeNull();
    expect(document.activeElement).toBe(switcher('Work'));
  });

  it('creates a space with a colour from the palette and switches to it; a taken name is explained', async () => {
    spaces.seed('Work');
    await start();
    await openList();
    fireEvent.click(screen.getByRole('button', { name: 'New space' }));
    const dialog = screen.getByRole('dialog', { name: 'New space' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(document.activeElement).toBe(name);
    fireEvent.change(name, { target: { value: 'work' } });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Violet' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create space' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('already a space named');
    fireEvent.change(name, { target: { value: 'Client A' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create space' }));
    const button = await screen.findByRole('button', { name: 'Space: Client A' });
    expect(screen.queryByRole('dialog', { name: 'New space' })).toBeNull();
    expect(backend.callsTo('spaces.create').at(-1)).toEqual({ name: 'Client A', colour: '#7c3aed' });
    expect(button.getAttribute('style')).toContain('#7c3aed');
    expect(document.activeElement).toBe(button);
  });

  it('renames (F2) and recolours (arrow keys in the palette) the highlighted space', async () => {
    const work = spaces.seed('Work', '#2563eb');
    await start();
    await openList();
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    fireEvent.keyDown(document.activeElement!, { key: 'F2' });
    const dialog = screen.getByRole('dialog', { name: 'Edit space “Work”' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Office' } });
    fireEvent.keyDown(within(dialog).getByRole('radio', { name: 'Blue' }), { key: 'ArrowRight' });
    expect(within(dialog).getByRole('radio', { name: 'Green' }).getAttribute('aria-checked')).toBe('true');
    expect(document.activeElement).toBe(within(dialog).getByRole('radio', { name: 'Green' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(backend.callsTo('spaces.rename')).toEqual([{ id: work.id, name: 'Office' }]);
    expect(backend.callsTo('spaces.recolour')).toEqual([{ id: work.id, colour: '#16a34a' }]);
    // Still in Personal: editing a space does not switch to it.
    expect(switcher('Personal')).toBeTruthy();
  });
});

describe('deleting a space', () => {
  it('needs the name typed, offers Export first, and can be undone from the toast', async () => {
    const work = spaces.seed('Work', '#2563eb', { conversations: 2, memoryFiles: 5 });
    backend.impl['memory.export'] = () => ({
      saved: false,
      downloadUrl: '/download/x',
      fileName: 'Work.zip',
      skipped: [],
    });
    await start();
    await openList();
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Work' }));
    // Counted again when the dialog opens: a file written there since the list was last counted shows.
    work.memoryFiles = 6;
    const dialog = screen.getByRole('alertdialog', { name: 'Delete space “Work”?' });
    await waitFor(() => expect(dialog.textContent).toContain('2 conversations · 6 memory files'));
    const typed = within(dialog).getByRole('textbox', { name: 'Type Work to confirm' });
    expect(document.activeElement).toBe(typed);
    const remove = within(dialog).getByRole('button', { name: 'Delete space' }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    fireEvent.change(typed, { target: { value: 'work' } });
    expect(remove.disabled).toBe(true);
    fireEvent.submit(typed);
    expect(backend.callsTo('spaces.delete')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Export first' }));
    await waitFor(() => expect(backend.callsTo('memory.export')).toHaveLength(1));
    fireEvent.change(typed, { target: { value: 'Work' } });
    await waitFor(() => expect(remove.disabled).toBe(false));
    fireEvent.click(remove);
    await waitFor(() => expect(backend.callsTo('spaces.delete')).toEqual([{ id: work.id }]));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    const toast = await screen.findByText('Deleted space “Work”.');
    const list = await openList();
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(1));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });

    fireEvent.click(within(toast.closest('.toast') as HTMLElement).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(backend.callsTo('spaces.restore')).toEqual([{ id: work.id }]));
    await screen.findByText('Restored space “Work”.');
    const again = await openList();
    await waitFor(() => expect(within(again).getAllByRole('option')).toHaveLength(2));
    expect(within(again).getAllByRole('option')[1]!.textContent).toContain(
      '2 conversations · 6 memory files',
    );
  });

  it('restores from "Recently deleted" once the toast is gone; the dialog says how long it is kept', async () => {
    const work = spaces.seed('Work', '#16a34a', { conversations: 2, memoryFiles: 4 });
    spaces.seed('Home');
    await start();
    await openList();
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(3));
    // Nothing in the trash: no section.
    expect(screen.queryByRole('button', { name: /Recently deleted/ })).toBeNull();
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Work' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete space “Work”?' });
    expect(dialog.textContent).toContain('restore it from “Recently deleted” in this list for 30 days');
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: 'Work' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete space' }));
    await screen.findByText('Deleted space “Work”.');
    act(() => useToasts.setState({ toasts: [] })); // the Undo toast has expired

    const list = await openList();
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(2));
    const toggle = await screen.findByRole('button', { name: 'Recently deleted (1)' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    const trash = screen.getByRole('list', { name: 'Recently deleted' });
    expect(trash.textContent).toContain('Work');
    expect(trash.textContent).toMatch(/Deleted .+ · kept until .+/);
    fireEvent.click(within(trash).getByRole('button', { name: 'Restore Work' }));
    await waitFor(() => expect(backend.callsTo('spaces.restore')).toEqual([{ id: work.id }]));
    await screen.findByText('Restored space “Work”.');
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(3));
    expect(screen.queryByRole('button', { name: /Recently deleted/ })).toBeNull();
    // The window stayed where it was.
    expect(switcher('Personal')).toBeTruthy();
  });

  it('goes back to Personal when the current space is deleted; Escape cancels without deleting', async () => {
    const work = spaces.seed('Work');
    await start();
    await act(() => switchSpace(work.id));
    await openList('Work');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    fireEvent.keyDown(document.activeElement!, { key: 'Delete' });
    const dialog = screen.getByRole('alertdialog', { name: 'Delete space “Work”?' });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(switcher('Work'));
    expect(backend.callsTo('spaces.delete')).toEqual([]);

    await openList('Work');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Work' }));
    const again = screen.getByRole('alertdialog', { name: 'Delete space “Work”?' });
    fireEvent.change(within(again).getByRole('textbox'), { target: { value: 'Work' } });
    fireEvent.click(within(again).getByRole('button', { name: 'Delete space' }));
    await screen.findByRole('button', { name: 'Space: Personal' });
  });
});

describe('settings in a space', () => {
  it('say which spaces the write mode and the memory loaded at the start apply to', async () => {
    const work = spaces.seed('Work');
    await start();
    act(() => useUi.setState({ settingsOpen: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Settings' });
    await waitFor(() =>
      expect(dialog.textContent).toContain('apply to Personal and to every space without its own setting'),
    );
    act(() => useUi.setState({ settingsOpen: false }));
    await act(() => switchSpace(work.id));
    act(() => useUi.setState({ settingsOpen: true }));
    const again = await screen.findByRole('dialog', { name: 'Settings' });
    await waitFor(() => expect(again.textContent).toContain('apply to the space “Work” only'));
  });
});
