// Loading a conversation's transcript, a page at a time (the backend cuts it at whole turns), and
// announcing every last page loaded to the slices that derive something from it (the Activity tab's tool
// calls), so the page a window opens with crosses the wire once, not once per slice.
// Depends on nothing but the Api, so any slice can use it without an import cycle.
import type { RunStatus } from '../../shared/channels/chat';
import type { ConversationSummary, TranscriptItem } from '../../shared/channels/conversations';
import { getApi } from '../api';

type Listener = (conversationId: string, loaded: Promise<LoadedTranscript>) => void;

const listeners = new Set<Listener>();

/** Be told of every load of a conversation's last page, with its (pending) items and the seq they reflect. */
export function onTranscriptLoad(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const opened = new Set<(summary: ConversationSummary) => void>();

/** Be told of the summary of every conversation opened (the sidebar's list may not have it yet). */
export function onConversationOpened(listener: (summary: ConversationSummary) => void): void {
  opened.add(listener);
}

type Runs = readonly { runId: string; status: RunStatus; seq: number }[];

/**
 * Some of a conversation's items, and where they end: `older` / `newer` are the cursors of the pages
 * either side (null at the start / at the end). `runs` is the run still streaming into it with the last
 * seq the items reflect, known when the items reach the end.
 */
export interface LoadedTranscript {
  items: readonly TranscriptItem[];
  older: string | null;
  newer: string | null;
  runs: Runs;
  /** Known when it was opened: false for a temporary conversation (kept by the backend until left). */
  memory?: boolean;
}

/** The least an item is tall (one line of text with its padding), in px. */
const ITEM_MIN_PX = 40;

export const windowHeight = (): number => (typeof window === 'undefined' ? 800 : window.innerHeight || 800);

/**
 * How many items an open asks for: enough to fill this window were every item one line, and no more. The
 * first screen is the open's only wait, so it carries nothing off screen: the screen above it is fetched
 * after it is painted, when it is needed (message-list.tsx pages a screen ahead), as it would be for a
 * short chat's.
 */
export function pageSize(): number {
  return Math.min(500, Math.max(20, Math.ceil(windowHeight() / ITEM_MIN_PX)));
}

/** How many items a page asked for while scrolling holds: two windows' worth, one to show, one ahead. */
export function scrollPageSize(): number {
  return Math.min(500, Math.max(20, Math.ceil((2 * windowHeight()) / ITEM_MIN_PX)));
}

/** Opens a conversation: its last page, or the page around `around`. */
export function loadTranscript(
  conversationId: string,
  page: { limit: number; around?: string | undefined },
): Promise<LoadedTranscript> {
  const req = { id: conversationId, limit: page.limit, ...(page.around ? { around: page.around } : {}) };
  const get = getApi()['conversations.get'];
  const loaded = get(req).then((res) => {
    for (const listener of opened) listener(res.conversation);
    return {
      items: res.items,
      older: res.older ?? null,
      newer: res.newer ?? null,
      runs: res.runs ?? [],
      memory: res.conversation.memory,
    };
  });
  // The last page saves the Activity tab its own load; a page around a message only if it reaches the end.
  const announce = (page: Promise<LoadedTranscript>): void => {
    for (const listener of listeners) listener(conversationId, page);
  };
  if (!page.around) announce(loaded);
  else
    void loaded.then(
      (res) => res.newer === null && announce(Promise.resolve(res)),
      () => undefined,
    );
  return loaded;
}

/** The page before `before` (scrolling up) or from `from` on (scrolling down). */
export async function loadPage(
  conversationId: string,
  at: { before: string } | { from: string },
  limit: number,
): Promise<LoadedTranscript> {
  const res = await getApi()['conversations.page']({ id: conversationId, ...at, limit });
  return { items: res.items, older: res.older ?? null, newer: res.newer ?? null, runs: res.runs ?? [] };
}
