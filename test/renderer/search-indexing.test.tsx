// The sidebar's search while the space's recall index is still being built (issue 17, "long work shows
// progress"): the search waits on the build, and the sidebar says how far it is from the backend's
// conversations.indexing events ("Indexing past conversations… 42%", a polite live region), then shows
// the results; the search box keeps its name.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ResOut } from '../../shared/contract';
import { type ChatBackend } from './chat-backend';
import { resetSpaces } from './spaces-backend';
import { emptyMemoryChatBackend, resetWindowStores, windowTests } from './window-setup';

type Results = ResOut<'conversations.search'>;
let backend: ChatBackend;
let answer: (res: Results) => void;
const theWindow = windowTests();

beforeEach(() => {
  sessionStorage.clear();
  backend = emptyMemoryChatBackend();
  // The search waits until the test says the build is done.
  backend.impl['conversations.search'] = () => new Promise<Results>((resolve) => (answer = resolve));
  resetWindowStores();
  resetSpaces();
});

const progress = (): HTMLElement | null =>
  screen.queryAllByRole('status').find((el) => el.classList.contains('sidebar-indexing')) ?? null;

describe('sidebar search during the first index build', () => {
  it('shows the build’s progress from its events while the search waits, then the results', async () => {
    await theWindow.start(backend.api);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search conversations' }), {
      target: { value: 'restaurant' },
    });
    await waitFor(() => expect(progress()).not.toBeNull());
    expect(progress()!.getAttribute('aria-live')).toBe('polite');
    expect(progress()!.textContent).toBe('');

    const cases: [number, number, string][] = [
      [0, 200, 'Indexing past conversations… 0%'],
      [84, 200, 'Indexing past conversations… 42%'],
      [199, 200, 'Indexing past conversations… 99%'],
      [1999, 2000, 'Indexing past conversations… 99%'],
    ];
    for (const [indexed, total, text] of cases) {
      act(() => backend.emit('conversations.indexing', { indexed, total }));
      await waitFor(() => expect(progress()!.textContent).toBe(text));
    }
    act(() => backend.emit('conversations.indexing', { indexed: 2000, total: 2000 }));
    await waitFor(() => expect(progress()!.textContent).toBe(''));

    await act(async () =>
      answer({ results: [{ id: 'c1', title: 'Dinner', snippet: 'a restaurant called Chez Gaston' }] }),
    );
    expect(progress()).toBeNull();
    expect(screen.getByRole('list', { name: 'Search results' }).textContent).toContain('Chez Gaston');
    expect(screen.getByRole('searchbox', { name: 'Search conversations' })).toBeTruthy();
  });

  it('a build under way before the search is shown when the search starts; a finished one is not', async () => {
    await theWindow.start(backend.api);
    act(() => backend.emit('conversations.indexing', { indexed: 30, total: 100 }));
    await backend.settle();
    expect(progress()).toBeNull();
    const box = screen.getByRole('searchbox', { name: 'Search conversations' });
    fireEvent.change(box, { target: { value: 'restaurant' } });
    await waitFor(() => expect(progress()?.textContent).toBe('Indexing past conversations… 30%'));
    act(() => backend.emit('conversations.indexing', { indexed: 100, total: 100 }));
    await act(() => backend.settle());
    await act(async () => answer({ results: [] }));
    expect(progress()).toBeNull();

    fireEvent.change(box, { target: { value: 'gaston' } });
    await waitFor(() => expect(progress()).not.toBeNull());
    expect(progress()!.textContent).toBe('');
    await act(async () => answer({ results: [] }));
  });
});
