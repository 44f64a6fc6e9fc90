// Local context management, for proxies and providers without the native edits: before each request,
// (1) past the clearing trigger, old tool results beyond the last N become a placeholder that keeps their
// tool_use_id; (2) past the compaction trigger, older turns are summarized by an extra model call, cutting
// only where no tool_use is separated from its tool_result. Both decisions come from the running accounting,
// not from re-serializing the history.

import type { CompactedRecord, MessageRecord } from '../../conversations/records.js';
import type { Settings } from '../../../../shared/channels/settings.js';
import { type ConversationState, currentCompaction } from '../../conversations/state.js';
import {
  compactedMemory,
  loadBackfill,
  pinnedQuote,
  requestToGiveAgain,
  showBackfill,
} from '../backfill-step.js';
import { estimateBlock, estimateBlocks, estimateTokens } from '../estimate.js';
import { CLEARED_PLACEHOLDER } from '../history.js';
import { compactTriggerOf } from '../request.js';
import { type LoopSession, now, showCard, state } from '../session.js';
import { chooseCut, cutInTurn } from './cut.js';
import { renderTranscript, summarize } from './summarize.js';

const PLACEHOLDER_TOKENS = estimateBlock({ type: 'tool_result', content: CLEARED_PLACEHOLDER });

export async function localBeforeRequest(s: LoopSession): Promise<void> {
  const { settings } = s;
  const plan = s.accounting().planClearing(settings.clearTrigger, settings.clearKeep, settings.clearAtLeast);
  if (plan) {
    const before = s.accounting().total;
    s.accounting().cleared(plan.ids, plan.tokens, PLACEHOLDER_TOKENS);
    const after = s.accounting().total;
    await showCard(
      s,
      {
        kind: 'cleared',
        strategy: 'local',
        count: plan.ids.length,
        tokens: plan.tokens,
        tokensBefore: before,
        tokensAfter: after,
      },
      [{ t: 'cleared', toolUseIds: plan.ids, tokens: plan.tokens, at: now() }],
    );
    s.contextChanged();
  }
  if (
    s.accounting().shouldCompact(settings.compactTrigger) &&
    !compactionPaused(state(s), settings, s.accounting().total)
  ) {
    await compactLocal(s, false);
  }
}

/** How a local compaction went: applied, nothing to compact, the summarizer failed, or it would not help. */
export type CompactOutcome = 'done' | 'nothing' | 'failed' | 'no_gain';

/** About what a summary adds (the summarizer is asked for at most ~600 words). */
const SUMMARY_ALLOWANCE = 800;

/**
 * Whether compaction is paused: it said it cannot get this conversation under the trigger, and since then
 * nothing it named as a remedy has changed (the trigger, the memory budget, the pinned messages), nor has
 * the conversation grown by enough for a summary to pay for itself (what it gives again, plus a summary
 * as long as the last one, or an allowance when none was asked for).
 */
export function compactionPaused(
  st: { stuck: ConversationState['stuck']; pinned: { readonly size: number } },
  settings: Settings,
  total: number,
): boolean {
  const stuck = st.stuck;
  if (stuck === null) return false;
  const overhead = stuck.memory + stuck.pinned + stuck.summary;
  return (
    stuck.trigger === compactTriggerOf(stuck.strategy, settings) &&
    stuck.budget === settings.backfillBudgetTokens &&
    stuck.pinnedMessages === st.pinned.size &&
    total < stuck.tokens + overhead
  );
}

function withCompaction(st: ConversationState, record: CompactedRecord): ConversationState {
  return { ...st, compactions: [...st.compactions, record] };
}

/** Says once that compaction cannot help (chat and Context tab), and pauses it (compactionPaused). */
export async function showStuck(
  s: LoopSession,
  found: {
    strategy: 'native' | 'local';
    /** The context's size now: compaction resumes once it has grown by what a summary costs. */
    tokens: number;
    record: Pick<CompactedRecord, 'summary' | 'memory' | 'pinned'>;
    floor: number;
    kept: number;
  },
): Promise<void> {
  const st = state(s);
  const { record } = found;
  await showCard(s, {
    kind: 'compaction_stuck',
    strategy: found.strategy,
    tokens: found.tokens,
    summary: record.summary ? estimateTokens(record.summary) : SUMMARY_ALLOWANCE,
    trigger: compactTriggerOf(found.strategy, s.settings),
    budget: s.settings.backfillBudgetTokens,
    pinnedMessages: st.pinned.size,
    floor: found.floor,
    memory: record.memory?.tokens ?? 0,
    pinned: record.pinned ? estimateTokens(record.pinned) : 0,
    kept: found.kept,
  });
  s.contextChanged();
}

/** A compaction at one cut, before its summary is asked for, and the size of what stays whatever it says. */
interface Plan {
  record: CompactedRecord;
  compacted: MessageRecord[];
  /** The next request's size with an empty summary. */
  floor: number;
  /** The kept messages' estimate. */
  kept: number;
}

function planAt(
  s: LoopSession,
  cut: number,
  start: number,
  all: boolean,
  given: Pick<CompactedRecord, 'memory' | 'pinned'>,
  tokensBefore: number,
): Plan {
  const st = state(s);
  const compacted = st.messages.slice(start, cut + 1);
  // The turn being answered is summarized: its message is given again after the summary, as written.
  const asked = all ? null : requestToGiveAgain(st.messages, s.settings.compactTrigger);
  const record: CompactedRecord = {
    t: 'compacted',
    strategy: 'local',
    lastMessageId: st.messages[cut]!.id,
    summary: '',
    ...given,
    ...(asked && asked.index <= cut ? { request: asked.text } : {}),
    tokensBefore,
    tokensAfter: 0,
    messagesCompacted: compacted.length,
    at: now(),
  };
  const kept = st.messages.slice(cut + 1).reduce((n, m) => n + estimateBlocks(m.content), 0);
  return { record, compacted, floor: s.accountingFor(withCompaction(st, record)).total, kept };
}

/**
 * Summarizes older turns, if that makes the next request smaller. The cut is before the last user turn,
 * unless what stays then (with a summary's allowance) is still over the trigger: a long task then has its
 * own earlier round trips summarized, its last two kept and its question given again. What stays whatever
 * the summary says (the system prompt, the memory given again, pinned messages, the messages kept verbatim)
 * is measured first: when it is no smaller than the context now, no summary is asked for; a summary that
 * would not shrink the next request is discarded. Either way, and when a compaction helps but leaves the
 * context over the trigger, the app says so once and pauses compaction (`compactionPaused`) instead of
 * paying for a summary on every turn. `all` (Compact now, asked for by the user) summarizes everything, is
 * always applied and never pauses.
 */
export async function compactLocal(s: LoopSession, all: boolean): Promise<CompactOutcome> {
  const st = state(s);
  const previous = currentCompaction(st);
  const start = previous ? st.messages.findIndex((m) => m.id === previous.lastMessageId) + 1 : 0;
  const first = chooseCut(st.messages, start, all);
  if (first < start) return 'nothing';
  const tokensBefore = s.accounting().total;
  const trigger = s.settings.compactTrigger;
  const backfill = await loadBackfill(s);
  const pinned = pinnedQuote(s);
  const given = { ...compactedMemory(backfill), ...(pinned ? { pinned } : {}) };
  let plan = planAt(s, first, start, all, given, tokensBefore);
  const deeper = all ? -1 : cutInTurn(st.messages, start);
  if (deeper > first && plan.floor + SUMMARY_ALLOWANCE > trigger)
    plan = planAt(s, deeper, start, all, given, tokensBefore);
  const { record, compacted, floor, kept } = plan;
  // What stays is as big as what is there now: no summary can help, so none is paid for.
  if (!all && floor >= tokensBefore) {
    await showStuck(s, { strategy: 'local', tokens: tokensBefore, record, floor, kept });
    return 'no_gain';
  }
  const result = await summarize(s, renderTranscript(compacted, previous?.summary ?? null));
  if (!result.ok) {
    s.log.warn('local compaction failed', { kind: result.outcome.kind });
    return 'failed';
  }
  record.summary = result.summary;
  record.at = now();
  // The next request's size with the summary in place, as it will be sent.
  const tokensAfter = s.accountingFor(withCompaction(st, record)).total;
  // Compact now is the user's own request: it is applied, and its card says truthfully what it did.
  if (!all && tokensAfter >= tokensBefore) {
    s.log.info('compaction discarded: it would not make the next request smaller', {
      tokensBefore,
      tokensAfter,
    });
    await showStuck(s, { strategy: 'local', tokens: tokensBefore, record, floor: tokensAfter, kept });
    return 'no_gain';
  }
  record.tokensAfter = tokensAfter;
  await s.store.append(s.conversationId, [record]);
  s.resetAccounting();
  await showCard(s, {
    kind: 'compacted',
    strategy: 'local',
    messages: compacted.length,
    tokensBefore,
    tokensAfter,
    summary: result.summary,
  });
  if (backfill) await showBackfill(s, backfill);
  // It helped, but the next turn would compact again: say so once, and pause.
  if (!all && tokensAfter > trigger)
    await showStuck(s, { strategy: 'local', tokens: tokensAfter, record, floor: tokensAfter, kept });
  s.contextChanged();
  return 'done';
}
