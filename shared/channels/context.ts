// The context meter: the current context and its parts against the model's window and the triggers.
import { z } from 'zod';
import { id } from './common.js';

export const contextUsage = z.object({
  conversationId: id,
  model: z.string(),
  strategy: z.enum(['native', 'local', 'off']),
  /** From the models endpoint (max_input_tokens); null until known. */
  contextWindow: z.number().nullable(),
  clearTrigger: z.number(),
  compactTrigger: z.number(),
  total: z.number(),
  parts: z.object({
    system: z.number(),
    memory: z.number(),
    messages: z.number(),
    toolResults: z.number(),
  }),
  /** true when `total` came from the API's usage report for the last request plus an estimate since. */
  measured: z.boolean(),
  /** Set while compaction is paused because it cannot get under its trigger: why, and what would help. */
  compactionPaused: z.string().optional(),
  history: z.array(
    z.object({
      at: z.string(),
      kind: z.enum(['cleared', 'compacted']),
      strategy: z.enum(['native', 'local']),
      tokensBefore: z.number(),
      tokensAfter: z.number(),
      detail: z.string(),
    }),
  ),
});
export type ContextUsage = z.infer<typeof contextUsage>;

export const contextInvoke = {
  'context.get': { req: z.object({ conversationId: id }), res: contextUsage },
  /** "Compact now": runs as a run (events on `chat.event`), returns its id. */
  'context.compact': { req: z.object({ conversationId: id }), res: z.object({ runId: id }) },
};

export const contextEvents = {
  'context.changed': contextUsage,
};
