// Conversations: persisted per conversation in the data dir. The transcript returned here is the UI's
// view (text, tool calls, cards); the exact API history stays on the main side.
import { z } from 'zod';
import { viewItem } from '../projection/items.js';
import { runStatus } from './chat.js';
import { id, isoTime, ok } from './common.js';
import { spaceId } from './spaces.js';

export const conversationSummary = z.object({
  id,
  title: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
  /** false for a temporary "without memory" conversation. */
  memory: z.boolean(),
  messageCount: z.number().int(),
  /** Present (true) when the user asked that recall never search this conversation. */
  noSearch: z.literal(true).optional(),
});
export type ConversationSummary = z.infer<typeof conversationSummary>;

/** One item of the visible transcript (shared/projection/items.ts). Tool calls and cards are items of their own. */
export const transcriptItem = viewItem;
export type TranscriptItem = z.infer<typeof transcriptItem>;

/**
 * How many items a window asks for at a time: enough to fill it (it knows its height), bounded so one
 * answer stays small however long the conversation is. A page holds whole turns, so it may be longer.
 */
export const pageLimit = z.number().int().min(1).max(500);

/** The least height of a row of the sidebar's list: a window's first list asks for what fills its height. */
export const LIST_ROW_MIN_PX = 32;

/** How many conversations a first list of a window `heightPx` tall asks for (pageLimit's bounds). */
export const firstListLimit = (heightPx: number): number =>
  Math.min(500, Math.max(20, Math.ceil(heightPx / LIST_ROW_MIN_PX)));

/** Where a page ends: ask for `before: older` or `from: newer` to go on; null at either end. */
const pageCursors = {
  older: z.string().nullable().optional(),
  newer: z.string().nullable().optional(),
};

/** The run still streaming into a conversation and the last seq of it that the items reflect. */
const liveRuns = z.array(z.object({ runId: id, status: runStatus, seq: z.number().int().min(0) })).optional();

export const conversationsInvoke = {
  /**
   * The space's conversations, newest first. With `limit`, the first `limit` of them and whether more
   * follow (a window's first list: what fills its sidebar, however many there are); without, all.
   */
  'conversations.list': {
    req: z.object({ limit: pageLimit.optional() }),
    res: z.object({ conversations: z.array(conversationSummary), more: z.boolean().optional() }),
  },
  /**
   * Opens a conversation. With `limit`, one page: its last turns (at least `limit` items), or with `around`
   * the turns around that message (or tool call), which the window scrolls into view; without, every item.
   */
  'conversations.get': {
    req: z.object({ id, limit: pageLimit.optional(), around: id.optional() }),
    res: z.object({
      conversation: conversationSummary,
      items: z.array(transcriptItem),
      ...pageCursors,
      /**
       * The run still streaming into it, if any, and the last seq of that run the items reflect: attach
       * after it (chat.attach) to continue exactly where the items end.
       */
      runs: liveRuns,
    }),
  },
  /**
   * More of an open conversation: the turns just before `before` (scrolling up) or from `from` on
   * (scrolling down after opening at a message). A page that reaches the end carries `runs`, like an open.
   */
  'conversations.page': {
    /** Exactly one of `before` and `from` (a plain object, so callers can extend it). */
    req: z.object({ id, before: id.optional(), from: id.optional(), limit: pageLimit }),
    res: z.object({ items: z.array(transcriptItem), ...pageCursors, runs: liveRuns }),
  },
  'conversations.rename': {
    req: z.object({ id, title: z.string().trim().min(1).max(200) }),
    res: z.object({ conversation: conversationSummary }),
  },
  /**
   * Deletes at once: the conversation leaves the list, the recall index and every window now; its file waits
   * in the trash for a `conversations.restore` (the window's Undo) for a short while, then is gone for good.
   */
  'conversations.delete': { req: z.object({ id }), res: ok, destructive: true as const },
  /**
   * The window left a conversation (opened another, a new chat, another space). A temporary one ends
   * there: a reply still being written is stopped and the conversation is gone from memory, its run
   * events too. Any other conversation is not affected.
   */
  'conversations.close': { req: z.object({ id }), res: ok },
  /** Undoes a deletion, while it can be (`not_found`, "deleted for good", after): listed and searchable again. */
  'conversations.restore': { req: z.object({ id }), res: z.object({ conversation: conversationSummary }) },
  /**
   * The space's recall index, as the model's conversation_search ranks it (titles too, the last word also
   * as a prefix): the best matches first, each with a snippet and the [start, end) ranges of its matches.
   */
  'conversations.search': {
    req: z.object({ query: z.string().trim().min(1).max(500) }),
    res: z.object({
      results: z.array(
        z.object({
          id,
          title: z.string(),
          snippet: z.string(),
          messageId: id.optional(),
          ranges: z.array(z.tuple([z.number().int(), z.number().int()])).optional(),
          at: isoTime.optional(),
          role: z.enum(['user', 'assistant']).optional(),
        }),
      ),
    }),
  },
  /** "Don't search this": recall (the model's and the sidebar's) leaves the conversation out, or takes it back. */
  'conversations.searchable': {
    req: z.object({ id, searchable: z.boolean() }),
    res: z.object({ conversation: conversationSummary }),
  },
  /** The space's recall switch: read it, or set it with `on`. */
  'conversations.recall': {
    req: z.object({ on: z.boolean().optional() }),
    res: z.object({ on: z.boolean() }),
  },
  /** The conversation as Markdown (the renderer saves it). */
  'conversations.export': {
    req: z.object({ id }),
    res: z.object({ fileName: z.string(), markdown: z.string() }),
  },
  /**
   * "Move to space…": the conversation leaves the call's space for space `to` (same id); its later turns
   * read and write that space's memory, and its transcript gets a card saying so. Refused (`unavailable`)
   * while a reply is being written in it.
   */
  'conversations.moveToSpace': {
    req: z.object({ id, to: spaceId }),
    res: z.object({ conversation: conversationSummary }),
    transfer: true as const,
  },
};

export const conversationsEvents = {
  'conversations.changed': z.object({ conversations: z.array(conversationSummary) }),
  /**
   * The space's recall index is being built on first need (tagged with its space like every spaced event):
   * documents indexed of total, from 0 up to total, which the last one reaches. A search made meanwhile
   * waits for the build; the sidebar shows this while it does.
   */
  'conversations.indexing': z.object({
    indexed: z.number().int().min(0),
    total: z.number().int().min(1),
  }),
};
