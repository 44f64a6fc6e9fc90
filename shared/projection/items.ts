// What a person sees of a conversation: one item per message, tool call and card. The same items are built
// from the stored records (conversations.get) and from a run's live events (project.ts); tests hold the two
// deep-equal. Invariants: ids are stable across both paths (message ids, `tool:<tool_use_id>`,
// `review:<review id>`, a card's record id), and every label is derived from a card's fact (cards.ts).
import { z } from 'zod';
import { cardFact } from './cards.js';

/** When it happened: the stored record's time (the tool item's `at` is its reply's). */
const at = z.string().optional();

export const viewItem = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('user'),
    id: z.string(),
    text: z.string(),
    pinned: z.boolean(),
    /** Sent by this window and not yet given its id by the backend. */
    pending: z.boolean().optional(),
    at,
  }),
  z.object({
    kind: z.literal('assistant'),
    id: z.string(),
    text: z.string(),
    pinned: z.boolean(),
    interrupted: z.boolean(),
    streaming: z.boolean(),
    at,
  }),
  z.object({
    kind: z.literal('tool'),
    id: z.string(),
    toolUseId: z.string(),
    name: z.string(),
    input: z.unknown(),
    result: z.string().nullable(),
    isError: z.boolean(),
    durationMs: z.number().nullable(),
    /** A memory write: the journal entry it made (older records have none: it is looked up by tool id). */
    journalId: z.string().optional(),
    /** When the model asked for it (the reply's time). */
    at: z.string(),
  }),
  z.object({
    kind: z.literal('event'),
    id: z.string(),
    /** The card's kind: backfill | cleared | compacted | compaction_stuck | turn_limit | interrupted | memory_changed */
    event: z.string(),
    text: z.string(),
    detail: z.string().optional(),
    /** The structured fact the label came from (absent for cards stored before facts were). */
    fact: cardFact.optional(),
    at,
  }),
  z.object({
    kind: z.literal('review'),
    id: z.string(),
    reviewId: z.string(),
    toolUseId: z.string(),
    command: z.string(),
    path: z.string(),
    before: z.string().nullable(),
    after: z.string().nullable(),
    outcome: z.enum(['approved', 'edited', 'rejected']).nullable(),
    at,
  }),
  z.object({
    kind: z.literal('error'),
    id: z.string(),
    errorKind: z.string(),
    message: z.string(),
    retryable: z.boolean(),
    at,
  }),
]);
export type ViewItem = z.infer<typeof viewItem>;
export type ViewItemOf<K extends ViewItem['kind']> = Extract<ViewItem, { kind: K }>;

export const toolItemId = (toolUseId: string): string => `tool:${toolUseId}`;
export const reviewItemId = (reviewId: string): string => `review:${reviewId}`;
/** The id of the memory-changed card of a tool-results message (its data note). */
export const noteId = (messageId: string): string => `${messageId}-note`;
