// The conversations slice: the sidebar's list, search, and rename/delete (the backend deletes at once
// and keeps the conversation in its trash for a while: the toast's Undo restores it).
import { create } from 'zustand';
import { type ConversationSummary, firstListLimit } from '../../shared/channels/conversations';
import { getApi, getApiIn } from '../api';
import { whenIdle } from '../lib/idle';
import { currentSpaceId } from '../transport/current-space';
import { errorMessage } from '../lib/format';
import { useChat } from './chat';
import { toast } from './toast';
import { onConversationOpened, windowHeight } from './transcripts';

export interface SearchResult {
  id: string;
  title: string;
  snippet: string;
  messageId?: string | undefined;
  /** [start, end) of each matching word in the snippet. */
  ranges?: [number, number][] | undefined;
  at?: string | undefined;
}

interface ConversationsState {
  list: ConversationSummary[];
  loaded: boolean;
  /**
   * The list holds every conversation of the space. A window's first list holds what fills its sidebar,
   * and the rest follows once the window is idle: until then, one missing from it may still exist.
   */
  complete: boolean;
  query: string;
  results: SearchResult[] | null;
  searching: boolean;
  /** The space's recall index being built (conversations.indexing), until it reaches its total. */
  indexing: { indexed: number; total: number } | null;
  /** Ids hidden while their deletion is on its way to the backend. */
  hidden: ReadonlySet<string>;
  refresh(): Promise<void>;
  setList(list: ConversationSummary[]): void;
  /** The whole list as the backend announced it (conversations.changed): newer than any list asked for. */
  changed(list: ConversationSummary[]): void;
  setIndexing(progress: { indexed: number; total: number }): void;
  search(query: string): Promise<void>;
  rename(id: string, title: string): Promise<boolean>;
  remove(id: string): void;
  exportMarkdown(id: string): Promise<void>;
  /** "Don't search this" (false) or search it again (true). */
  setSearchable(id: string, searchable: boolean): Promise<void>;
}

const UNDO_MS = 6_000;
let searchToken = 0;
/** Moves on with each list asked for or announced: an answer to an older request is not shown. */
let listToken = 0;

export const useConversations = create<ConversationsState>()((set, get) => ({
  list: [],
  loaded: false,
  complete: false,
  query: '',
  results: null,
  searching: false,
  indexing: null,
  hidden: new Set(),

  async refresh() {
    const space = currentSpaceId();
    const token = ++listToken;
    // The window switched space meanwhile (that list is not this space's), or a newer list came.
    const stale = (): boolean => space !== currentSpaceId() || token !== listToken;
    const api = getApi();
    try {
      // A list on screen is replaced whole (asked for in part, it would shrink for a moment).
      if (get().loaded) {
        const all = await api['conversations.list']({});
        if (!stale()) get().setList(all.conversations);
        return;
      }
      // What fills the sidebar first, however many conversations there are: a start waits for this list.
      const first = await api['conversations.list']({ limit: firstListLimit(windowHeight()) });
      if (stale()) return;
      set({ list: byNewest(first.conversations), loaded: true, complete: first.more !== true });
      if (first.more !== true) return;
      await new Promise<void>((resolve) => whenIdle(resolve));
      if (stale()) return;
      const all = await api['conversations.list']({});
      if (!stale()) get().setList(all.conversations);
    } catch (err) {
      if (stale()) return;
      set({ loaded: true });
      toast(`Could not load conversations: ${errorMessage(err)}`, { tone: 'error' });
    }
  },

  setList(list) {
    set({ list: byNewest(list), loaded: true, complete: true });
  },

  changed(list) {
    listToken++;
    get().setList(list);
  },

  setIndexing(progress) {
    set({ indexing: progress.indexed >= progress.total ? null : progress });
  },

  async search(query) {
    const token = ++searchToken;
    set({ query });
    const q = query.trim();
    if (!q) {
      set({ results: null, searching: false });
      return;
    }
    set({ searching: true });
    try {
      const res = await getApi()['conversations.search']({ query: q });
      if (token === searchToken) set({ results: res.results, searching: false });
    } catch (err) {
      if (token === searchToken) set({ results: [], searching: false });
      toast(errorMessage(err), { tone: 'error' });
    }
  },

  async setSearchable(id, searchable) {
    try {
      const res = await getApi()['conversations.searchable']({ id, searchable });
      set({ list: get().list.map((c) => (c.id === id ? res.conversation : c)) });
      if (get().query.trim()) await get().search(get().query);
    } catch (err) {
      toast(errorMessage(err), { tone: 'error' });
    }
  },

  async rename(id, title) {
    try {
      const res = await getApi()['conversations.rename']({ id, title });
      set({ list: get().list.map((c) => (c.id === id ? res.conversation : c)) });
      return true;
    } catch (err) {
      toast(errorMessage(err), { tone: 'error' });
      return false;
    }
  },

  remove(id) {
    const conversation = get().list.find((c) => c.id === id);
    const space = currentSpaceId();
    set({ hidden: new Set([...get().hidden, id]) });
    if (useChat.getState().conversationId === id) void useChat.getState().open(null);
    const unhide = (): void => {
      const hidden = new Set(get().hidden);
      hidden.delete(id);
      set({ hidden });
    };
    // Deleted at once (search, the model's recall and other windows lose it now); Undo restores it.
    const api = getApi();
    const deleted = api['conversations.delete']({ id }).then(
      () => {
        if (space === currentSpaceId()) set({ list: get().list.filter((c) => c.id !== id) });
        unhide();
        return true;
      },
      (err: unknown) => {
        unhide();
        toast(`Could not delete the conversation: ${errorMessage(err)}`, { tone: 'error' });
        return false;
      },
    );
    toast(`Deleted “${conversation?.title || 'Untitled'}”.`, {
      timeoutMs: UNDO_MS,
      action: {
        label: 'Undo',
        run: () => {
          void deleted.then(async (done) => {
            if (!done) return;
            try {
              // In the space it was deleted from, even if the window has switched since.
              const res = await getApiIn(space)['conversations.restore']({ id });
              if (space !== currentSpaceId()) return;
              set({ list: byNewest([...get().list.filter((c) => c.id !== id), res.conversation]) });
            } catch (err) {
              toast(`Could not undo the deletion: ${errorMessage(err)}`, { tone: 'error' });
            }
          });
        },
      },
    });
  },

  async exportMarkdown(id) {
    try {
      const res = await getApi()['conversations.export']({ id });
      downloadText(res.fileName, res.markdown, 'text/markdown');
    } catch (err) {
      toast(`Export failed: ${errorMessage(err)}`, { tone: 'error' });
    }
  },
}));

// Opened before the rest of the list came (from a search, or the one a restart reopens): the header and
// the recall cards find it meanwhile. The whole list replaces this one when it comes.
onConversationOpened((summary) => {
  // A temporary conversation is never listed.
  if (!summary.memory) return;
  const { list, complete } = useConversations.getState();
  if (!complete && !list.some((c) => c.id === summary.id))
    useConversations.setState({ list: byNewest([...list, summary]) });
});

const byNewest = (list: ConversationSummary[]): ConversationSummary[] =>
  [...list].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));

/** Save text as a file through the browser's download (works in Electron's window too). */
export function downloadText(fileName: string, text: string, mime: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${mime};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
