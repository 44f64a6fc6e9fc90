// The chat slice: the open conversation's items, the runs streaming into it, and the actions the chat UI
// calls (send, stop, retry, regenerate, edit-and-resend, pin, review, undo a memory change). Run events
// reach it through the bridge's one batched router; the pure event handling is in chat-items.ts. A run is
// followed by sequence number only: opening a conversation gives the last seq its items reflect and the
// window attaches after it; a run this window starts is attached from its first event.
import { create } from 'zustand';
import type { RunEvent } from '../../shared/channels/chat';
import { getApi, getApiIn } from '../api';
import { currentSpaceId } from '../transport/current-space';
import { errorMessage } from '../lib/format';
import { applyRunEvents, type ChatModel, type RunState } from './chat-items';
import { mergePage } from '../../shared/projection/page-merge';
import { retryItems } from '../../shared/projection/project';
import { loadPage, loadTranscript, pageSize, scrollPageSize, type LoadedTranscript } from './transcripts';
import { toast } from './toast';
import { forgetConversation, rememberConversation, rememberedConversation } from './remembered';

export type { ChatItem } from './chat-items';

interface ChatState extends ChatModel {
  conversationId: string | null;
  loading: boolean;
  loadError: string | null;
  /** For the next new conversation: false starts a temporary chat without memory. */
  newChatMemory: boolean;
  /**
   * The space of the open conversation when it is a temporary one (null otherwise): the backend keeps it
   * only until this window leaves it, which this window tells that space (conversations.close).
   */
  temporary: string | null;
  sending: boolean;
  /** A message to scroll to and highlight briefly (a provenance link); the list clears it once shown. */
  focusMessageId: string | null;
  /**
   * The cursors of the pages either side of the items (null: the items reach the start / the end). A
   * window opened at a message has newer pages to load; until it reaches the end, run events are not
   * applied (the page that reaches the end says where to attach).
   */
  older: string | null;
  newer: string | null;
  /** A page being fetched, before or after the items. */
  paging: 'older' | 'newer' | null;
  /**
   * Load a conversation (null: a fresh, empty chat). Also re-attaches to a run still streaming into it.
   * `focus` names a message to bring into view once loaded.
   */
  open(conversationId: string | null, options?: { memory?: boolean; focus?: string }): Promise<void>;
  /** Bring a message of the open conversation into view (null: done). */
  focusMessage(messageId: string | null): void;
  /** Fetch the page before the items (scrolling up) or after them (scrolling down from a message). */
  loadMore(direction: 'older' | 'newer'): Promise<void>;
  /** Show the end of the conversation (opened at a message: its last page instead). */
  showLatest(): Promise<void>;
  /** Restore the window's conversation and run after a reload. */
  restore(): Promise<void>;
  /**
   * A switch of space: the old space's conversation leaves the screen at once and `conversationId` (the
   * one the switch will open, null: a new chat) shows as loading, with nothing requested yet; the switch
   * opens it once the new space's list and memory panel are on screen.
   */
  hold(conversationId: string | null): void;
  /** After a transport reconnect: fetch what the active run emitted meanwhile. */
  resync(): Promise<void>;
  applyEvents(events: readonly RunEvent[]): void;
  send(text: string): Promise<boolean>;
  stop(): Promise<void>;
  retry(errorItemId: string): Promise<void>;
  regenerate(): Promise<void>;
  editResend(messageId: string, text: string): Promise<boolean>;
  pin(messageId: string, pinned: boolean): Promise<void>;
  review(reviewId: string, decision: 'approve' | 'edit' | 'reject', content?: string): Promise<void>;
  revertMemory(journalId: string): Promise<void>;
  /** The journal entry a memory tool call made (looked up in the file's history when not known live). */
  resolveJournalId(toolUseId: string, path: string): Promise<string | null>;
  /** The before/after of a journaled memory change, for the card's diff. */
  loadMemoryDiff(journalId: string): Promise<{ before: string | null; after: string | null }>;
}

let pendingCounter = 0;
let loadToken = 0;

/** The window on `conversationId` before any of it is loaded (loading unless it is a new chat). */
function emptyWindow(conversationId: string | null) {
  return {
    focusMessageId: null,
    conversationId,
    items: [],
    runs: {},
    activeRunId: null,
    loadError: null,
    older: null,
    newer: null,
    paging: null,
    loading: conversationId !== null,
    temporary: null,
  } satisfies Partial<ChatState>;
}

/** The window leaves the conversation it showed: a temporary one ends there (nothing else does). */
function leave(s: { conversationId: string | null; temporary: string | null }, next: string | null): void {
  if (s.temporary === null || s.conversationId === null || s.conversationId === next) return;
  const id = s.conversationId;
  const api = getApiIn(s.temporary);
  void api['conversations.close']({ id }).catch(() => undefined);
  forgetConversation(id);
}

export const useChat = create<ChatState>()((set, get) => {
  /** Follow a run from `afterSeq`: make it known, then fetch what it emitted after that seq. */
  const follow = (runId: string, conversationId: string, afterSeq: number): Promise<void> => {
    const s = get();
    if (s.conversationId === null) rememberConversation(conversationId, s.temporary === null);
    const runs: Record<string, RunState> = s.runs[runId]
      ? s.runs
      : {
          ...s.runs,
          [runId]: { runId, conversationId, lastSeq: afterSeq, status: 'running', userMessageId: null },
        };
    set({ conversationId, runs, activeRunId: runs[runId]?.status === 'running' ? runId : s.activeRunId });
    return attach(runId, runs[runId]!.lastSeq);
  };

  const attach = async (runId: string, afterSeq: number): Promise<void> => {
    try {
      const res = await getApi()['chat.attach']({ runId, afterSeq });
      if (res.events.length) get().applyEvents(res.events);
      if (res.run && res.run.status !== 'running') {
        const s = get();
        const run = s.runs[runId];
        if (run && run.status === 'running') {
          set({
            runs: { ...s.runs, [runId]: { ...run, status: res.run.status } },
            activeRunId: s.activeRunId === runId ? null : s.activeRunId,
          });
        }
      }
      if (!res.run && get().activeRunId === runId) set({ activeRunId: null });
    } catch {
      // The run is gone (e.g. the backend restarted): what was persisted is what the transcript shows.
      if (get().activeRunId === runId) set({ activeRunId: null });
    }
  };

  /** Start a run from a call that returns its id (send, retry, regenerate, edit, compact). */
  const startRun = async (
    call: () => Promise<{ runId: string; conversationId?: string }>,
  ): Promise<boolean> => {
    const conversationIdBefore = get().conversationId;
    set({ sending: true });
    try {
      const res = await call();
      const conversationId = res.conversationId ?? conversationIdBefore;
      // From the run's first event: what streamed before this answer arrived is fetched, not buffered.
      if (conversationId) void follow(res.runId, conversationId, 0);
      return true;
    } catch (err) {
      toast(errorMessage(err), { tone: 'error' });
      return false;
    } finally {
      set({ sending: false });
    }
  };

  return {
    items: [],
    runs: {},
    activeRunId: null,
    conversationId: null,
    loading: false,
    loadError: null,
    newChatMemory: true,
    temporary: null,
    sending: false,
    focusMessageId: null,
    older: null,
    newer: null,
    paging: null,

    focusMessage(messageId) {
      set({ focusMessageId: messageId });
    },

    async loadMore(direction) {
      const s = get();
      const cursor = direction === 'older' ? s.older : s.newer;
      if (!s.conversationId || cursor === null || s.paging !== null || s.loading) return;
      const token = loadToken;
      const conversationId = s.conversationId;
      set({ paging: direction });
      let page: LoadedTranscript;
      try {
        page = await loadPage(
          conversationId,
          direction === 'older' ? { before: cursor } : { from: cursor },
          scrollPageSize(),
        );
      } catch (err) {
        // Said once, not fetched again and again as the list asks for more: reopening starts afresh.
        if (token === loadToken) set({ paging: null, [direction]: null });
        toast(errorMessage(err), { tone: 'error' });
        return;
      }
      if (token !== loadToken) return;
      const now = get();
      const merged = mergePage(now, direction, cursor, page);
      set({ ...merged, paging: null });
      if (merged.newer !== null || page.newer !== null) return;
      // The page reaches the end: a run still streaming continues after the seq its items reflect.
      const live = page.runs.find((r) => r.status === 'running');
      if (!live) return;
      // An older page that took a whole window at the end (one joined turn): its items are the stored
      // ones, so the run is followed again from the seq they reflect.
      if (now.newer === null) set({ runs: withoutRun(get().runs, live.runId) });
      await follow(live.runId, conversationId, live.seq);
    },

    async showLatest() {
      const { conversationId, newer } = get();
      if (conversationId !== null && newer !== null) await get().open(conversationId);
    },

    async open(conversationId, options) {
      const s0 = get();
      // Already showing it: only scroll to the message (no reload, no flash of the spinner).
      const shown = s0.items.some(
        (i) => i.id === options?.focus || (i.kind === 'tool' && i.toolUseId === options?.focus),
      );
      if (
        options?.focus &&
        conversationId !== null &&
        s0.conversationId === conversationId &&
        !s0.loading &&
        shown
      ) {
        set({ focusMessageId: options.focus });
        return;
      }
      const token = ++loadToken;
      leave(s0, conversationId);
      set({
        ...emptyWindow(conversationId),
        focusMessageId: options?.focus ?? null,
        newChatMemory: options?.memory ?? true,
      });
      rememberConversation(conversationId);
      if (conversationId === null) return;
      try {
        // One page: the end, or the turns around the message to show.
        const loaded = await loadTranscript(conversationId, { limit: pageSize(), around: options?.focus });
        if (token !== loadToken) return;
        const temporary = loaded.memory === false ? currentSpaceId() : null;
        // A new window offered this one (the last conversation of any window) opens no temporary chat.
        if (temporary !== null) forgetConversation(conversationId, true);
        set({
          items: loaded.items.slice(),
          older: loaded.older,
          newer: loaded.newer,
          loading: false,
          temporary,
        });
        // A run may still be streaming into it (another window, or before a reload): continue after the
        // last seq the items reflect.
        const live = loaded.newer === null ? loaded.runs.find((r) => r.status === 'running') : undefined;
        if (live) await follow(live.runId, conversationId, live.seq);
      } catch (err) {
        if (token !== loadToken) return;
        set({ loading: false, loadError: errorMessage(err) });
      }
    },

    async restore() {
      // The backend says where the transcript ends in a live run: `open` attaches after that.
      await get().open(rememberedConversation());
    },

    hold(conversationId) {
      ++loadToken; // an open still loading belongs to the old space
      leave(get(), conversationId);
      set(emptyWindow(conversationId));
    },

    async resync() {
      const s = get();
      const run = s.activeRunId ? s.runs[s.activeRunId] : undefined;
      if (run) await attach(run.runId, run.lastSeq);
    },

    applyEvents(events) {
      const s = get();
      // While a conversation loads, its runs are followed from the seq the load reports, not from here;
      // while the items stop short of the end, from the seq the page that reaches it reports.
      if (s.loading || s.newer !== null) return;
      // Events of other conversations are not this window's; a run it follows is fetched from its seq.
      const forUs = events.filter((e) => s.conversationId !== null && e.conversationId === s.conversationId);
      if (!forUs.length) return;
      const result = applyRunEvents(s, forUs);
      if (result.changed) {
        set({ items: result.model.items, runs: result.model.runs, activeRunId: result.model.activeRunId });
      }
      for (const gap of result.gaps) void attach(gap.runId, gap.afterSeq);
    },

    async send(text) {
      // Opened at an older message: the answer goes at the end, so show the end first.
      if (get().newer !== null) await get().showLatest();
      const s = get();
      if (s.activeRunId || s.sending) return false;
      const pendingId = `pending:${++pendingCounter}`;
      // Shown as it will be stored: the contract trims a message (a trailing newline would differ on reload).
      const shown = text.trim();
      set({
        items: [...s.items, { kind: 'user', id: pendingId, text: shown, pinned: false, pending: true }],
      });
      const conversationId = s.conversationId;
      const ok = await startRun(async () => {
        const res = await getApi()['chat.send'](
          conversationId ? { conversationId, text } : { text, memory: s.newChatMemory },
        );
        if (!conversationId && !s.newChatMemory) set({ temporary: currentSpaceId() });
        // Give the optimistic item its real id unless run.started already did.
        set({
          items: get().items.map((i) => {
            if (i.id !== pendingId || i.kind !== 'user') return i;
            const { pending: _sent, ...confirmed } = i;
            return { ...confirmed, id: res.userMessageId };
          }),
        });
        return res;
      });
      if (!ok) set({ items: get().items.filter((i) => i.id !== pendingId) });
      return ok;
    },

    async stop() {
      const runId = get().activeRunId;
      if (!runId) return;
      try {
        await getApi()['chat.abort']({ runId });
      } catch (err) {
        toast(errorMessage(err), { tone: 'error' });
      }
    },

    async retry(errorItemId) {
      const { conversationId, items } = get();
      if (!conversationId) return;
      // As chat.retry leaves the stored turn: its error cards go, and an answer cut off at its end.
      const kept = retryItems(items);
      set({
        items: kept.some((i) => i.id === errorItemId) ? kept.filter((i) => i.id !== errorItemId) : kept,
      });
      const ok = await startRun(() => getApi()['chat.retry']({ conversationId }));
      if (!ok) set({ items });
    },

    async regenerate() {
      const { conversationId, items } = get();
      if (!conversationId) return;
      const lastUser = findLastIndex(items, (i) => i.kind === 'user');
      // The backend drops the last answer; drop it here too so the new one streams in its place.
      set({ items: items.slice(0, lastUser + 1) });
      const ok = await startRun(() => getApi()['chat.regenerate']({ conversationId }));
      if (!ok) set({ items });
    },

    async editResend(messageId, text) {
      const { conversationId, items } = get();
      if (!conversationId) return false;
      const at = items.findIndex((i) => i.id === messageId);
      if (at < 0) return false;
      const pendingId = `pending:${++pendingCounter}`;
      set({
        items: [
          ...items.slice(0, at),
          { kind: 'user', id: pendingId, text: text.trim(), pinned: false, pending: true },
        ],
      });
      const ok = await startRun(() => getApi()['chat.editResend']({ conversationId, messageId, text }));
      if (!ok) set({ items });
      return ok;
    },

    async pin(messageId, pinned) {
      const { conversationId } = get();
      if (!conversationId) return;
      const toggle = (value: boolean): void =>
        set({
          items: get().items.map((i) =>
            i.id === messageId && (i.kind === 'user' || i.kind === 'assistant') ? { ...i, pinned: value } : i,
          ),
        });
      toggle(pinned);
      try {
        await getApi()['chat.pin']({ conversationId, messageId, pinned });
      } catch (err) {
        toggle(!pinned);
        toast(errorMessage(err), { tone: 'error' });
      }
    },

    async review(reviewId, decision, content) {
      try {
        await getApi()['chat.review'](
          content === undefined ? { reviewId, decision } : { reviewId, decision, content },
        );
      } catch (err) {
        toast(errorMessage(err), { tone: 'error' });
      }
    },

    async revertMemory(journalId) {
      try {
        await getApi()['memory.revert']({ journalId });
        set({
          items: get().items.map((i) =>
            i.kind === 'tool' && i.journalId === journalId ? { ...i, reverted: true } : i,
          ),
        });
        toast('Memory change undone.', { tone: 'success' });
      } catch (err) {
        toast(errorMessage(err), { tone: 'error' });
      }
    },

    async resolveJournalId(toolUseId, path) {
      const known = get().items.find((i) => i.kind === 'tool' && i.toolUseId === toolUseId);
      if (known?.kind === 'tool' && known.journalId) return known.journalId;
      const res = await getApi()['memory.history']({ path });
      const entry = res.entries.find((e) => e.toolUseId === toolUseId);
      if (!entry) return null;
      set({
        items: get().items.map((i) =>
          i.kind === 'tool' && i.toolUseId === toolUseId ? { ...i, journalId: entry.id } : i,
        ),
      });
      return entry.id;
    },

    async loadMemoryDiff(journalId) {
      const res = await getApi()['memory.diff']({ journalId });
      return { before: res.before, after: res.after };
    },
  };
});

function findLastIndex<T>(list: readonly T[], pred: (t: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (pred(list[i] as T)) return i;
  return -1;
}

/** Is a run streaming into the open conversation? */
export const selectRunning = (s: ChatState): boolean => s.activeRunId !== null || s.sending;

function withoutRun(runs: Record<string, RunState>, runId: string): Record<string, RunState> {
  const { [runId]: _gone, ...rest } = runs;
  return rest;
}
