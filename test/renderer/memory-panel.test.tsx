// The Memory tab in jsdom against a small in-memory backend: the tree, facts with Forget and Undo, delete
// with confirmation and Undo, search highlighting, live updates on memory.changed.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../renderer/api';
import { resetHost } from '../../renderer/features/memory/host';
import { useChat } from '../../renderer/store/chat';
import { pageSize } from '../../renderer/store/transcripts';
import { resetMemoryStore } from '../../renderer/store/memory';
import { useToasts } from '../../renderer/store/toast';
import { callsTo, createFakeBackend, type FakeBackend } from './memory-fake-backend';
import { renderMemoryPanel } from './window-setup';

let backend: FakeBackend;
let unbind: () => void;

function setup(seed: Parameters<typeof createFakeBackend>[0]) {
  backend = createFakeBackend(seed);
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

const prefs = '# Preferences\n\n- Likes green tea\n- Vegetarian since 2019\n- Prefers metric units\n';

describe('the memory tree', () => {
  it('lists files by path with sizes, times, Open and Delete, inside folders that collapse', async () => {
    const panel = setup({
      '/memories/preferences.md': prefs,
      '/memories/projects/mnemo.md': {
        content: 'Ship the panel.\n',
        stale: true,
        lastReadAt: '2025-01-01T00:00:00Z',
      },
    });
    const item = await within(panel).findByRole('listitem', { name: '/memories/preferences.md' });
    expect(within(item).getByRole('button', { name: 'Open' })).toBeTruthy();
    expect(within(item).getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(item.textContent).toContain(`${prefs.length} B`);
    expect(item.textContent).toContain('never read');

    const nested = within(panel).getByRole('listitem', { name: '/memories/projects/mnemo.md' });
    expect(within(nested).getByText('Stale')).toBeTruthy();
    expect(nested.textContent).toMatch(/read .*ago|read last/);

    const folder = within(panel).getByRole('listitem', { name: '/memories/projects' });
    const toggle = within(folder).getByRole('button', { name: /projects/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(toggle);
    expect(within(panel).queryByRole('listitem', { name: '/memories/projects/mnemo.md' })).toBeNull();
    expect(within(panel).getByRole('listitem', { name: '/memories/preferences.md' })).toBeTruthy();
  });

  it('shows an empty state when nothing is remembered', async () => {
    const panel = setup({});
    expect(await within(panel).findByText('Nothing remembered yet')).toBeTruthy();
  });

  it('updates live when another actor writes a file', async () => {
    const panel = setup({ '/memories/preferences.md': prefs });
    await within(panel).findByRole('listitem', { name: '/memories/preferences.md' });
    backend.files.set('/memories/dinner.md', {
      content: '- Book a table for Friday\n',
      modifiedAt: new Date().toISOString(),
      lastReadAt: null,
      stale: false,
    });
    act(() =>
      backend.emit('memory.changed', { actor: 'agent', command: 'create', path: '/memories/dinner.md' }),
    );
    expect(await within(panel).findByRole('listitem', { name: '/memories/dinner.md' })).toBeTruthy();
  });
});

describe('opening a file', () => {
  it('by clicking its name, like its Open button; the opened file is headed by its path', async () => {
    const panel = setup({ '/memories/preferences.md': prefs });
    const item = await within(panel).findByRole('listitem', { name: '/memories/preferences.md' });
    fireEvent.click(within(item).getByText('preferences.md'));
    expect(await within(panel).findByRole('heading', { name: '/memories/preferences.md' })).toBeTruthy();
    expect(await within(panel).findByRole('listitem', { name: 'Likes green tea' })).toBeTruthy();
  });
});

describe('facts', () => {
  it('shows each fact as a list item and forgets one, leaving the others; Undo brings it back', async () => {
    const panel = setup({ '/memories/preferences.md': prefs });
    const item = await within(panel).findByRole('listitem', { name: '/memories/preferences.md' });
    fireEvent.click(within(item).getByRole('button', { name: 'Open' }));
    const fact = await within(panel).findByRole('listitem', { name: 'Vegetarian since 2019' });
    expect(within(panel).getByRole('listitem', { name: 'Likes green tea' })).toBeTruthy();

    fireEvent.click(within(fact).getByRole('button', { name: 'Forget' }));
    await waitFor(() =>
      expect(within(panel).queryByRole('listitem', { name: 'Vegetarian since 2019' })).toBeNull(),
    );
    expect(backend.files.get('/memories/preferences.md')!.content).toBe(
      '# Preferences\n\n- Likes green tea\n- Prefers metric units\n',
    );
    const [forget] = callsTo(backend, 'memory.forgetFact') as { baseVersion: string }[];
    expect(forget!.baseVersion).toMatch(/^[0-9a-f]{64}$/);

    const toast = await screen.findByText(/Forgot “Vegetarian since 2019”/);
    fireEvent.click(within(toast.closest('.toast') as HTMLElement).getByRole('button', { name: 'Undo' }));
    expect(await within(panel).findByRole('listitem', { name: 'Vegetarian since 2019' })).toBeTruthy();
    expect(backend.files.get('/memories/preferences.md')!.content).toBe(prefs);
  });
});

describe('delete', () => {
  it('asks first, deletes, and Undo restores the file', async () => {
    const panel = setup({ '/memories/preferences.md': prefs, '/memories/other.md': 'x\n' });
    const item = await within(panel).findByRole('listitem', { name: '/memories/preferences.md' });
    fireEvent.click(within(item).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: /Delete preferences.md/ });
    expect(backend.files.has('/memories/preferences.md')).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(within(panel).queryByRole('listitem', { name: '/memories/preferences.md' })).toBeNull(),
    );
    expect(backend.files.has('/memories/preferences.md')).toBe(false);

    const toast = await screen.findByText('Deleted /memories/preferences.md');
    fireEvent.click(within(toast.closest('.toast') as HTMLElement).getByRole('button', { name: 'Undo' }));
    expect(await within(panel).findByRole('listitem', { name: '/memories/preferences.md' })).toBeTruthy();
    expect(backend.files.get('/memories/preferences.md')!.content).toBe(prefs);
  });

  it('Cancel keeps the file', async () => {
    const panel = setup({ '/memories/preferences.md': prefs });
    const item = await within(panel).findByRole('listitem', { name: '/memories/preferences.md' });
    fireEvent.click(within(item).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(callsTo(backend, 'memory.delete')).toHaveLength(0);
  });

  it('"Forget permanently" needs the file name typed', async () => {
    const panel = setup({ '/memories/preferences.md': prefs });
    const item = await within(panel).findByRole('listitem', { name: '/memories/preferences.md' });
    fireEvent.click(within(item).getByRole('button', { name: 'Open' }));
    fireEvent.click(await within(panel).findByRole('button', { name: 'Forget permanently' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Forget permanently?' });
    const confirm = within(dialog).getByRole('button', { name: 'Forget permanently' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/Type/), { target: { value: 'preferences.md' } });
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    await waitFor(() => expect(backend.files.has('/memories/preferences.md')).toBe(false));
    expect(callsTo(backend, 'memory.forget')).toEqual([{ path: '/memories/preferences.md' }]);
  });

  it('"Forget permanently" reloads the open conversation, whose copies of the file were redacted', async () => {
    useChat.setState({ conversationId: 'c1' });
    const panel = setup({ '/memories/preferences.md': prefs });
    const item = await within(panel).findByRole('listitem', { name: '/memories/preferences.md' });
    fireEvent.click(within(item).getByRole('button', { name: 'Open' }));
    fireEvent.click(await within(panel).findByRole('button', { name: 'Forget permanently' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Forget permanently?' });
    expect(dialog.textContent).toContain('every copy of it in your conversations');
    fireEvent.change(within(dialog).getByLabelText(/Type/), { target: { value: 'preferences.md' } });
    expect(callsTo(backend, 'conversations.get')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Forget permanently' }));
    await waitFor(() =>
      expect(callsTo(backend, 'conversations.get')).toEqual([{ id: 'c1', limit: pageSize() }]),
    );
    useChat.setState({ conversationId: null });
  });
});

describe('in Electron (the main side confirms natively)', () => {
  const electron = () => {
    backend.impl['app.info'] = () => ({
      version: '0.0.0',
      host: 'electron',
      dataDir: '/d',
      platform: 'linux',
    });
    resetHost();
  };

  it('"Forget permanently" does not ask a second time in the panel', async () => {
    const panel = setup({ '/memories/preferences.md': prefs });
    electron();
    const item = await within(panel).findByRole('listitem', { name: '/memories/preferences.md' });
    fireEvent.click(within(item).getByRole('button', { name: 'Open' }));
    fireEvent.click(await within(panel).findByRole('button', { name: 'Forget permanently' }));
    await waitFor(() =>
      expect(callsTo(backend, 'memory.forget')).toEqual([{ path: '/memories/preferences.md' }]),
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(await screen.findByText('/memories/preferences.md and its history are gone.')).toBeTruthy();
  });

  it('deleting a folder goes to the native confirmation; deleting a file still asks in the panel', async () => {
    const panel = setup({ '/memories/trips/lisbon.md': 'x\n', '/memories/other.md': 'y\n' });
    electron();
    const folder = await within(panel).findByRole('listitem', { name: '/memories/trips' });
    fireEvent.click(within(folder).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(callsTo(backend, 'memory.delete')).toEqual([{ path: '/memories/trips' }]));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    // The Undo toast is still offered.
    const toast = await screen.findByText('Deleted /memories/trips');
    expect(within(toast.closest('.toast') as HTMLElement).getByRole('button', { name: 'Undo' })).toBeTruthy();

    const file = await within(panel).findByRole('listitem', { name: '/memories/other.md' });
    fireEvent.click(within(file).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alertdialog', { name: /Delete other.md/ })).toBeTruthy();
  });
});

describe('search', () => {
  it('highlights exactly the matched text of each hit', async () => {
    const panel = setup({
      '/memories/preferences.md': prefs,
      '/memories/tea.md': '- Green tea, not black TEA\n',
    });
    await within(panel).findByRole('listitem', { name: '/memories/preferences.md' });
    fireEvent.change(within(panel).getByRole('searchbox', { name: 'Search memory' }), {
      target: { value: 'tea' },
    });
    const results = await within(panel).findByRole('region', { name: 'Search results' });
    await within(results).findByText(/2 matches in 2 files/);
    const marks = [...results.querySelectorAll('mark')].map((m) => m.textContent);
    expect(marks).toEqual(['tea', 'tea', 'TEA']);
    const hit = within(results).getByRole('button', { name: /\/memories\/tea\.md/ });
    expect(hit.textContent).toContain('- Green tea, not black TEA');
    fireEvent.click(hit);
    expect(await within(panel).findByRole('listitem', { name: 'Green tea, not black TEA' })).toBeTruthy();
  });

  it('says so when nothing matches', async () => {
    const panel = setup({ '/memories/preferences.md': prefs });
    await within(panel).findByRole('listitem', { name: '/memories/preferences.md' });
    fireEvent.change(within(panel).getByRole('searchbox', { name: 'Search memory' }), {
      target: { value: 'zebra' },
    });
    expect(await within(panel).findByText('Nothing in memory matches “zebra”.')).toBeTruthy();
  });
});

describe('a large memory', () => {
  it('keeps the DOM bounded: 5,000 files render only the rows in view', async () => {
    const seed: Record<string, string> = {};
    for (let i = 0; i < 5_000; i++) {
      seed[
        `/memories/topic-${String(Math.floor(i / 50)).padStart(3, '0')}/note-${String(i).padStart(5, '0')}.md`
      ] = `- note ${i}\n`;
    }
    const panel = setup(seed);
    await within(panel).findByRole('listitem', { name: '/memories/topic-000' });
    const rows = within(panel).getAllByRole('listitem');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(60);
    // Folders first, then their files, in natural order; the set size tells assistive tech the whole count.
    expect(rows.slice(0, 3).map((r) => r.getAttribute('aria-label'))).toEqual([
      '/memories/topic-000',
      '/memories/topic-000/note-00000.md',
      '/memories/topic-000/note-00001.md',
    ]);
    expect(rows[0]!.getAttribute('aria-setsize')).toBe(String(5_000 + 100));
    expect(within(panel).getByText('5000 files', { exact: false })).toBeTruthy();
  });
});

describe('create, rename and review', () => {
  it('creates a file from a typed name, then renames it', async () => {
    const panel = setup({ '/memories/preferences.md': prefs });
    await within(panel).findByRole('listitem', { name: '/memories/preferences.md' });
    fireEvent.click(within(panel).getAllByRole('button', { name: 'New file' })[0]!);
    let dialog = await screen.findByRole('dialog', { name: 'New memory file' });
    const input = within(dialog).getByLabelText('Path');
    fireEvent.change(input, { target: { value: '../etc/passwd' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/without “\.” or “\.\.”/);
    fireEvent.change(input, { target: { value: 'notes/ideas' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(backend.files.has('/memories/notes/ideas.md')).toBe(true));
    expect(await within(panel).findByRole('heading', { name: '/memories/notes/ideas.md' })).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: 'Rename' }));
    dialog = await screen.findByRole('dialog', { name: 'Rename file' });
    fireEvent.change(within(dialog).getByLabelText('Path'), {
      target: { value: '/memories/notes/plans.md' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await within(panel).findByRole('heading', { name: '/memories/notes/plans.md' })).toBeTruthy();
    expect([...backend.files.keys()].sort()).toEqual([
      '/memories/notes/plans.md',
      '/memories/preferences.md',
    ]);
  });

  it('lists stale files for review', async () => {
    const panel = setup({
      '/memories/fresh.md': '- new\n',
      '/memories/old.md': { content: '- old\n', stale: true, lastReadAt: '2024-01-01T00:00:00Z' },
    });
    const review = await within(panel).findByRole('region', { name: 'Stale files' });
    fireEvent.click(within(review).getByRole('button', { name: /1 file has not been read in a long time/ }));
    const item = within(review).getByRole('listitem', { name: 'Stale: /memories/old.md' });
    fireEvent.click(within(item).getByRole('button', { name: 'Review' }));
    expect(await within(panel).findByRole('listitem', { name: 'old' })).toBeTruthy();
  });
});
