// The spaces slice (issue 15): the list the switcher shows (with counts) and the window's current space.
// `switchSpace(id)` is the one way a window changes space: it names the new space in every later call
// (renderer/transport/current-space.ts), drops what the old space's stores held and loads the new
// space's conversation list, memory panel, search, Activity, Context and settings. The switcher UI
// (renderer/features/spaces/) builds on these actions; it never calls the backend itself.
import { create } from 'zustand';
import type { SpaceInfo, SpaceListed, TrashedSpaceInfo } from '../../shared/channels/spaces';
import { PERSONAL_SPACE_ID } from '../../shared/channels/spaces';
import { getApi, onSpaceGone } from '../api';
import { errorMessage } from '../lib/format';
import { currentSpaceId, setCurrentSpaceId } from '../transport/current-space';
import { resetActivityStore } from './activity';
import { flushRunEvents, onConversationCount, registerBinder } from './bridge';
import { useChat } from './chat';
import { rememberedConversation } from './remembered';
import { resetContextStore } from './context';
import { useConversations } from './conversations';
import { loadList, loadStale, resetMemoryStore } from './memory';
import { useSettings } from './settings';
import { toast } from './toast';

export interface SpacesState {
  /** Personal first; counts as of the last `loadSpaces` (conversation counts follow live). */
  list: SpaceListed[];
  loaded: boolean;
  /** The window's space: every call names it. */
  current: string;
  /** A switch is loading the new space's stores. */
  switching: boolean;
  trashed: TrashedSpaceInfo[];
}

export const useSpaces = create<SpacesState>()(() => ({
  list: [],
  loaded: false,
  current: currentSpaceId(),
  switching: false,
  trashed: [],
}));

const set = useSpaces.setState;
const get = useSpaces.getState;

/** The current space's entry (undefined until the list is loaded). */
export const selectCurrentSpace = (s: SpacesState): SpaceListed | undefined =>
  s.list.find((space) => space.id === s.current);

export async function loadSpaces(): Promise<void> {
  try {
    const { spaces } = await getApi()['spaces.list']({});
    set({ list: spaces, loaded: true });
  } catch (err) {
    set({ loaded: true });
    toast(`Could not load the spaces: ${errorMessage(err)}`, { tone: 'error' });
  }
}

/**
 * At start: the list, and Personal instead of a space that no longer exists (deleted while this tab was
 * closed, or in another process). Quiet when it fails in Personal (an older backend has no spaces).
 */
export async function startSpaces(): Promise<void> {
  let spaces: SpaceListed[];
  try {
    spaces = (await getApi()['spaces.list']({})).spaces;
  } catch (err) {
    set({ loaded: true });
    if (currentSpaceId() !== PERSONAL_SPACE_ID) {
      toast(`Could not load the spaces: ${errorMessage(err)}`, { tone: 'error' });
    }
    return;
  }
  set({ list: spaces, loaded: true });
  if (!spaces.some((s) => s.id === currentSpaceId())) {
    setCurrentSpaceId(PERSONAL_SPACE_ID);
    set({ current: PERSONAL_SPACE_ID });
    toast('The space this window was in no longer exists; it shows Personal.', { tone: 'warning' });
  }
}

/** Where the window was in each space, so switching back returns there (this window only). */
const CONVERSATION_KEY = 'mnemo.conversation';
const stashKey = (space: string) => `mnemo.conversation.${space}`;

function stashConversation(space: string): void {
  try {
    // A temporary conversation ends when the window leaves it: there is nothing to come back to.
    const { conversationId: id, temporary } = useChat.getState();
    if (id && temporary === null) sessionStorage.setItem(stashKey(space), id);
    else sessionStorage.removeItem(stashKey(space));
    sessionStorage.removeItem(CONVERSATION_KEY);
  } catch {
    // Storage disabled: switching back opens a new chat.
  }
}

function unstashConversation(space: string): void {
  try {
    const id = sessionStorage.getItem(stashKey(space));
    if (id) sessionStorage.setItem(CONVERSATION_KEY, id);
  } catch {
    // As above.
  }
}

let switchToken = 0;

/**
 * Make `id` this window's space. `conversationId` opens that conversation there (opening one from another
 * space's list, a conversation just moved); otherwise the window returns to where it was in that space.
 */
export async function switchSpace(id: string, options: { conversationId?: string } = {}): Promise<void> {
  const from = currentSpaceId();
  if (id === from && options.conversationId === undefined) return;
  const token = ++switchToken;
  // What already arrived belongs to the old space: hand it over before the stores are emptied.
  flushRunEvents();
  if (id !== from) {
    stashConversation(from);
    unstashConversation(id);
    setCurrentSpaceId(id);
    set({ current: id, switching: true });
    resetMemoryStore();
    resetContextStore();
    resetActivityStore();
    useConversations.setState({
      list: [],
      loaded: false,
      complete: false,
      query: '',
      results: null,
      searching: false,
      indexing: null,
    });
  }
  const target = options.conversationId !== undefined ? options.conversationId : rememberedConversation();
  try {
    if (id === from) {
      // Same space (a conversation opened from its own list): the lists are on screen already.
      await useChat.getState().open(target);
      if (token !== switchToken) return;
      await Promise.all([
        useConversations.getState().refresh(),
        useSettings.getState().load(),
        loadList(),
        loadStale(),
      ]);
      return;
    }
    // The new space's conversation list and memory panel first, then the conversation: what a person
    // looks at after a switch is where they are, and the body of a long conversation read first (or
    // beside them) held both lists back.
    useChat.getState().hold(target);
    const rest = Promise.all([useSettings.getState().load(), loadStale()]);
    await Promise.all([useConversations.getState().refresh(), loadList()]);
    if (token !== switchToken) return;
    await Promise.all([useChat.getState().open(target), rest]);
  } finally {
    if (token === switchToken) set({ switching: false });
  }
}

/** Creates a space (the window stays where it is; switch to it with switchSpace). */
export async function createSpace(name: string, colour?: string): Promise<SpaceInfo> {
  const { space } = await getApi()['spaces.create'](colour === undefined ? { name } : { name, colour });
  await loadSpaces();
  return space;
}

export async function renameSpace(id: string, name: string): Promise<SpaceInfo> {
  const { space } = await getApi()['spaces.rename']({ id, name });
  merge([space]);
  return space;
}

export async function recolourSpace(id: string, colour: string): Promise<SpaceInfo> {
  const { space } = await getApi()['spaces.recolour']({ id, colour });
  merge([space]);
  return space;
}

/** To the trash; a window in that space goes to Personal first. Undo with restoreSpace(id). */
export async function deleteSpace(id: string): Promise<TrashedSpaceInfo> {
  const { trashed } = await getApi()['spaces.delete']({ id });
  if (currentSpaceId() === id) await switchSpace(PERSONAL_SPACE_ID);
  set({ list: get().list.filter((s) => s.id !== id) });
  return trashed;
}

export async function loadTrashedSpaces(): Promise<void> {
  set({ trashed: (await getApi()['spaces.trashed']({})).spaces });
}

export async function restoreSpace(id: string): Promise<SpaceInfo> {
  const { space } = await getApi()['spaces.restore']({ id });
  set({ trashed: get().trashed.filter((s) => s.id !== id) });
  await loadSpaces();
  return space;
}

/** "Move to space…" of a conversation; the window follows it when `follow` (the chat shows the card). */
export async function moveConversationToSpace(
  conversationId: string,
  to: string,
  options: { follow?: boolean } = {},
): Promise<void> {
  await getApi()['conversations.moveToSpace']({ id: conversationId, to });
  if (useChat.getState().conversationId === conversationId && !options.follow) {
    await useChat.getState().open(null);
  }
  await useConversations.getState().refresh();
  if (options.follow) await switchSpace(to, { conversationId });
}

/** "Copy to space…" / "Move to space…" of a memory file; answers its path in the target space. */
export async function transferMemoryFile(path: string, to: string, move: boolean): Promise<string> {
  const channel = move ? 'memory.moveToSpace' : 'memory.copyToSpace';
  const res = await getApi()[channel]({ path, to });
  await loadList();
  return res.path;
}

/** Keeps the counts of entries it knows (spaces.changed carries none). */
function merge(spaces: readonly SpaceInfo[]): void {
  const known = new Map(get().list.map((s) => [s.id, s]));
  const next = spaces.map((s): SpaceListed => ({
    ...s,
    conversations: known.get(s.id)?.conversations ?? 0,
    memoryFiles: known.get(s.id)?.memoryFiles ?? 0,
  }));
  if (spaces.length === 1) {
    set({ list: get().list.map((s) => (s.id === spaces[0]!.id ? next[0]! : s)) });
  } else {
    set({ list: next, loaded: true });
  }
}

registerBinder('spaces', (api) =>
  api.on('spaces.changed', ({ spaces }) => {
    merge(spaces);
    // Deleted from another window (or another process): this window cannot stay there.
    if (!spaces.some((s) => s.id === currentSpaceId())) {
      toast('This space was deleted in another window; back to Personal.', { tone: 'warning' });
      void switchSpace(PERSONAL_SPACE_ID);
    }
  }),
);

// Deleted where no event tells this window (another process, the terminal): its next call says so.
let leaving = false;
onSpaceGone((space) => {
  if (leaving || space !== currentSpaceId() || space === PERSONAL_SPACE_ID) return;
  leaving = true;
  toast('This space no longer exists (it was deleted elsewhere); back to Personal.', { tone: 'warning' });
  set({ list: get().list.filter((s) => s.id !== space) });
  void switchSpace(PERSONAL_SPACE_ID).finally(() => (leaving = false));
});

onConversationCount((space, conversations) => {
  set({ list: get().list.map((s) => (s.id === space ? { ...s, conversations } : s)) });
});

/** For tests: the first state again (the window's space as stored). */
export function resetSpacesStore(): void {
  switchToken++;
  set({ list: [], loaded: false, current: currentSpaceId(), switching: false, trashed: [] });
}
