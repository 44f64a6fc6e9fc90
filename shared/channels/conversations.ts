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
});
export type ConversationSummary = z.infer<typeof conversationSummary>;

/** One item of the visible transcript (shared/projection/items.ts). Tool calls and cards are items of their own. */
export const transcriptItem = viewItem;
export type TranscriptItem = z.infer<typeof transcriptItem>;

export const conversationsInvoke = {
  'conversations.list': { req: z.object({}), res: z.object({ conversations: z.array(conversationSummary) }) },
  'conversations.get': {
    req: z.object({ id }),
    res: z.object({
      conversation: conversationSummary,
      items: z.array(transcriptItem),
      /**
       * The run still streaming into it, if any, and the last seq of that run the items reflect: attach
       * after it (chat.attach) to continue exactly where the items end.
       */
      runs: z.array(z.object({ runId: id, status: runStatus, seq: z.number().int().min(0) })).optional(),
    }),
  },
  'conversations.create': {
    req: z.object({ title: z.string().max(200).optional(), memory: z.boolean().default(true) }),
    res: z.object({ conversation: conversationSummary }),
  },
  'conversations.rename': {
    req: z.object({ id, title: z.string().trim().min(1).max(200) }),
    res: z.object({ conversation: conversationSummary }),
  },
  'conversations.delete': { req: z.object({ id }), res: ok },
  'conversations.search': {
    req: z.object({ query: z.string().trim().min(1).max(500) }),
    res: z.object({
      results: z.array(z.object({ id, title: z.string(), snippet: z.string(), messageId: id.optional() })),
    }),
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
  },
};

export const conversationsEvents = {
  'conversations.changed': z.object({ conversations: z.array(conversationSummary) }),
};
