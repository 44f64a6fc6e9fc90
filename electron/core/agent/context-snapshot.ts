// What the context meter shows of a conversation, saved in its page sidecar (page-file.ts) for the file as
// the sidecar's stat describes it: the accounting's running sums as a replay gives them (Accounting's
// fromState, less the system tokens, which depend on the settings), the memory flag, the stuck-compaction
// fact, the number of pinned messages and the meter's history. So the meter of a conversation opened
// after a restart reads a small file instead of replaying the whole conversation (a property test holds
// the two to the same answer). Numbers, ids and timestamps only, never text: a forget has nothing to
// redact here. A conversation whose history has a step without its card (a legacy record, whose detail
// is the record's free text) gets no snapshot, and its meter is replayed as before.
import { z } from 'zod';
import type { ContextUsage } from '../../../shared/channels/context.js';
import type { Settings } from '../../../shared/channels/settings.js';
import {
  type Card,
  cardFact,
  cardLabel,
  clearedFact,
  compactedFact,
  strategy,
  stuckHelp,
} from '../../../shared/projection/cards.js';
import type { ConversationState } from '../conversations/state.js';
import { Accounting } from './accounting.js';
import { compactionPaused } from './context/local.js';

const count = z.number().int().nonnegative();

const snapshotSchema = z.object({
  sums: z.object({
    measured: z.number().nullable(),
    sinceMeasured: z.number(),
    estimated: z.number(),
    memory: z.number(),
    toolResults: z.number(),
  }),
  memory: z.boolean(),
  stuck: z.array(z.number()).length(9).nullable(),
  stuckStrategy: strategy.nullable(),
  pinned: count,
  /** Per step: when, and its card's numbers (the compacted card's summary text is left out). */
  history: z.array(
    z.discriminatedUnion('kind', [
      clearedFact.extend({ at: z.string() }),
      compactedFact.omit({ summary: true }).extend({ at: z.string() }),
    ]),
  ),
});
export type ContextSnapshot = z.infer<typeof snapshotSchema>;

/** The stuck fact's numbers, in this order (its strategy is saved beside them). */
const STUCK = [
  'trigger',
  'budget',
  'pinnedMessages',
  'tokens',
  'summary',
  'floor',
  'memory',
  'pinned',
  'kept',
] as const;

/** The snapshot of a state exactly as its file holds it, or null when it cannot be told in numbers. */
export function snapshotOf(state: ConversationState): ContextSnapshot | null {
  const history: unknown[] = [];
  for (const step of state.history) {
    if (!step.card) return null;
    const { summary: _text, ...numbers } = step.card as Card<'compacted'>;
    history.push({ at: step.at, ...numbers });
  }
  let stuck: number[] | null = null;
  if (state.stuck) {
    const fact = cardFact.safeParse(state.stuck);
    if (!fact.success || fact.data.kind !== 'compaction_stuck') return null;
    stuck = STUCK.map((k) => (fact.data as Card<'compaction_stuck'>)[k]);
  }
  const parsed = snapshotSchema.safeParse({
    sums: Accounting.fromState(state, 0).toSums(),
    memory: state.meta.memory,
    stuck,
    stuckStrategy: state.stuck?.strategy ?? null,
    pinned: state.pinned.size,
    history,
  });
  return parsed.success ? parsed.data : null;
}

/** A snapshot read back from a sidecar, if it is one. */
export function parseSnapshot(saved: unknown): ContextSnapshot | null {
  const parsed = snapshotSchema.safeParse(saved);
  if (!parsed.success) return null;
  const s = parsed.data;
  return (s.stuck === null) === (s.stuckStrategy === null) ? s : null;
}

/** What contextUsage reports, from a live state or a snapshot (the settings' parts are added here). */
export interface Meter {
  acc: Accounting;
  stuck: Card<'compaction_stuck'> | null;
  pinned: number;
  history: ContextUsage['history'];
}

export function meterOfState(state: ConversationState, acc: Accounting): Meter {
  return {
    acc,
    stuck: state.stuck,
    pinned: state.pinned.size,
    history: state.history.map((h) => ({
      at: h.at,
      kind: h.kind,
      strategy: h.strategy,
      tokensBefore: h.before,
      tokensAfter: h.after,
      detail: h.detail,
    })),
  };
}

export function meterOfSnapshot(s: ContextSnapshot, systemTokens: number): Meter {
  let stuck: Card<'compaction_stuck'> | null = null;
  if (s.stuck && s.stuckStrategy) {
    const fact: Record<string, unknown> = { kind: 'compaction_stuck', strategy: s.stuckStrategy };
    STUCK.forEach((k, i) => (fact[k] = s.stuck![i]));
    stuck = fact as Card<'compaction_stuck'>;
  }
  return {
    acc: Accounting.fromSums(s.sums, systemTokens),
    stuck,
    pinned: s.pinned,
    history: s.history.map((h) => ({
      at: h.at,
      kind: h.kind,
      strategy: h.strategy,
      tokensBefore: h.tokensBefore,
      tokensAfter: h.tokensAfter,
      detail: cardLabel(h.kind === 'compacted' ? { ...h, summary: '' } : h),
    })),
  };
}

/** The meter's report under `settings`. */
export function meterUsage(
  conversationId: string,
  meter: Meter,
  settings: Settings,
  contextWindow: number | null,
): ContextUsage {
  const { acc, stuck } = meter;
  return {
    conversationId,
    model: settings.model,
    strategy: settings.contextStrategy,
    contextWindow,
    clearTrigger: settings.clearTrigger,
    compactTrigger: settings.compactTrigger,
    total: acc.total,
    parts: acc.parts(),
    measured: acc.isMeasured,
    ...(stuck && compactionPaused({ stuck, pinned: { size: meter.pinned } }, settings, acc.total)
      ? { compactionPaused: stuckHelp(stuck) }
      : {}),
    history: meter.history,
  };
}
