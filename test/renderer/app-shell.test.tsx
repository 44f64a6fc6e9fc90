// The shell around the chat: the first-run screen while no API key is set, settings (the key's status
// only, never the key; choices saved at once; numbers checked against the schema's range), the
// conversations sidebar (open, rename, delete with Undo, search, temporary chat) and the shortcuts.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../renderer/api';
import { App } from '../../renderer/app';
import { boot } from '../../renderer/boot';
import { useChat } from '../../renderer/store/chat';
import { useConversations } from '../../renderer/store/conversations';
import { useSettings } from '../../renderer/store/settings';
import { useToasts } from '../../renderer/store/toast';
import { useUi } from '../../renderer/store/ui';
import { createChatBackend, type ChatBackend } from './chat-backend';
import { installLayoutShim } from './layout-shim';

let backend: ChatBackend;
let shutdown: () => void = () => undefined;
let removeShim: () => void;

beforeAll(() => {
  removeShim = installLayoutShim();
});
afterAll(() => removeShim());

function seedConversation(
  id: string,
  title: string,
  text: string,
  updatedAt = '2026-03-01T12:00:00.000Z',
): void {
  backend.conversations.set(id, {
    summary: { id, title, createdAt: updatedAt, updatedAt, memory: true, messageCount: 2 },
    items: [
      { kind: 'user', id: `${id}-u`, text, pinned: false },
      {
        kind: 'assistant',
        id: `${id}-a`,
        text: `About ${text}`,
        streaming: false,
        pinned: false,
        interrupted: false,
      },
    ],
  });
}

async function start(): Promise<void> {
  setApi(backend.api);
  render(<App />);
  shutdown = await act(() => boot(backend.api));
}

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  backend = createChatBackend();
  // The side panels' channels are not part of these tests: answer them with empty data.
  backend.impl['memory.list'] = () => ({ entries: [], totalBytes: 0 });
  backend.impl['memory.stale'] = () => ({ entries: [] });
  useSettings.setState({ view: null, info: null, loadError: null });
  useConversations.setState({ list: [], loaded: false, query: '', results: null, hidden: new Set() });
  useChat.setState({ conversationId: null, items: [], runs: {}, activeRunId: null });
  useToasts.setState({ toasts: [] });
  useUi.setState({ settingsOpen: false, helpOpen: false });
});
afterEach(() => {
  cleanup();
  shutdown();
  setApi(null);
});

describe('first run', () => {
  it('asks for the API key while none is set, then opens the app', async () => {
    backend.settings = {
      ...backend.settings,
      apiKey: { hasApiKey: false, source: 'none', insecureStorage: false },
    };
    await start();
    expect(screen.getByRole('heading', { name: 'Welcome to Mnemo' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save and start' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Paste your Anthropic API key first.');
    const input = screen.getByLabelText('API key');
    expect(input.getAttribute('type')).toBe('password');
    fireEvent.change(input, { target: { value: 'sk-ant-test-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and start' }));
    await screen.findByRole('textbox', { name: 'Message' });
    expect(backend.callsTo('settings.setApiKey')).toEqual([{ apiKey: 'sk-ant-test-123' }]);
  });

  it('warns before saving when the key would be stored unencrypted (no system keychain)', async () => {
    backend.settings = {
      ...backend.settings,
      apiKey: { hasApiKey: false, source: 'none', insecureStorage: true },
    };
    await start();
    await screen.findByRole('heading', { name: 'Welcome to Mnemo' });
    expect(screen.getByRole('note').textContent).toContain('not encrypted');
  });
  it('says why a stored key is not used when this face cannot read it (issue 11)', async () => {
    const problem =
      "The saved key was encrypted by the desktop app's keychain and can't be read here: set ANTHROPIC_API_KEY or enter the key again";
    backend.settings = {
      ...backend.settings,
      apiKey: { hasApiKey: false, source: 'none', insecureStorage: true, problem },
    };
    await start();
    await screen.findByRole('heading', { name: 'Welcome to Mnemo' });
    expect(screen.getByRole('status').textContent).toBe(problem);
    expect(screen.getByLabelText('API key')).toBeTruthy();
  });
});

describe('settings', () => {
  it('shows where the key comes from (never the key), saves choices and refuses numbers out of range', async () => {
    await start();
    fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    expect(dialog.textContent).toContain('A key is set (from the environment: ANTHROPIC_API_KEY).');
    expect(dialog.textContent).toContain('/data/mnemo');

    fireEvent.click(within(dialog).getByRole('radio', { name: /Ask me/ }));
    await waitFor(() =>
      expect(backend.callsTo('settings.set')).toEqual([{ patch: { memoryWriteMode: 'ask' } }]),
    );
    await waitFor(() =>
      expect(within(dialog).getByRole('radio', { name: /Ask me/ })).toHaveProperty('checked', true),
    );

    const turns = within(dialog).getByRole('textbox', { name: 'Tool turns per answer' });
    fireEvent.change(turns, { target: { value: '999' } });
    fireEvent.blur(turns);
    expect(dialog.textContent).toContain('Enter a whole number from 1 to 200.');
    expect(backend.callsTo('settings.set')).toHaveLength(1);
    fireEvent.change(turns, { target: { value: '40' } });
    fireEvent.keyDown(turns, { key: 'Enter' });
    await waitFor(() => expect(backend.callsTo('settings.set').at(-1)).toEqual({ patch: { maxTurns: 40 } }));

    fireEvent.click(within(dialog).getByRole('radio', { name: 'Dark' }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));

    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull();
  });
});

describe('conversations sidebar', () => {
  it('opens, renames, deletes with Undo, and searches conversations', async () => {
    seedConversation('c1', 'Dinner plans', 'pasta', '2026-03-02T12:00:00.000Z');
    seedConversation('c2', 'Trip', 'Lisbon', '2026-03-01T12:00:00.000Z');
    backend.impl['conversations.rename'] = (req) => {
      const c = backend.conversations.get(req.id)!;
      c.summary = { ...c.summary, title: req.title };
      return { conversation: c.summary };
    };
    backend.impl['conversations.search'] = (req) => ({
      results: [...backend.conversations.values()]
        .filter((c) => c.items.some((i) => 'text' in i && i.text.includes(req.query)))
        .map((c) => ({ id: c.summary.id, title: c.summary.title, snippet: `…${req.query}…` })),
    });
    await start();
    const nav = screen.getByRole('navigation', { name: 'Conversations' });
    await within(nav).findByRole('button', { name: 'Delete “Trip”' });
    const rows = within(nav)
      .getAllByRole('listitem')
      .map((li) => within(li).getAllByRole('button')[0]!);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('Dinner plans'),
      expect.stringContaining('Trip'),
    ]);

    fireEvent.click(rows[1]!);
    const log = await screen.findByRole('log', { name: 'Conversation' });
    await waitFor(() => expect(log.textContent).toContain('About Lisbon'));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Trip');

    fireEvent.click(within(nav).getByRole('button', { name: 'Rename “Trip”' }));
    const title = within(nav).getByRole('textbox', { name: 'Conversation title' });
    fireEvent.change(title, { target: { value: 'Lisbon trip' } });
    fireEvent.keyDown(title, { key: 'Enter' });
    await waitFor(() =>
      expect(backend.callsTo('conversations.rename')).toEqual([{ id: 'c2', title: 'Lisbon trip' }]),
    );
    await within(nav).findByRole('button', { name: 'Delete “Lisbon trip”' });

    // Deleted at once (the backend keeps it in its trash); Undo restores it from there.
    const trash = new Map<string, typeof backend.conversations extends Map<string, infer C> ? C : never>();
    backend.impl['conversations.delete'] = (req) => {
      trash.set(req.id, backend.conversations.get(req.id)!);
      backend.conversations.delete(req.id);
      return { ok: true };
    };
    backend.impl['conversations.restore'] = (req) => {
      const c = trash.get(req.id)!;
      backend.conversations.set(req.id, c);
      return { conversation: c.summary };
    };
    fireEvent.click(within(nav).getByRole('button', { name: 'Delete “Dinner plans”' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete this conversation?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(within(nav).queryByRole('button', { name: 'Delete “Dinner plans”' })).toBeNull();
    await waitFor(() => expect(backend.callsTo('conversations.delete')).toEqual([{ id: 'c1' }]));
    expect(within(nav).queryByRole('button', { name: 'Delete “Dinner plans”' })).toBeNull();
    fireEvent.click(
      within(screen.getByRole('region', { name: 'Notifications' })).getByRole('button', { name: 'Undo' }),
    );
    await within(nav).findByRole('button', { name: 'Delete “Dinner plans”' });
    expect(backend.callsTo('conversations.restore')).toEqual([{ id: 'c1' }]);

    fireEvent.change(within(nav).getByRole('searchbox', { name: 'Search conversations' }), {
      target: { value: 'pasta' },
    });
    const results = await within(nav).findByRole('list', { name: 'Search results' });
    expect(
      within(results)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([expect.stringContaining('Dinner plans')]);
  });

  it('search marks the matched words and opens the message; "Don\'t search" marks the conversation', async () => {
    seedConversation('c1', 'Dinner plans', 'pasta', '2026-03-02T12:00:00.000Z');
    backend.impl['conversations.search'] = () => ({
      results: [
        {
          id: 'c1',
          title: 'Dinner plans',
          snippet: 'We ate Pasta twice',
          messageId: 'm1',
          ranges: [[7, 12]],
        },
      ],
    });
    backend.impl['conversations.searchable'] = (req) => {
      const c = backend.conversations.get(req.id)!;
      c.summary = { ...c.summary, ...(req.searchable ? {} : { noSearch: true as const }) };
      return { conversation: c.summary };
    };
    await start();
    const nav = screen.getByRole('navigation', { name: 'Conversations' });
    fireEvent.click(await within(nav).findByRole('button', { name: "Don't search “Dinner plans”" }));
    await within(nav).findByRole('button', { name: 'Search “Dinner plans” again' });
    expect(backend.callsTo('conversations.searchable')).toEqual([{ id: 'c1', searchable: false }]);

    fireEvent.change(within(nav).getByRole('searchbox', { name: 'Search conversations' }), {
      target: { value: 'pastas' },
    });
    const results = await within(nav).findByRole('list', { name: 'Search results' });
    const marks = results.querySelectorAll('mark');
    expect([...marks].map((m) => m.textContent)).toEqual(['Pasta']);
    fireEvent.click(within(results).getByRole('button'));
    const log = await screen.findByRole('log', { name: 'Conversation' });
    await waitFor(() => expect(log.textContent).toContain('pasta'));
  });

  it('"New chat without memory" starts a temporary chat', async () => {
    await start();
    fireEvent.click(screen.getByRole('button', { name: 'New chat without memory' }));
    await screen.findByText(/Temporary chat: memory is off/);
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'just once' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(backend.callsTo('chat.send')).toEqual([{ text: 'just once', memory: false }]));
  });
});

describe('shortcuts', () => {
  it('? opens the list of shortcuts; Ctrl+. hides the side panel; Ctrl+Shift+F opens memory search', async () => {
    await start();
    fireEvent.keyDown(document.body, { key: '?' });
    const help = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(
      within(help)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(
      expect.arrayContaining([
        expect.stringContaining('New chat'),
        expect.stringContaining('Stop the answer'),
      ]),
    );
    fireEvent.keyDown(help, { key: 'Escape' });
    expect(screen.getByRole('tab', { name: 'Memory' })).toBeTruthy();
    fireEvent.keyDown(document.body, { key: '.', ctrlKey: true });
    expect(screen.queryByRole('tab', { name: 'Memory' })).toBeNull();
    const before = useUi.getState().focusMemorySearch;
    fireEvent.keyDown(document.body, { key: 'F', ctrlKey: true, shiftKey: true });
    expect(screen.getByRole('tab', { name: 'Memory' }).getAttribute('aria-selected')).toBe('true');
    expect(useUi.getState().focusMemorySearch).toBe(before + 1);
  });
});
