// What the spaces feature reads from the spaces slice (renderer/store/spaces.ts), and the actions it adds
// around the slice's: the toasts, the Undo of a delete, following a moved conversation. Components read
// and act through here only; the slice (and renderer/store/space-calls.ts, for the two calls made in a
// space other than the window's) talks to the backend.
import { PERSONAL_SPACE_ID, type SpaceListed, type TrashedSpaceInfo } from '../../../shared/channels/spaces';
import { errorMessage } from '../../lib/format';
import { useChat } from '../../store/chat';
import { useConversations } from '../../store/conversations';
import { closeFile, useMemoryStore } from '../../store/memory';
import { exportSpaceMemory, prewarmSpace } from '../../store/space-calls';
import {
  createSpace as create,
  deleteSpace as remove,
  loadSpaces,
  loadTrashedSpaces,
  moveConversationToSpace,
  recolourSpace,
  renameSpace,
  restoreSpace,
  switchSpace as switchTo,
  transferMemoryFile as transfer,
  useSpaces,
} from '../../store/spaces';
import { startDownload } from '../../api';
import { toast } from '../../store/toast';

export const PERSONAL_ID = PERSONAL_SPACE_ID;

/** A space as the switcher shows it, counts included. */
export type SpaceView = Pick<SpaceListed, 'id' | 'name' | 'colour'> &
  Partial<Pick<SpaceListed, 'conversations' | 'memoryFiles'>>;

const GREY = '#6b7280';
const EMPTY: SpaceListed[] = [];
const NONE: TrashedSpaceInfo[] = [];

export function useSpaceList(): SpaceListed[] {
  return useSpaces((s) => (s.loaded ? s.list : EMPTY));
}

/** The window's space; before the list has loaded, a placeholder with its id (Personal by name). */
export function useCurrentSpace(): SpaceView {
  const found = useSpaces((s) => s.list.find((x) => x.id === s.current));
  const current = useSpaces((s) => s.current);
  return found ?? { id: current, name: current === PERSONAL_ID ? 'Personal' : '…', colour: GREY };
}

/** The spaces in the trash, newest deletion first (as of the last loadTrashed). */
export function useTrashed(): TrashedSpaceInfo[] {
  return useSpaces((s) => (s.trashed.length > 0 ? s.trashed : NONE));
}

/** Quiet when it fails: the section is an extra, the switcher works without it. */
export function loadTrashed(): Promise<void> {
  return loadTrashedSpaces().catch(() => undefined);
}

/** "Restore" in Recently deleted: back in the list (the window stays where it is). */
export async function restoreTrashed(id: string, name: string): Promise<boolean> {
  try {
    await restoreSpace(id);
    countsChanged();
    toast(`Restored space “${name}”.`, { tone: 'success' });
    return true;
  } catch (err) {
    toast(`Could not restore “${name}”: ${errorMessage(err)}`, { tone: 'error' });
    await loadTrashed();
    return false;
  }
}

/** A switch is loading the new space's lists. */
export function useSwitching(): boolean {
  return useSpaces((s) => s.switching);
}

export function currentSpaceId(): string {
  return useSpaces.getState().current;
}

export function switchSpace(id: string): Promise<void> {
  return switchTo(id);
}

// Counting is a folder listing of every space (about 130 ms for 50 spaces of 1,000 files), so the
// switcher recounts when it opens only if the counts are older than this or something moved between spaces.
const COUNTS_FRESH_MS = 10_000;
let countedAt = -Infinity;

/** The list with fresh counts (the switcher asks each time it opens). */
export function refreshCounts(force = false): Promise<void> {
  if (!force && performance.now() - countedAt < COUNTS_FRESH_MS) return Promise.resolve();
  countedAt = performance.now();
  return loadSpaces();
}

/** A file or conversation went to another space: its counts changed (also: tests start afresh). */
export function countsChanged(): void {
  countedAt = -Infinity;
}

// The memory of the window's space changed (a file written, deleted): its count may have too.
useMemoryStore.subscribe((s, prev) => {
  if (s.lastChange !== prev.lastChange) countsChanged();
});

export async function createSpace(input: { name: string; colour: string }): Promise<SpaceView> {
  return create(input.name, input.colour);
}

export async function updateSpace(id: string, patch: { name?: string; colour?: string }): Promise<void> {
  if (patch.name !== undefined) await renameSpace(id, patch.name);
  if (patch.colour !== undefined) await recolourSpace(id, patch.colour);
}

const UNDO_MS = 30_000;

/**
 * To the trash, then an Undo toast (restore) for a while; after that, "Recently deleted" in the switcher
 * restores it until the trash is emptied. Deleting the current space goes to Personal.
 */
export async function deleteSpace(id: string): Promise<boolean> {
  const name = useSpaces.getState().list.find((s) => s.id === id)?.name ?? 'the space';
  try {
    await remove(id);
  } catch (err) {
    toast(`Could not delete “${name}”: ${errorMessage(err)}`, { tone: 'error' });
    return false;
  }
  void loadTrashed();
  toast(`Deleted space “${name}”.`, {
    timeoutMs: UNDO_MS,
    action: {
      label: 'Undo',
      run: async () => {
        await restoreTrashed(id, name);
      },
    },
  });
  return true;
}

/** "Export first": the space's memory export (a zip named after it), without leaving this space. */
export async function exportSpace(id: string): Promise<void> {
  try {
    const res = await exportSpaceMemory(id);
    if (res.downloadUrl) {
      startDownload(res.downloadUrl);
      toast(`Downloading ${res.fileName ?? 'the export'}`, { tone: 'success' });
    } else if (res.saved) toast(`Saved ${res.fileName ?? 'the export'}`, { tone: 'success' });
  } catch (err) {
    toast(`Export failed: ${errorMessage(err)}`, { tone: 'error' });
  }
}

export { prewarmSpace };

export async function transferMemoryFile(
  mode: 'copy' | 'move',
  path: string,
  target: SpaceView,
): Promise<boolean> {
  try {
    const landed = await transfer(path, target.id, mode === 'move');
    countsChanged();
    const as = landed === path ? '' : ` as ${landed}`;
    toast(`${mode === 'copy' ? 'Copied' : 'Moved'} ${path} to “${target.name}”${as}.`, { tone: 'success' });
    if (mode === 'move' && useMemoryStore.getState().selected === path) closeFile();
    return true;
  } catch (err) {
    toast(errorMessage(err), { tone: 'error' });
    return false;
  }
}

/** The conversation leaves this space (and the chat, if open); the toast offers to follow it there. */
export async function moveConversation(id: string, target: SpaceView): Promise<boolean> {
  const title = useConversations.getState().list.find((c) => c.id === id)?.title || 'Untitled';
  try {
    await moveConversationToSpace(id, target.id);
    countsChanged();
    toast(`Moved “${title}” to “${target.name}”.`, {
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
  if (spaceId && spaceId !== currentSpaceId()) {
    await switchTo(spaceId, { conversationId });
    if (focus) useChat.getState().focusMessage(focus);
    return;
  }
  await useChat.getState().open(conversationId, focus ? { focus } : undefined);
}
