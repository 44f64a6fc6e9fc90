// Chat runs. `chat.send` starts a run and returns its id at once; everything the run produces arrives as
// `chat.event` payloads tagged with the run id and a per-run sequence number (starting at 1, no gaps), so a
// window that reloads mid-run calls `chat.attach` with the last seq it saw and receives what it missed.
import { z } from 'zod';
import { cardFact } from '../projection/cards.js';
import { id, memoryPath, ok } from './common.js';

export const errorKind = z.enum([
  'rate_limit',
  'overloaded',
  'server',
  'auth',
  'connection',
  'stalled',
  'invalid_request',
  'no_api_key',
  'internal',
]);

export const runStatus = z.enum(['running', 'done', 'aborted', 'error', 'turn_limit']);
/** Where a run is: 'running' until its run.finished, then how it ended. */
export type RunStatus = z.infer<typeof runStatus>;
export type FinishedStatus = Exclude<RunStatus, 'running'>;

export type ErrorKind = z.infer<typeof errorKind>;

const base = { runId: id, conversationId: id, seq: z.number().int().positive() };

export const runEvent = z.discriminatedUnion('type', [
  /** `at`: the user message's time, as stored (every item keeps its stored time, live and after a reload). */
  z.object({ ...base, type: z.literal('run.started'), userMessageId: id, at: z.string().optional() }),
  z.object({ ...base, type: z.literal('text.delta'), messageId: id, text: z.string() }),
  /** A finished message (assistant or tool results), as persisted. */
  z.object({
    ...base,
    type: z.literal('message.done'),
    messageId: id,
    interrupted: z.boolean(),
    /** The stored message's time. */
    at: z.string().optional(),
    /** The text as stored, when it differs from the deltas (a cut-off answer is kept trimmed). */
    text: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('tool.call'),
    toolUseId: id,
    name: z.string(),
    input: z.unknown(),
    turn: z.number().int(),
    /** The time of the reply that asked for it (the stored message's), so live and stored items agree. */
    at: z.string().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('tool.result'),
    toolUseId: id,
    name: z.string(),
    result: z.string(),
    isError: z.boolean(),
    durationMs: z.number(),
    /** A memory write: the journal entry it made, as the stored result records it. */
    journalId: id.optional(),
  }),
  z.object({
    ...base,
    type: z.literal('review.request'),
    reviewId: id,
    /** The stored review card's time. */
    at: z.string().optional(),
    toolUseId: id,
    command: z.string(),
    path: memoryPath,
    before: z.string().nullable(),
    after: z.string().nullable(),
  }),
  z.object({
    ...base,
    type: z.literal('review.resolved'),
    reviewId: id,
    outcome: z.enum(['approved', 'edited', 'rejected']),
  }),
  /**
   * A card, exactly as it was stored (the record's id and fact): the one event of what it says (memory
   * given, results cleared, a compaction, the turn limit, ...), for every face and store alike.
   */
  z.object({ ...base, type: z.literal('card'), id, card: cardFact, at: z.string().optional() }),
  z.object({
    ...base,
    type: z.literal('run.error'),
    kind: errorKind,
    message: z.string(),
    retryable: z.boolean(),
    retryAfterMs: z.number().optional(),
  }),
  z.object({
    ...base,
    type: z.literal('run.finished'),
    status: runStatus.exclude(['running']),
  }),
]);
export type RunEvent = z.infer<typeof runEvent>;
export type RunEventType = RunEvent['type'];

export const chatInvoke = {
  'chat.send': {
    req: z.object({
      /** Omitted: start a new conversation. */
      conversationId: id.optional(),
      text: z
        .string()
        .trim()
        .min(1, 'Type a message first.')
        .max(200_000, 'That message is too long (200,000 characters at most).'),
      /** Only for a new conversation: false starts a temporary conversation with memory off. */
      memory: z.boolean().default(true),
    }),
    res: z.object({ runId: id, conversationId: id, userMessageId: id }),
  },
  'chat.abort': { req: z.object({ runId: id }), res: z.object({ aborted: z.boolean() }) },
  'chat.attach': {
    req: z
      .object({
        runId: id.optional(),
        conversationId: id.optional(),
        afterSeq: z.number().int().min(0).default(0),
      })
      .refine(
        (r) => r.runId !== undefined || r.conversationId !== undefined,
        'Give a runId or a conversationId.',
      ),
    res: z.object({
      run: z.object({ runId: id, conversationId: id, status: runStatus }).nullable(),
      events: z.array(runEvent),
    }),
  },
  /** Resend after an error without duplicating the user's turn. */
  'chat.retry': { req: z.object({ conversationId: id }), res: z.object({ runId: id }) },
  /** Drop the last answer and ask again. */
  'chat.regenerate': { req: z.object({ conversationId: id }), res: z.object({ runId: id }) },
  /** Replace a user message (and everything after it) and resend. */
  'chat.editResend': {
    req: z.object({ conversationId: id, messageId: id, text: z.string().trim().min(1).max(200_000) }),
    res: z.object({ runId: id }),
  },
  'chat.pin': { req: z.object({ conversationId: id, messageId: id, pinned: z.boolean() }), res: ok },
  /** Answer a `review.request` (memory writes in "ask me" mode). */
  'chat.review': {
    req: z.object({
      reviewId: id,
      decision: z.enum(['approve', 'edit', 'reject']),
      /** With `edit`: the content to write instead. */
      content: z.string().optional(),
      /** With `reject`: optional reason passed to the model. */
      reason: z.string().max(2000).optional(),
    }),
    res: ok,
  },
};

export const chatEvents = {
  'chat.event': runEvent,
};
