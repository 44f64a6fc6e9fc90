// The chat slice: the open conversation's items, the runs streaming into it, and the actions the chat UI
// calls (send, stop, retry, regenerate, edit-and-resend, pin, review, undo a memory change). Run events
// reach it through the bridge, batched per animation frame; the pure event handling is in chat-items.ts.
import { create } from 'zustand';
import type { RunEvent } from '../../shared/channels/chat';
import type { EventPayload } from '../../shared/contract';
import { getApi } from '../api';
import { errorMessage } from '../lib/format';
import {
  applyRunEvents,
  memoryWriteTarget,
  type ChatItem,
  type ChatModel,
  type RunState,
} from './chat-items';
import { loadTranscript } from './transcripts';
import { toast } from './toast';

export type { ChatItem } from './chat-items';

const RUN_KEY = 'mnemo.run';
const CONVERSATION_KEY = 'mnemo.conversation';
const LAST_CONVERSATION_KEY = 'mnemo.lastConversation';
/** Events for a run this window does not know yet (e.g. chat.send has not answered); bounded. */
const MAX_ORPHANS = 5_000;

interface SavedRun {
  runId: string;
  conversationId: string;
  lastSeq: number;
  /** The text just sent, so a reload before the backend persisted it still shows the user's turn. */
  userText?: string | undefined;
}

interface ChatState extends ChatModel {
  conversationId: string | null;
  loading: boolean;
  loadError: string | null;
  /** For the next new conversation: false starts a temporary chat without memory. */
  newChatMemory: boolean;
  sending: boolean;
  orphans: RunEvent[];
  /** A message to scroll to and highlight briefly (a provenance link); the list clears it once shown. */
  focusMessageId: string | null;
  /**
   * Load a conversation (null: a fresh, empty chat). Also re-attaches to a run still streaming into it.
   * `focus` names a message to bring into view once loaded.
   */
  open(conversationId: string | null, options?: { memory?: boolean; focus?: string }): Promise<void>;
  /** Bring a message of the open conversation into view (null: done). */
  focusMessage(messageId: string | null): void;
  /** Restore the window's conversation and run after a reload. */
  restore(): Promise<void>;
  /** After a transport reconnect: fetch what the active run emitted meanwhile. */
  resync(): Promise<void>;
  applyEvents(events: readonly RunEvent[]): void;
  onMemoryChanged(change: EventPayload<'memory.changed'>): void;
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

export const useChat = create<ChatState>()((set, get) => {
  /** Make a run known to this window and apply what arrived for it before we knew its id. */
  const adopt = (runId: string, conversationId: string): void => {
    const s = get();
    const isNew = s.conversationId === null;
    if (isNew) rememberConversation(conversationId);
    const runs: Record<string, RunState> = s.runs[runId]
      ? s.runs
      : {
          ...s.runs,
          [runId]: { runId, conversationId, lastSeq: 0, status: 'running', userMessageId: null },
        };
    set({ conversationId, runs, activeRunId: runs[runId]?.status === 'running' ? runId : s.activeRunId });
    const mine = s.orphans.filter((e) => e.runId === runId);
    set({ orphans: s.orphans.filter((e) => e.runId !== runId) });
    if (mine.length) get().applyEvents(mine);
    saveRun();
  };

  const saveRun = (userText?: string): void => {
    const s = get();
    const run = s.activeRunId ? s.runs[s.activeRunId] : undefined;
    try {
      if (!run) {
        sessionStorage.removeItem(RUN_KEY);
        return;
      }
      const prev = readSavedRun();
      const saved: SavedRun = {
        runId: run.runId,
        conversationId: run.conversationId,
        lastSeq: run.lastSeq,
        userText: userText ?? (prev?.runId === run.runId ? prev.userText : undefined),
      };
      sessionStorage.setItem(RUN_KEY, JSON.stringify(saved));
    } catch {
      // Without sessionStorage a reload simply starts from the persisted transcript.
    }
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
      saveRun();
    } catch {
      // The run is gone (e.g. the backend restarted): what was persisted is what the transcript shows.
      if (get().activeRunId === runId) set({ activeRunId: null });
      saveRun();
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
      if (conversationId) adopt(res.runId, conversationId);
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
    sending: false,
    orphans: [],
    focusMessageId: null,

    focusMessage(messageId) {
      set({ focusMessageId: messageId });
    },

    async open(conversationId, options) {
      const s0 = get();
      // Already showing it: only scroll to the message (no reload, no flash of the spinner).
      if (options?.focus && conversationId !== null && s0.conversationId === conversationId && !s0.loading) {
        set({ focusMessageId: options.focus });
        return;
      }
      const token = ++loadToken;
      set({
        focusMessageId: options?.focus ?? null,
        conversationId,
        items: [],
        runs: {},
        activeRunId: null,
        loadError: null,
        loading: conversationId !== null,
        newChatMemory: options?.memory ?? true,
      });
      rememberConversation(conversationId);
      if (conversationId === null) return;
      try {
        const transcript = await loadTranscript(conversationId);
        if (token !== loadToken) return;
        set({ items: transcript.slice(), loading: false });
      } catch (err) {
        if (token !== loadToken) return;
        set({ loading: false, loadError: errorMessage(err) });
        return;
      }
      // A run may still be streaming into this conversation (another window, or before a reload).
      try {
        const res = await getApi()['chat.attach']({ conversationId, afterSeq: 0 });
        if (token !== loadToken || !res.run || res.run.status !== 'running') return;
        const s = get();
        set({
          runs: {
            ...s.runs,
            [res.run.runId]: {
              runId: res.run.runId,
              conversationId,
              lastSeq: 0,
              status: 'running',
              userMessageId: null,
            },
          },
          activeRunId: res.run.runId,
        });
        insertSavedUserText(res.run.runId, res.events);
        get().applyEvents(res.events);
        saveRun();
      } catch {
        // No live run: the transcript is complete.
      }
    },

    async restore() {
      let conversationId: string | null;
      try {
        conversationId =
          sessionStorage.getItem(CONVERSATION_KEY) ?? localStorage.getItem(LAST_CONVERSATION_KEY) ?? null;
      } catch {
        conversationId = null;
      }
      // A reload loses the streamed text, so `open` replays the run from seq 0 (not the saved lastSeq);
      // items the transcript already has are not touched by the replay.
      await get().open(conversationId);
    },

    async resync() {
      const s = get();
      const run = s.activeRunId ? s.runs[s.activeRunId] : undefined;
      if (run) await attach(run.runId, run.lastSeq);
    },

    applyEvents(events) {
      const s = get();
      const forUs: RunEvent[] = [];
      const orphans: RunEvent[] = [];
      for (const e of events) {
        if (s.conversationId !== null && e.conversationId === s.conversationId) forUs.push(e);
        else orphans.push(e);
      }
      if (orphans.length) set({ orphans: [...get().orphans, ...orphans].slice(-MAX_ORPHANS) });
      if (!forUs.length) return;
      const result = applyRunEvents(s, forUs);
      if (result.changed) {
        set({ items: result.model.items, runs: result.model.runs, activeRunId: result.model.activeRunId });
        saveRun();
      }
      for (const gap of result.gaps) void attach(gap.runId, gap.afterSeq);
    },

    onMemoryChanged(change) {
      const s = get();
      if (!change.conversationId || change.conversationId !== s.conversationId) return;
      if (change.actor !== 'agent') return;
      // A change made by a memory tool call in view becomes that call's diff and Undo (one card, not two).
      for (let i = s.items.length - 1; i >= 0; i--) {
        const it = s.items[i]!;
        const target = memoryWriteTarget(it);
        if (it.kind !== 'tool' || !target || it.journalId) continue;
        if (target.path !== change.path) continue;
        const items = s.items.slice();
        items[i] = { ...it, journalId: change.journalId };
        set({ items });
        return;
      }
      const id = `mem:${change.journalId ?? `${change.path}:${s.items.length}`}`;
      if (s.items.some((i) => i.id === id)) return;
      const item: ChatItem = {
        kind: 'memory',
        id,
        journalId: change.journalId,
        path: change.path,
        newPath: change.newPath,
        command: change.command,
        reverted: false,
      };
      set({ items: [...s.items, item] });
    },

    async send(text) {
      const s = get();
      if (s.activeRunId || s.sending) return false;
      const pendingId = `pending:${++pendingCounter}`;
      set({ items: [...s.items, { kind: 'user', id: pendingId, text, pinned: false, pending: true }] });
      const conversationId = s.conversationId;
      const ok = await startRun(async () => {
        const res = await getApi()['chat.send'](
          conversationId ? { conversationId, text } : { text, memory: s.newChatMemory },
        );
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
      else saveRun(text);
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
      set({ items: items.filter((i) => i.id !== errorItemId) });
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
        items: [...items.slice(0, at), { kind: 'user', id: pendingId, text, pinned: false, pending: true }],
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
            (i.kind === 'memory' || i.kind === 'tool') && i.journalId === journalId
              ? { ...i, reverted: true }
              : i,
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

  /** After a reload the user's turn may not be persisted yet: show the text this window sent. */
  function insertSavedUserText(runId: string, events: readonly RunEvent[]): void {
    const saved = readSavedRun();
    if (!saved || saved.runId !== runId || !saved.userText) return;
    const started = events.find((e) => e.type === 'run.started');
    if (!started || started.type !== 'run.started') return;
    if (get().items.some((i) => i.id === started.userMessageId)) return;
    set({
      items: [
        ...get().items,
        { kind: 'user', id: started.userMessageId, text: saved.userText, pinned: false },
      ],
    });
  }
});

function readSavedRun(): SavedRun | null {
  try {
    const raw = sessionStorage.getItem(RUN_KEY);
    return raw ? (JSON.parse(raw) as SavedRun) : null;
  } catch {
    return null;
  }
}

function rememberConversation(id: string | null): void {
  try {
    if (id === null) {
      sessionStorage.removeItem(CONVERSATION_KEY);
    } else {
      sessionStorage.setItem(CONVERSATION_KEY, id);
      localStorage.setItem(LAST_CONVERSATION_KEY, id);
    }
  } catch {
    // Storage disabled: the window just opens a new chat after a reload.
  }
}

function findLastIndex<T>(list: readonly T[], pred: (t: T) => boolean): number {
  for (let i = list.length - 1; i >= 0; i--) if (pred(list[i] as T)) return i;
  return -1;
}

/** Is a run streaming into the open conversation? */
export const selectRunning = (s: ChatState): boolean => s.activeRunId !== null || s.sending;
