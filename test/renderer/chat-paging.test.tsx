// The chat slice over a paged conversation (issue 14, item 5), against the scripted backend: it opens at
// the last page, puts older pages before its items in order, opened at a message it loads the pages after
// it and leaves run events to the page that reaches the end (which says where to attach), and a message
// sent from the middle goes at the end, shown first.
import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../shared/channels/conversations';
import { ContractError } from '../../shared/errors';
import { setApi } from '../../renderer/api';
import { startBridge } from '../../renderer/store/bridge';
import { useChat } from '../../renderer/store/chat';
import { useToasts } from '../../renderer/store/toast';
import { pageSize } from '../../renderer/store/transcripts';
import { createChatBackend, type ChatBackend } from './chat-backend';

let backend: ChatBackend;
let stop: () => void;
const ID = 'long';
const COUNT = 200;

/** 200 items, m0..m199, users on even numbers. */
const all: TranscriptItem[] = Array.from({ length: COUNT }, (_, i) =>
  i % 2 === 0
    ? { kind: 'user', id: `m${i}`, text: `q${i}`, pinned: false }
    : { kind: 'assistant', id: `m${i}`, text: `a${i}`, pinned: false, interrupted: false, streaming: false },
);
const index = (id: string): number => all.findIndex((i) => i.id === id);
/** Items [from, to) as a page, with the backend's cursors (the first id of the page either side). */
const page = (from: number, to: number) => ({
  items: all.slice(Math.max(0, from), Math.min(COUNT, to)),
  older: from > 0 ? all[from]!.id : null,
  newer: to < COUNT ? all[to]!.id : null,
});
const ids = (): string[] => useChat.getState().items.map((i) => i.id);
let live: { runId: string; status: 'running'; seq: number }[] = [];

beforeEach(async () => {
  sessionStorage.clear();
  localStorage.clear();
  live = [];
  backend = createChatBackend();
  backend.conversations.set(ID, {
    summary: { id: ID, title: 'Long', createdAt: '', updatedAt: '', memory: true, messageCount: COUNT },
    items: all,
  });
  backend.impl['conversations.get'] = (req) => {
    const limit = req.limit ?? COUNT;
    const at = req.around ? index(req.around) : -1;
    const half = Math.floor(limit / 2);
    const p = at >= 0 ? page(at - half, at + half) : page(COUNT - limit, COUNT);
    return { conversation: backend.conversations.get(ID)!.summary, ...p, runs: p.newer ? [] : live };
  };
  backend.impl['conversations.page'] = (req) => {
    const p = req.before
      ? page(index(req.before) - req.limit, index(req.before))
      : page(index(req.from!), index(req.from!) + req.limit);
    return { ...p, ...(p.newer === null ? { runs: live } : {}) };
  };
  setApi(backend.api);
  stop = startBridge(backend.api);
  useToasts.setState({ toasts: [] });
  await useChat.getState().open(null);
});

afterEach(() => {
  stop();
  setApi(null);
});

describe('a paged conversation in the chat slice', () => {
  it('opens at its last page and puts older pages before it, in order, up to the start', async () => {
    await useChat.getState().open(ID);
    const size = pageSize();
    expect(backend.callsTo('conversations.get')).toEqual([{ id: ID, limit: size }]);
    expect(ids()).toEqual(all.slice(COUNT - size).map((i) => i.id));
    expect(useChat.getState().newer).toBeNull();
    while (useChat.getState().older !== null) await useChat.getState().loadMore('older');
    expect(ids()).toEqual(all.map((i) => i.id));
    // Nothing more to load: no more calls.
    const calls = backend.callsTo('conversations.page').length;
    await useChat.getState().loadMore('older');
    expect(backend.callsTo('conversations.page')).toHaveLength(calls);
  });

  it('asks an open for what fills the window and no more, and a page while scrolling for a window ahead too', async () => {
    await useChat.getState().open(ID);
    const [{ limit }] = backend.callsTo('conversations.get') as [{ limit: number }];
    // Every item at least one line (40 px): the window is full, and nothing beyond it (at least 20 items).
    expect(limit * 40).toBeGreaterThanOrEqual(window.innerHeight);
    expect(limit).toBeLessThanOrEqual(Math.max(20, Math.ceil(window.innerHeight / 40)));
    await useChat.getState().loadMore('older');
    const [{ limit: scrolled }] = backend.callsTo('conversations.page') as [{ limit: number }];
    expect(scrolled * 40).toBeGreaterThanOrEqual(2 * window.innerHeight);
  });

  it('opened at a message, loads the pages after it and follows a live run only from the end', async () => {
    await useChat.getState().open(ID, { focus: 'm100' });
    expect(ids()).toContain('m100');
    expect(useChat.getState().focusMessageId).toBe('m100');
    expect(useChat.getState().newer).not.toBeNull();
    // A run streaming into it meanwhile: not applied onto the middle of the conversation.
    backend.emit('chat.event', {
      runId: 'r-live',
      conversationId: ID,
      seq: 1,
      type: 'text.delta',
      messageId: 'new-answer',
      text: 'Streaming…',
    });
    // The bridge delivers events once per animation frame: give it several.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ids()).not.toContain('new-answer');
    live = [{ runId: 'r-live', status: 'running', seq: 0 }];
    while (useChat.getState().newer !== null) await useChat.getState().loadMore('newer');
    expect(ids()).toEqual(all.slice(index(ids()[0]!)).map((i) => i.id));
    // The page that reached the end named the run: the window attaches after its seq.
    await waitFor(() => expect(backend.callsTo('chat.attach')).toEqual([{ runId: 'r-live', afterSeq: 0 }]));
  });

  it('takes a page that starts at its last turn (joined to the next since) whole, once and up to date', async () => {
    await useChat.getState().open(ID, { focus: 'm100' });
    const shown = ids();
    const newer = useChat.getState().newer!;
    // A record stored since joined the window's last turn to the next: the page from the next turn
    // starts at the window's last turn, whose answer it changed.
    const last = index(newer) - 2;
    backend.impl['conversations.page'] = () => {
      const p = page(last, index(newer) + 4);
      const items = p.items.map((i) => (i.id === `m${last + 1}` ? { ...i, text: 'changed' } : i));
      return { ...p, items, older: all[last]!.id };
    };
    await useChat.getState().loadMore('newer');
    expect(ids()).toEqual([...shown, ...all.slice(index(newer), index(newer) + 4).map((i) => i.id)]);
    expect(useChat.getState().items.find((i) => i.id === `m${last + 1}`)).toMatchObject({ text: 'changed' });
  });

  it('takes an older page that ends with its first turn (joined to earlier ones since) whole, once', async () => {
    await useChat.getState().open(ID, { focus: 'm100' });
    const shown = ids();
    const first = index(useChat.getState().older!);
    // A record stored since joined the window's first turn to the one before: the page before it ends
    // with that joined turn, whole and up to date, up to the next turn the window has.
    backend.impl['conversations.page'] = () => {
      const p = page(first - 6, first + 2);
      const items = p.items.map((i) => (i.id === `m${first + 1}` ? { ...i, text: 'changed' } : i));
      return { ...p, items };
    };
    await useChat.getState().loadMore('older');
    expect(ids()).toEqual([...all.slice(first - 6, first).map((i) => i.id), ...shown]);
    expect(useChat.getState().items.find((i) => i.id === `m${first + 1}`)).toMatchObject({ text: 'changed' });
    expect(useChat.getState().older).toBe(all[first - 6]!.id);
  });

  it('an older page that took the whole window at the end follows its live run again from the page', async () => {
    live = [{ runId: 'r-live', status: 'running', seq: 0 }];
    await useChat.getState().open(ID);
    await waitFor(() => expect(backend.callsTo('chat.attach')).toHaveLength(1));
    const first = index(useChat.getState().older!);
    // One joined turn from before the window to the end, stored up to the run's seq 3.
    backend.impl['conversations.page'] = () => ({
      ...page(first - 6, COUNT),
      runs: [{ runId: 'r-live', status: 'running' as const, seq: 3 }],
    });
    await useChat.getState().loadMore('older');
    expect(ids()).toEqual(all.slice(first - 6).map((i) => i.id));
    expect(useChat.getState()).toMatchObject({ older: all[first - 6]!.id, newer: null });
    await waitFor(() => expect(backend.callsTo('chat.attach')).toHaveLength(2));
    expect(backend.callsTo('chat.attach')[1]).toEqual({ runId: 'r-live', afterSeq: 3 });
  });

  it('a message sent from the middle goes at the end, and the end is shown first', async () => {
    await useChat.getState().open(ID, { focus: 'm20' });
    expect(useChat.getState().newer).not.toBeNull();
    expect(await useChat.getState().send('one more')).toBe(true);
    expect(backend.callsTo('conversations.get').at(-1)).toEqual({ id: ID, limit: pageSize() });
    expect(ids().slice(-2)).toEqual([`m${COUNT - 1}`, expect.any(String)]);
    expect(useChat.getState().items.at(-1)).toMatchObject({ kind: 'user', text: 'one more' });
  });

  it('a page that cannot be fetched is said once, not asked for again and again', async () => {
    await useChat.getState().open(ID);
    backend.impl['conversations.page'] = () => {
      throw new ContractError('not_found', 'That message is no longer in this conversation.');
    };
    await useChat.getState().loadMore('older');
    await useChat.getState().loadMore('older');
    expect(backend.callsTo('conversations.page')).toHaveLength(1);
    expect(useToasts.getState().toasts.map((t) => t.message)).toEqual([
      'That message is no longer in this conversation.',
    ]);
  });
});
