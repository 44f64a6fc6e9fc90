// What the spaces feature reads and does. TEMPORARY local slice (list/current/switchSpace) until the
// window's spaces store (renderer/store/spaces.ts) lands; the actions below are this feature's.
import { create } from 'zustand';
import { PERSONAL_SPACE_ID, type SpaceListed } from '../../../shared/channels/spaces';
import { getApi } from '../../api';
import { errorMessage } from '../../lib/format';
import { useChat } from '../../store/chat';
import { useConversations } from '../../store/conversations';
import { closeFile, useMemoryStore } from '../../store/memory';
import { toast } from '../../store/toast';

export const PERSONAL_ID = PERSONAL_SPACE_ID;

/** A space as the switcher shows it; the counts come with the list (absent until it has been listed). */
export interface SpaceView {
  id: string;
  name: string;
  colour: string;
  conversations?: number | undefined;
  memoryFiles?: number | undefined;
}

interface State {
  list: SpaceView[];
  current: string;
}
const PERSONAL: SpaceView = { id: PERSONAL_ID, name: 'Personal', colour: '#6b7280' };
const useStore = create<State>()(() => ({ list: [PERSONAL], current: PERSONAL_ID }));

export function useSpaceList(): SpaceView[] {
  return useStore((s) => s.list);
}
export function useCurrentSpace(): SpaceView {
  return useStore((s) => s.list.find((x) => x.id === s.current) ?? PERSONAL);
}
export function currentSpaceId(): string {
  return useStore.getState().current;
}
export async function switchSpace(id: string): Promise<void> {
  useStore.setState({ current: id });
}

function setListed(spaces: SpaceListed[]): void {
  useStore.setState({ list: spaces });
}

/** The list with fresh counts (the switcher asks each time it opens). */
export async function refreshCounts(): Promise<void> {
  try {
    setListed((await getApi()['spaces.list']({})).spaces);
  } catch (err) {
    toast(`Could not list the spaces: ${errorMessage(err)}`, { tone: 'error' });
  }
}

export async function createSpace(input: { name: string; colour: string }): Promise<SpaceView> {
  const { space } = await getApi()['spaces.create'](input);
  await refreshCounts();
  return space;
}

export async function updateSpace(id: string, patch: { name?: string; colour?: string }): Promise<void> {
  const api = getApi();
  if (patch.name !== undefined) await api['spaces.rename']({ id, name: patch.name });
  if (patch.colour !== undefined) await api['spaces.recolour']({ id, colour: patch.colour });
  await refreshCounts();
}

const UNDO_MS = 30_000;

/** To the trash, then an Undo toast (restore) for a while. Deleting the current space goes to Personal. */
export async function deleteSpace(id: string): Promise<boolean> {
  const api = getApi();
  const name = useStore.getState().list.find((s) => s.id === id)?.name ?? 'the space';
  try {
    await api['spaces.delete']({ id });
  } catch (err) {
    toast(`Could not delete “${name}”: ${errorMessage(err)}`, { tone: 'error' });
    return false;
  }
  if (currentSpaceId() === id) await switchSpace(PERSONAL_ID);
  await refreshCounts();
  toast(`Deleted space “${name}”.`, {
    timeoutMs: UNDO_MS,
    action: {
      label: 'Undo',
      run: async () => {
        try {
          await api['spaces.restore']({ id });
          await refreshCounts();
          toast(`Restored space “${name}”.`, { tone: 'success' });
        } catch (err) {
          toast(`Could not restore “${name}”: ${errorMessage(err)}`, { tone: 'error' });
        }
      },
    },
  });
  return true;
}

export async function exportSpace(id: string): Promise<void> {
  void id;
  await getApi()['memory.export']({});
}

export async function transferMemoryFile(
  mode: 'copy' | 'move',
  path: string,
  target: SpaceView,
): Promise<boolean> {
  try {
    const res = await getApi()[mode === 'copy' ? 'memory.copyToSpace' : 'memory.moveToSpace']({
      path,
      to: target.id,
    });
    const as = res.path === path ? '' : ` as ${res.path}`;
    toast(`${mode === 'copy' ? 'Copied' : 'Moved'} ${path} to “${target.name}”${as}.`, { tone: 'success' });
    if (mode === 'move' && useMemoryStore.getState().selected === path) closeFile();
    return true;
  } catch (err) {
    toast(errorMessage(err), { tone: 'error' });
    return false;
  }
}

/**
 * The conversation leaves this space: out of the list at once (and out of the chat if it was open); the
 * toast offers to follow it there.
 */
export async function moveConversation(id: string, target: SpaceView): Promise<boolean> {
  try {
    const { conversation } = await getApi()['conversations.moveToSpace']({ id, to: target.id });
    const conversations = useConversations.getState();
    conversations.setList(conversations.list.filter((c) => c.id !== id));
    if (useChat.getState().conversationId === id) void useChat.getState().open(null);
    toast(`Moved “${conversation.title || 'Untitled'}” to “${target.name}”.`, {
      tone: 'success',
      action: { label: `Open in ${target.name}`, run: () => openConversationIn(target.id, id) },
    });
    return true;
  } catch (err) {
    toast(errorMessage(err), { tone: 'error' });
    return false;
  }
}

/** Opens a conversation of any space (a link, a search hit): switches to its space first if need be. */
export async function openConversationIn(
  spaceId: string | undefined,
  conversationId: string,
  focus?: string,
): Promise<void> {
  if (spaceId && spaceId !== currentSpaceId()) await switchSpace(spaceId);
  await useChat.getState().open(conversationId, focus ? { focus } : undefined);
}
