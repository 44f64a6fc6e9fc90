// Conversations and spaces (issue 15, "The window"): each row shows its space's colour; "Move to space…"
// moves one (confirmed first), takes it out of this space's list and offers to follow it; opening a
// conversation of another space (a link) switches to that space first.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { currentSpaceId } from '../../renderer/transport/current-space';
import { requestOpenConversation } from '../../renderer/features/memory/navigate';
import { refreshCounts } from '../../renderer/features/spaces/use-spaces';
import { useChat } from '../../renderer/store/chat';
import { resetSpaces } from './spaces-backend';
import { type ChatBackend } from './chat-backend';
import { addSpaces, type SpacesModel } from './spaces-backend';
import { emptyMemoryChatBackend, resetWindowStores, windowTests } from './window-setup';

let backend: ChatBackend;
let spaces: SpacesModel;
const theWindow = windowTests();

const at = '2026-03-01T12:00:00.000Z';
function seed(id: string, title: string): void {
  backend.conversations.set(id, {
    summary: { id, title, createdAt: at, updatedAt: at, memory: true, messageCount: 2 },
    items: [{ kind: 'user', id: `${id}-u`, text: `About ${title}`, pinned: false }],
  });
}

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  backend = emptyMemoryChatBackend();
  spaces = addSpaces(backend);
  resetWindowStores();
  resetSpaces();
});

async function start(): Promise<HTMLElement> {
  await theWindow.start(backend.api);
  await act(() => refreshCounts(true));
  return screen.getByRole('navigation', { name: 'Conversations' });
}

describe('conversations in spaces', () => {
  it('marks each row with its space’s colour and moves one to another space after confirming', async () => {
    seed('c1', 'Quarterly plan');
    seed('c2', 'Garden');
    const work = spaces.seed('Work', '#16a34a');
    // Which space each conversation is in; the list answers the window's current space (what the call's
    // envelope would name), as the backend's routing does.
    const spaceOf = new Map<string, string>();
    backend.impl['conversations.list'] = () => ({
      conversations: [...backend.conversations.values()]
        .map((c) => c.summary)
        .filter((c) => (spaceOf.get(c.id) ?? 'personal') === currentSpaceId()),
    });
    backend.impl['conversations.moveToSpace'] = (req) => {
      spaceOf.set(req.id, req.to);
      return { conversation: backend.conversations.get(req.id)!.summary };
    };
    const nav = await start();
    const row = await within(nav).findByRole('button', { name: /^Quarterly plan/ });
    expect(row.getAttribute('style')).toContain('#6b7280');
    fireEvent.click(within(nav).getByRole('button', { name: 'Move “Quarterly plan” to another space' }));
    const dialog = screen.getByRole('dialog', { name: 'Move to space' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move to Work' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Move to space' });
    expect(confirm.textContent).toContain('that space’s memory');
    expect(backend.callsTo('conversations.moveToSpace')).toEqual([]);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Move to Work' }));
    await waitFor(() =>
      expect(backend.callsTo('conversations.moveToSpace')).toEqual([{ id: 'c1', to: work.id }]),
    );
    await waitFor(() => expect(within(nav).queryByRole('button', { name: /^Quarterly plan/ })).toBeNull());
    expect(within(nav).getByRole('button', { name: /^Garden/ })).toBeTruthy();

    const toast = (await screen.findByText('Moved “Quarterly plan” to “Work”.')).closest(
      '.toast',
    ) as HTMLElement;
    fireEvent.click(within(toast).getByRole('button', { name: 'Open in Work' }));
    await screen.findByRole('button', { name: 'Space: Work' });
    await waitFor(() => expect(useChat.getState().conversationId).toBe('c1'));
    await within(nav).findByRole('button', { name: /^Quarterly plan/ });
    expect(within(nav).queryByRole('button', { name: /^Garden/ })).toBeNull();
  });

  it('switches to a conversation’s space when a link opens it from another space', async () => {
    seed('c9', 'Client brief');
    const client = spaces.seed('Client A', '#d97706');
    await start();
    expect(screen.getByRole('button', { name: 'Space: Personal' })).toBeTruthy();
    act(() => requestOpenConversation({ conversationId: 'c9', spaceId: client.id }));
    await screen.findByRole('button', { name: 'Space: Client A' });
    await waitFor(() => expect(useChat.getState().conversationId).toBe('c9'));
    expect(backend.callsTo('conversations.get')).toContainEqual(expect.objectContaining({ id: 'c9' }));
  });
});
