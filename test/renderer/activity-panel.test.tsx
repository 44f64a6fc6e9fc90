// The Activity tab: tool calls from the transcript merged with live chat.event tool.call/tool.result, with
// time, duration, input, result and errors, filterable by tool. Its end loads earlier pages by itself
// while in view, deciding after each page from the observer's answer about the layout with that page
// drawn; until that answer the list says it is busy (aria-busy), so what it shows is final once it is not.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunEvent } from '../../shared/channels/chat';
import type { TranscriptItem } from '../../shared/channels/conversations';
import { setApi } from '../../renderer/api';
import { ActivityPanel } from '../../renderer/features/tool-log';
import { resetActivityStore } from '../../renderer/store/activity';
import { startBridge } from '../../renderer/store/bridge';
import { useChat } from '../../renderer/store/chat';
import { pageSize } from '../../renderer/store/transcripts';
import { useUi } from '../../renderer/store/ui';
import { callsTo, createFakeBackend, type FakeBackend } from './memory-fake-backend';

let backend: FakeBackend;
let unbind: () => void;
let seq = 0;

function run(event: Record<string, unknown>): RunEvent {
  return { runId: 'r1', conversationId: 'c1', seq: ++seq, ...event } as RunEvent;
}

beforeEach(() => {
  resetActivityStore();
  // The tab fetches its calls once it is shown.
  useUi.setState({ panelOpen: true, panelTab: 'activity' });
  seq = 0;
  backend = createFakeBackend();
  backend.transcript = [
    { kind: 'user', id: 'm1', text: 'What do I like?', pinned: false },
    {
      kind: 'tool',
      id: 't1',
      toolUseId: 'toolu_1',
      name: 'memory',
      input: { command: 'view', path: '/memories' },
      result: 'preferences.md',
      isError: false,
      durationMs: 12,
      at: '2026-03-01T12:00:01Z',
    },
    {
      kind: 'tool',
      id: 't2',
      toolUseId: 'toolu_2',
      name: 'memory_search',
      input: { query: 'tea' },
      result: 'The query is too short.',
      isError: true,
      durationMs: 3,
      at: '2026-03-01T12:00:02Z',
    },
  ];
  setApi(backend.api);
  // Run events reach the tab through the bridge's one router, batched per frame.
  unbind = startBridge(backend.api);
  useChat.setState({ conversationId: 'c1' });
});
afterEach(() => {
  unbind();
  cleanup();
  setApi(null);
  useChat.setState({ conversationId: null });
});

describe('the Activity tab', () => {
  it('lists the transcript’s tool calls with duration, input, result and errors', async () => {
    render(<ActivityPanel />);
    const panel = screen.getByRole('region', { name: 'Activity' });
    const view = await within(panel).findByRole('listitem', { name: 'memory · view /memories' });
    expect(view.textContent).toContain('12 ms');
    expect(view.textContent).toContain('Done');
    const failed = within(panel).getByRole('listitem', { name: 'memory_search · tea' });
    expect(failed.textContent).toContain('Error');
    expect(within(panel).getByText(/2 of 2 calls · 1 failed/)).toBeTruthy();

    fireEvent.click(within(failed).getByRole('button', { expanded: false }));
    expect(within(failed).getByText('"query": "tea"', { exact: false })).toBeTruthy();
    expect(within(failed).getByText('The query is too short.')).toBeTruthy();
  });

  it('adds live calls as they start and completes them with their result', async () => {
    render(<ActivityPanel />);
    const panel = screen.getByRole('region', { name: 'Activity' });
    await within(panel).findByRole('listitem', { name: 'memory · view /memories' });
    act(() =>
      backend.emit(
        'chat.event',
        run({
          type: 'tool.call',
          toolUseId: 'toolu_3',
          name: 'memory',
          input: { command: 'create', path: '/memories/dinner.md', file_text: '- Friday' },
          turn: 1,
        }),
      ),
    );
    const live = await within(panel).findByRole('listitem', { name: 'memory · create /memories/dinner.md' });
    expect(live.textContent).toContain('Running');
    act(() =>
      backend.emit(
        'chat.event',
        run({
          type: 'tool.result',
          toolUseId: 'toolu_3',
          name: 'memory',
          result: 'Created.',
          isError: false,
          durationMs: 1500,
        }),
      ),
    );
    await waitFor(() => expect(live.textContent).toContain('Done'));
    expect(live.textContent).toContain('1.5 s');
    // A replayed event (re-attach after a reload: the same seq again) does not duplicate the call.
    act(() =>
      backend.emit('chat.event', {
        ...run({
          type: 'tool.call',
          toolUseId: 'toolu_3',
          name: 'memory',
          input: { command: 'create' },
          turn: 1,
        }),
        seq: 1,
      } as RunEvent),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(panel).getAllByRole('listitem', { name: /dinner\.md|memory · create$/ })).toHaveLength(1);
  });

  it('takes the calls from the transcript the chat loads: one fetch per opening, not one per tab', async () => {
    useChat.setState({ conversationId: null });
    render(<ActivityPanel />);
    await act(() => useChat.getState().open('c1'));
    const panel = screen.getByRole('region', { name: 'Activity' });
    await within(panel).findByRole('listitem', { name: 'memory · view /memories' });
    // The panel's own idle-time load finds the calls there already.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(callsTo(backend, 'conversations.get')).toEqual([{ id: 'c1', limit: pageSize() }]);
  });

  it('filters by tool', async () => {
    render(<ActivityPanel />);
    const panel = screen.getByRole('region', { name: 'Activity' });
    await within(panel).findByRole('listitem', { name: 'memory · view /memories' });
    const select = within(panel).getByRole('combobox', { name: 'Filter by tool' });
    fireEvent.change(select, { target: { value: 'memory_search' } });
    const list = within(panel).getByRole('list', { name: 'Tool calls' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-label')),
    ).toEqual(['memory_search · tea']);
    expect(within(panel).getByText(/1 of 2 calls/)).toBeTruthy();
    fireEvent.change(select, { target: { value: '' } });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
  });

  it('shows an empty state without a conversation', () => {
    useChat.setState({ conversationId: null });
    render(<ActivityPanel />);
    expect(screen.getByText('No tool calls yet')).toBeTruthy();
  });
});

/** The observations waiting for an answer: each observe() is answered once, as a browser's would be. */
let waiting: { target: Element; answer: (entry: Partial<IntersectionObserverEntry>) => void }[] = [];

class StandInObserver {
  constructor(private readonly callback: IntersectionObserverCallback) {}
  observe(target: Element): void {
    waiting.push({
      target,
      answer: (entry) => this.callback([{ target, ...entry } as IntersectionObserverEntry], this as never),
    });
  }
  unobserve(target: Element): void {
    waiting = waiting.filter((w) => w.target !== target);
  }
  disconnect(): void {
    waiting = [];
  }
}

/** Answers the latest observation of the list's end: in view or not. */
async function endIs(inView: boolean): Promise<void> {
  const last = waiting.at(-1);
  expect(last, 'the end is being observed').toBeDefined();
  waiting = [];
  await act(async () => last!.answer({ isIntersecting: inView }));
}

const toolItem = (n: number): TranscriptItem => ({
  kind: 'tool',
  id: `t${n}`,
  toolUseId: `toolu_${n}`,
  name: 'memory',
  input: { command: 'view', path: `/memories/note-${n}.md` },
  result: 'ok',
  isError: false,
  durationMs: 1,
  at: `2026-03-01T12:00:${String(n).padStart(2, '0')}Z`,
});

const pages = () => callsTo(backend, 'conversations.page').length;

describe('the Activity tab filling itself with earlier pages', () => {
  // The list's end is observed by a stand-in the test answers, as the browser would once it is laid out.
  beforeEach(() => {
    waiting = [];
    vi.stubGlobal('IntersectionObserver', StandInObserver);
    // The last page holds call 9, each page before it one call down to call 1; a page ends where the
    // window begins (its `newer` is the cursor it was asked with).
    backend.impl['conversations.get'] = ({ id }: { id: string }) => ({
      conversation: {
        id,
        title: 'Test',
        createdAt: '2026-03-01T12:00:00Z',
        updatedAt: '2026-03-01T12:00:00Z',
        memory: true,
        messageCount: 9,
      },
      items: [toolItem(9)],
      older: 'c8',
      newer: null,
    });
    backend.impl['conversations.page'] = (req) => {
      const before = req.before ?? '';
      const n = Number(before.slice(1));
      return { items: [toolItem(n)], older: n > 1 ? `c${n - 1}` : null, newer: before };
    };
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is busy until the end is known to be out of view after the last page drawn', async () => {
    render(<ActivityPanel />);
    const panel = screen.getByRole('region', { name: 'Activity' });
    await within(panel).findByRole('listitem', { name: 'memory · view /memories/note-9.md' });
    const list = within(panel).getByRole('list', { name: 'Tool calls' });
    // Shown, but where its end is is not known yet: a page may follow.
    expect(list.getAttribute('aria-busy')).toBe('true');

    await endIs(true);
    await within(panel).findByRole('listitem', { name: 'memory · view /memories/note-8.md' });
    expect(pages()).toBe(1);
    // That page is drawn: still busy until the end is looked at again.
    expect(list.getAttribute('aria-busy')).toBe('true');

    await endIs(true);
    await within(panel).findByRole('listitem', { name: 'memory · view /memories/note-7.md' });
    expect(pages()).toBe(2);

    await endIs(false);
    expect(list.getAttribute('aria-busy')).toBe('false');
    expect(pages()).toBe(2);
    expect(within(panel).getByRole('status').textContent).toBe('3 of 3 calls in the latest messages');
  });

  it('stops after its budget of pages while the end stays in view, and is then done', async () => {
    render(<ActivityPanel />);
    const panel = screen.getByRole('region', { name: 'Activity' });
    await within(panel).findByRole('listitem', { name: 'memory · view /memories/note-9.md' });
    const list = within(panel).getByRole('list', { name: 'Tool calls' });
    for (let shown = 9; pages() < 5; shown--) {
      await endIs(true);
      await within(panel).findByRole('listitem', { name: `memory · view /memories/note-${shown - 1}.md` });
    }
    // Five pages on one coming into view: the end still in view loads no more, and the list is done.
    await endIs(true);
    expect(pages()).toBe(5);
    expect(list.getAttribute('aria-busy')).toBe('false');
    expect(within(panel).getByRole('button', { name: 'Show earlier calls' })).toBeTruthy();
  });
});
