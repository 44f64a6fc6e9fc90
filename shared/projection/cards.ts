// The cards of a conversation as structured facts, and the one place their labels are derived. A card is
// stored as this fact (an `event` record of the conversation's file) and sent live as a `card` run event
// with the same id, so the projection builds the same item from either.
import { z } from 'zod';
import { formatTokens, plural } from './format.js';

export const strategy = z.enum(['native', 'local']);

/** Old tool results cleared from the context (the Context tab's history reads these numbers too). */
export const clearedFact = z.object({
  kind: z.literal('cleared'),
  strategy,
  count: z.number().int(),
  tokens: z.number(),
  tokensBefore: z.number(),
  tokensAfter: z.number(),
});

/** Earlier messages compacted into a summary. */
export const compactedFact = z.object({
  kind: z.literal('compacted'),
  strategy,
  messages: z.number().int(),
  tokensBefore: z.number(),
  tokensAfter: z.number(),
  summary: z.string(),
});

export const cardFact = z.discriminatedUnion('kind', [
  /** The memory given to the model (before the first reply, and again after a compaction). */
  z.object({
    kind: z.literal('backfill'),
    files: z.array(z.object({ path: z.string(), tokens: z.number() })),
    totalFiles: z.number().int(),
    tokens: z.number(),
  }),
  clearedFact,
  compactedFact,
  /** A compaction that could not bring the context under its trigger (said once, not on every turn). */
  z.object({
    kind: z.literal('compaction_stuck'),
    strategy,
    /** The compaction trigger, the memory budget and the pinned messages it was measured under. */
    trigger: z.number(),
    budget: z.number(),
    pinnedMessages: z.number().int(),
    /** The context's size when this was found, and the size of the summary tried (or allowed for). */
    tokens: z.number(),
    summary: z.number(),
    /** The least the next request can have after a compaction, and its parts. */
    floor: z.number(),
    memory: z.number(),
    pinned: z.number(),
    kept: z.number(),
  }),
  z.object({ kind: z.literal('turn_limit'), turns: z.number().int() }),
  /** The reply reached the output limit in the middle of a tool call. */
  z.object({ kind: z.literal('interrupted') }),
  /**
   * The conversation was moved to another space (issue 15): from here on its turns read and write that
   * space's memory (given again before the next reply). Names as they were at the move.
   */
  z.object({
    kind: z.literal('moved_space'),
    from: z.object({ id: z.string(), name: z.string() }),
    to: z.object({ id: z.string(), name: z.string() }),
  }),
  /** Memory changed by other hands; the note the model was given. */
  z.object({ kind: z.literal('memory_changed'), note: z.string() }),
  z.object({ kind: z.literal('error'), errorKind: z.string(), message: z.string(), retryable: z.boolean() }),
  z.object({
    kind: z.literal('review'),
    reviewId: z.string(),
    toolUseId: z.string(),
    command: z.string(),
    path: z.string(),
    before: z.string().nullable(),
    after: z.string().nullable(),
  }),
  /** The user's decision on a review (updates the review card; no card of its own). */
  z.object({
    kind: z.literal('reviewed'),
    reviewId: z.string(),
    outcome: z.enum(['approved', 'edited', 'rejected']),
  }),
  /** The user retried after an error (takes the error's card away; no card of its own). */
  z.object({ kind: z.literal('retried'), errorId: z.string() }),
]);
export type CardFact = z.infer<typeof cardFact>;
export type CardKind = CardFact['kind'];
export type Card<K extends CardKind> = Extract<CardFact, { kind: K }>;

/** The cards shown as a labelled event card (errors and reviews have cards of their own). */
export type LabelledCard = Exclude<CardFact, { kind: 'error' | 'review' | 'reviewed' | 'retried' }>;

export function backfillLabel(loaded: number, totalFiles: number, tokens: number): string {
  const files =
    loaded === totalFiles ? plural(loaded, 'memory file') : `${loaded} of ${totalFiles} memory files`;
  return `Loaded ${files} · ${formatTokens(tokens)} tokens`;
}

export function clearedLabel(count: number, tokens: number): string {
  return `Cleared ${plural(count, 'old tool result')} · ${formatTokens(tokens)} tokens`;
}

export function compactedLabel(messages: number, before: number, after: number): string {
  return `Compacted ${plural(messages, 'earlier message')} · ${formatTokens(before)} → ${formatTokens(after)} tokens`;
}

export const INTERRUPTED_LABEL =
  'The answer reached the output limit in the middle of a tool call; the call was not run.';
export const MEMORY_CHANGED_LABEL = 'Memory changed outside this conversation; the assistant was told.';

/** What would help when compaction cannot get the context under its trigger. */
export function stuckHelp(fact: Card<'compaction_stuck'>): string {
  const parts = [
    `the memory given again (${formatTokens(fact.memory)} tokens)`,
    ...(fact.pinned > 0 ? [`pinned messages (${formatTokens(fact.pinned)})`] : []),
    // Native compaction summarizes every turn: none is kept verbatim.
    ...(fact.kept > 0 ? [`the turns kept verbatim (${formatTokens(fact.kept)})`] : []),
  ];
  return (
    `Even compacted, ${parts.join(', ')} come to about ${formatTokens(fact.floor)} tokens, above the ` +
    `compaction trigger of ${formatTokens(fact.trigger)}. To compact again, raise the trigger in Settings, ` +
    `lower the memory budget${fact.pinned > 0 ? ', or unpin messages' : ''}.`
  );
}

/** The card's one-line label: what the chat shows and what assistive technology reads. */
export function cardLabel(fact: LabelledCard): string {
  switch (fact.kind) {
    case 'backfill':
      return backfillLabel(fact.files.length, fact.totalFiles, fact.tokens);
    case 'cleared':
      return clearedLabel(fact.count, fact.tokens);
    case 'compacted':
      return compactedLabel(fact.messages, fact.tokensBefore, fact.tokensAfter);
    case 'compaction_stuck':
      return `Compaction cannot get this conversation under ${formatTokens(fact.trigger)} tokens, so it is paused`;
    case 'turn_limit':
      return `Stopped after ${plural(fact.turns, 'tool turn')}. Send a message to continue.`;
    case 'interrupted':
      return INTERRUPTED_LABEL;
    case 'memory_changed':
      return MEMORY_CHANGED_LABEL;
    case 'moved_space':
      return `Moved from ${fact.from.name} to ${fact.to.name}. From here on the assistant uses the memory of ${fact.to.name}.`;
  }
}

/** A card as the projection's item carries it (items.ts's `event` item; named here to avoid a cycle). */
export interface CardItem {
  /** The card's kind. */
  event: string;
  text: string;
  detail?: string | undefined;
  fact?: CardFact | undefined;
}

/**
 * The card as the terminal prints it (electron/cli-printer.ts): a bracketed tag, then the counts in full
 * (a terminal's output is read by scripts too, so tokens are not rounded); a card with nothing more to
 * say than its label prints the label and its detail.
 */
export function cardTerminalLine(card: CardItem): string {
  const fact = card.fact;
  switch (fact?.kind) {
    case 'backfill':
      return `[memory backfill] ${fact.files.length} of ${fact.totalFiles} files, about ${fact.tokens} tokens: ${fact.files.map((f) => f.path).join(', ') || '(index only)'}`;
    case 'cleared':
      return `[tool results cleared] ${fact.count} tool results, about ${fact.tokens} tokens (${fact.strategy})`;
    case 'compacted':
      return `[compaction] ${fact.messages} messages summarized (${fact.strategy}), about ${fact.tokensBefore} → ${fact.tokensAfter} tokens`;
    case 'turn_limit':
      return `[turn limit] stopped after ${fact.turns} turns`;
    default:
      return `[${card.event.replace(/_/g, ' ')}] ${card.text}${card.detail ? `: ${card.detail}` : ''}`;
  }
}

/** What the card expands to, if anything. */
export function cardDetail(fact: LabelledCard): string | undefined {
  switch (fact.kind) {
    case 'backfill':
      return fact.files.map((f) => `${f.path} · ${formatTokens(f.tokens)} tokens`).join('\n') || undefined;
    case 'compacted':
      return fact.summary || undefined;
    case 'compaction_stuck':
      return stuckHelp(fact);
    case 'memory_changed':
      return fact.note;
    default:
      return undefined;
  }
}
