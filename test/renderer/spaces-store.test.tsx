// The window's space through the renderer's real client transport (test/renderer/space-wire.ts): after
// switchSpace every store's call names the new space and is answered there only, the panels show only that
// space, events of other spaces change nothing on screen (not even for a moment), and the space survives
// a reload of the page (sessionStorage). The server side of the same rules runs against the real backend in
// test/integration/transports/spaces-routing.test.ts.
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../shared/channels/conversations';
import { isSpaceFree } from '../../shared/contract';
import { getApi, setApi } from '../../renderer/api';
import { boot } from '../../renderer/boot';
import { ContextPanel } from '../../renderer/features/context';
import { ActivityPanel } from '../../renderer/features/tool-log';
import { resetActivityStore, setActivityFilter, useActivityStore } from '../../renderer/store/activity';
import { useChat } from '../../renderer/store/chat';
import { loadContext, resetContextStore } from '../../renderer/store/context';
import { useConversations } from '../../renderer/store/conversations';
import {
  createFile,
  loadHistory,
  loadStale,
  openFile,
  resetMemoryStore,
  search,
  useMemoryStore,
} from '../../renderer/store/memory';
import { useSettings } from '../../renderer/store/settings';
import { resetSpacesStore, switchSpace, useSpaces } from '../../renderer/store/spaces';
import { useToasts } from '../../renderer/store/toast';
import { useUi } from '../../renderer/store/ui';
import { reloadCurrentSpaceId } from '../../renderer/transport/current-space';
import { createSpaceWire, type SpaceWire } from './space-wire';
import { resetWindowStores } from './window-setup';

let wire: SpaceWire;
let shutdown: () => void = () => undefined;

beforeEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  reloadCurrentSpaceId();
  resetSpacesStore();
  resetMemoryStore();
  resetContextStore();
  resetActivityStore();
  resetWindowStores();
  wire = createSpaceWire({
    personal: { '/memories/personal.md': '- PERSONAL only\n' },
    work01: { '/memories/work.md': '- WORK only\n' },
  });
  setApi(wire.api);
});

afterEach(() => {
  cleanup();
  shutdown();
  shutdown = () => undefined;
  setApi(null);
  useUi.setState({ panelOpen: false });
});

const files = () => useMemoryStore.getState().entries.map((e) => e.path);
const spacedAnswers = () => wire.answered.filter(([channel]) => !isSpaceFree(channel));

describe('the window’s space', () => {
  it('starts in Personal; after switchSpace every store call runs in the new space only', async () => {
    shutdown = await boot(getApi());
    expect(useSpaces.getState().current).toBe('personal');
    expect(spacedAnswers().every(([, space]) => space === 'personal')).toBe(true);

    wire.answered.length = 0;
    await switchSpace('work01');
    expect(useSpaces.getState().current).toBe('work01');
    await waitFor(() => expect(files()).toEqual(['/memories/work.md']));
    expect(useSettings.getState().view?.settings.memoryWriteMode).toBe('ask');
    // What a person does in the window next.
    await openFile('/memories/work.md');
    await search('only');
    await loadHistory('/memories/work.md');
    await loadStale();
    await createFile('/memories/new.md', '- made in Work\n');
    await useConversations.getState().search('Client');
    await loadContext('c1');
    await useChat.getState().open('c1');

    expect(useMemoryStore.getState().hits.map((h) => h.path)).toEqual(['/memories/work.md']);
    const answers = spacedAnswers();
    expect(new Set(answers.map(([channel]) => channel)).size).toBeGreaterThan(8);
    expect(answers.filter(([, space]) => space !== 'work01')).toEqual([]);
    expect([...wire.spaces.get('work01')!.files.keys()]).toContain('/memories/new.md');
    expect([...wire.spaces.get('personal')!.files.keys()]).toEqual(['/memories/personal.md']);

    await switchSpace('personal');
    await waitFor(() => expect(files()).toEqual(['/memories/personal.md']));
    expect(useSettings.getState().view?.settings.memoryWriteMode).toBe('automatic');
  });

  it('applies only its own space’s events, never for a moment, and keeps its space across a reload', async () => {
    shutdown = await boot(getApi());
    await switchSpace('work01');
    await waitFor(() => expect(files()).toEqual(['/memories/work.md']));
    await openFile('/memories/work.md');
    const shown = new Set<string>();
    const unwatch = useConversations.subscribe((s) => s.list.forEach((c) => shown.add(c.title)));
    const reads = () => wire.answered.filter(([c]) => c === 'memory.read').length;
    const readsBefore = reads();

    // Another window changes Personal: a file of the same path, its conversation list.
    wire.emit('personal', 'memory.changed', { actor: 'user', command: 'write', path: '/memories/work.md' });
    wire.emit('personal', 'conversations.changed', {
      conversations: [
        { id: 'p1', title: 'Personal chat', createdAt: 'x', updatedAt: 'x', memory: true, messageCount: 1 },
      ],
    });
    await wire.settle();
    expect(useMemoryStore.getState().lastChange).toBeNull();
    expect(reads()).toBe(readsBefore);
    expect(useMemoryStore.getState().changedOnDisk).toBe(false);
    expect(useConversations.getState().list).toEqual([]);
    // The switcher's count for Personal follows, though.
    expect(useSpaces.getState().list.find((s) => s.id === 'personal')?.conversations).toBe(1);

    // The same in Work is applied.
    wire.emit('work01', 'conversations.changed', {
      conversations: [
        { id: 'w1', title: 'Work chat', createdAt: 'x', updatedAt: 'x', memory: true, messageCount: 1 },
      ],
    });
    await waitFor(() => expect(useConversations.getState().list.map((c) => c.title)).toEqual(['Work chat']));
    unwatch();
    expect([...shown]).toEqual(['Work chat']);

    // A reload: the page's modules start again from sessionStorage.
    shutdown();
    resetMemoryStore();
    reloadCurrentSpaceId();
    resetSpacesStore();
    expect(useSpaces.getState().current).toBe('work01');
    wire.answered.length = 0;
    shutdown = await boot(getApi());
    await createFile('/memories/after-reload.md', 'x');
    expect(spacedAnswers().filter(([, space]) => space !== 'work01')).toEqual([]);
    expect(spacedAnswers().length).toBeGreaterThan(3);
  });

  it('Activity and Context show the current space, and start again empty on a switch', async () => {
    // The same conversation in both spaces, as after "Move to space…" (the window follows it, keeping its
    // id): what Personal's tabs knew of it must not show in Work, and Work's is measured.
    const personal = wire.spaces.get('personal')!;
    personal.transcript = [
      { kind: 'user', id: 'm1', text: 'What do I like?', pinned: false },
      {
        kind: 'tool',
        id: 't1',
        toolUseId: 'toolu_1',
        name: 'memory',
        input: { command: 'view', path: '/memories' },
        result: 'personal.md',
        isError: false,
        durationMs: 12,
        at: '2026-03-01T12:00:01Z',
      },
    ];
    const work = wire.spaces.get('work01')!;
    work.usage = { ...work.usage, total: 9_000 };
    useUi.setState({ panelOpen: true, panelTab: 'activity' });
    shutdown = await boot(getApi());
    render(
      <>
        <ActivityPanel />
        <ContextPanel />
      </>,
    );
    const activity = screen.getByRole('region', { name: 'Activity' });
    const context = screen.getByRole('region', { name: 'Context' });
    const label = (region: HTMLElement) => region.querySelector('[data-space-label]')?.textContent;
    expect([label(activity), label(context)]).toEqual(['Tool calls inPersonal', 'Memory fromPersonal']);

    await useChat.getState().open('c1');
    await within(activity).findByRole('listitem', { name: 'memory · view /memories' });
    setActivityFilter('memory');
    const meter = () => within(context).getByRole('meter').getAttribute('aria-valuetext');
    await waitFor(() => expect(meter()).toBe('50k of 200k tokens (25%)'));

    // Everything the Context tab shows from the moment it names Work.
    const shown = new Set<string>();
    const watch = new MutationObserver(() => {
      if (label(context)?.endsWith('work01'))
        shown.add(context.querySelector('[role="meter"]')?.getAttribute('aria-valuetext') ?? 'none');
    });
    watch.observe(context, { subtree: true, childList: true, characterData: true, attributes: true });
    await switchSpace('work01', { conversationId: 'c1' });
    expect([label(activity), label(context)]).toEqual(['Tool calls inwork01', 'Memory fromwork01']);
    await waitFor(() => expect(meter()).toBe('9k of 200k tokens (5%)'));
    watch.disconnect();
    expect([...shown]).not.toContain('50k of 200k tokens (25%)');
    expect(shown).toContain('9k of 200k tokens (5%)');
    expect(useActivityStore.getState().filter).toBeNull();
    await waitFor(() => expect(within(activity).getByText(/0 of 0 calls|No tool calls/)).toBeTruthy());
    expect(within(activity).queryByRole('listitem', { name: 'memory · view /memories' })).toBeNull();
  });

  it('a long conversation kept across a switch (Move to space…) gets its Activity from the new space', async () => {
    // Long: its first page is not all of it, so the chat's open does not fill the Activity tab, which
    // must load the new space's tool calls itself although the conversation's id stayed the same.
    const at = '2026-03-01T12:00:00.000Z';
    const tool = (id: string, path: string): TranscriptItem => ({
      kind: 'tool',
      id,
      toolUseId: `toolu_${id}`,
      name: 'memory',
      input: { command: 'view', path },
      result: 'ok',
      isError: false,
      durationMs: 12,
      at: '2026-03-01T12:00:01Z',
    });
    const personal = wire.spaces.get('personal')!;
    const work = wire.spaces.get('work01')!;
    personal.transcript = [{ kind: 'user', id: 'm1', text: 'Hi', pinned: false }, tool('t1', '/memories')];
    work.transcript = [{ kind: 'user', id: 'm1', text: 'Hi', pinned: false }, tool('t2', '/memories/work')];
    for (const backend of [personal, work]) {
      backend.impl['conversations.get'] = ({ id, limit }) => ({
        conversation: { id, title: 'Long', createdAt: at, updatedAt: at, memory: true, messageCount: 2 },
        // Asked for a page: the last item, and a cursor for the rest; asked for all of it: all of it.
        items: limit === undefined ? backend.transcript : backend.transcript.slice(-1),
        ...(limit === undefined ? {} : { older: 'm1' }),
      });
    }
    useUi.setState({ panelOpen: true, panelTab: 'activity' });
    shutdown = await boot(getApi());
    render(<ActivityPanel />);
    const activity = screen.getByRole('region', { name: 'Activity' });
    await useChat.getState().open('c1');
    await within(activity).findByRole('listitem', { name: 'memory · view /memories' });
    await switchSpace('work01', { conversationId: 'c1' });
    await within(activity).findByRole('listitem', { name: 'memory · view /memories/work' });
    expect(within(activity).queryByRole('listitem', { name: 'memory · view /memories' })).toBeNull();
  });

  it('shows the new space’s list and memory panel before it asks for the conversation it returns to', async () => {
    const work = wire.spaces.get('work01')!;
    const chat = {
      id: 'work01-c0',
      title: 'Work chat',
      createdAt: '2026-03-01T12:00:00.000Z',
      updatedAt: '2026-03-01T12:00:00.000Z',
      memory: true,
      messageCount: 0,
    };
    work.impl['conversations.list'] = () => ({ conversations: [chat] });
    localStorage.setItem('mnemo.lastConversation.work01', 'work01-c0');
    const memoryAnswer = await work.api['memory.list']({});
    const listAnswer = await work.api['conversations.list']({});
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    Object.assign(work.impl, {
      'memory.list': async () => (await gate, memoryAnswer),
      'conversations.list': async () => (await gate, listAnswer),
    });
    shutdown = await boot(getApi());
    await useChat.getState().open('personal-c9');
    wire.answered.length = 0;

    const switched = switchSpace('work01');
    // Personal's conversation leaves at once; Work's shows as loading, not yet asked for.
    expect(useChat.getState()).toMatchObject({ conversationId: 'work01-c0', loading: true, items: [] });
    await waitFor(() =>
      expect(wire.answered.map(([c]) => c)).toEqual(
        expect.arrayContaining(['conversations.list', 'memory.list']),
      ),
    );
    await wire.settle();
    expect(wire.answered.filter(([c]) => c === 'conversations.get')).toEqual([]);
    expect(useChat.getState().loading).toBe(true);

    release();
    await switched;
    const order = wire.answered.map(([c]) => c);
    expect(order.indexOf('conversations.get')).toBeGreaterThan(order.indexOf('conversations.list'));
    expect(order.indexOf('conversations.get')).toBeGreaterThan(order.indexOf('memory.list'));
    expect(wire.answered.filter(([c]) => c === 'conversations.get')).toEqual([
      ['conversations.get', 'work01'],
    ]);
    expect(useConversations.getState().list.map((c) => c.title)).toEqual(['Work chat']);
    expect(files()).toEqual(['/memories/work.md']);
    expect(useChat.getState()).toMatchObject({ conversationId: 'work01-c0', loading: false });
  });

  it('leaves a space deleted where no event says so (another process) at its next call', async () => {
    shutdown = await boot(getApi());
    await switchSpace('work01');
    await waitFor(() => expect(files()).toEqual(['/memories/work.md']));
    wire.spaces.delete('work01');
    await useConversations.getState().refresh();
    await waitFor(() => expect(useSpaces.getState().current).toBe('personal'));
    await waitFor(() => expect(files()).toEqual(['/memories/personal.md']));
    expect(useToasts.getState().toasts.map((t) => t.message)).toContain(
      'This space no longer exists (it was deleted elsewhere); back to Personal.',
    );
    expect(sessionStorage.getItem('mnemo.space')).toBeNull();
  });

  it('falls back to Personal at start when the window’s space no longer exists', async () => {
    sessionStorage.setItem('mnemo.space', 'gone99');
    reloadCurrentSpaceId();
    resetSpacesStore();
    shutdown = await boot(getApi());
    expect(useSpaces.getState().current).toBe('personal');
    expect(sessionStorage.getItem('mnemo.space')).toBeNull();
    expect(useSettings.getState().loadError).toBeNull();
    expect(spacedAnswers().every(([, space]) => space === 'personal')).toBe(true);
  });
});
