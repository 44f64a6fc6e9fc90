// Local context management, for proxies and providers without the native edits: before each request,
// (1) past the clearing trigger, old tool results beyond the last N become a placeholder that keeps their
// tool_use_id; (2) past the compaction trigger, older turns are summarized by an extra model call, cutting
// only where no tool_use is separated from its tool_result. Both decisions come from the running accounting,
// not from re-serializing the history.

import type { CompactedRecord, MessageRecord } from '../../conversations/records.js';
import { currentCompaction } from '../../conversations/state.js';
import { compactedMemory, loadBackfill, pinnedQuote, showBackfill } from '../backfill-step.js';
import { estimateBlock } from '../estimate.js';
import { CLEARED_PLACEHOLDER } from '../history.js';
import { type LoopSession, now, showCard, state } from '../session.js';
import { renderTranscript, summarize } from './summarize.js';

const PLACEHOLDER_TOKENS = estimateBlock({ type: 'tool_result', content: CLEARED_PLACEHOLDER });

export async function localBeforeRequest(s: LoopSession): Promise<void> {
  const { settings } = s;
  const plan = s.accounting().planClearing(settings.clearTrigger, settings.clearKeep, settings.clearAtLeast);
  if (plan) {
    const before = s.accounting().total;
    s.accounting().cleared(plan.ids, plan.tokens, PLACEHOLDER_TOKENS);
    const after = s.accounting().total;
    s.run.emit({
      type: 'context.cleared',
      strategy: 'local',
      clearedToolUses: plan.ids.length,
      clearedTokens: plan.tokens,
    });
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
  if (s.accounting().shouldCompact(settings.compactTrigger)) await compactLocal(s, false);
}

const hasCall = (m: MessageRecord): boolean => m.content.some((b) => b.type === 'tool_use');

/**
 * Where to cut: the index of the last message to summarize. Before the last user turn when there is one
 * (the current question stays verbatim); otherwise after a tool result that leaves the last two round trips.
 * `all` summarizes everything (Compact now, nothing running).
 */
export function chooseCut(messages: readonly MessageRecord[], start: number, all: boolean): number {
  if (all) return messages.length - 1;
  for (let j = messages.length - 1; j > start + 1; j--) {
    if (messages[j]!.kind !== 'user') continue;
    // A call whose results were recorded after this message (a crash mid-tool, recover.ts) stays with them.
    let cut = j - 1;
    while (cut >= start && messages[cut]!.role === 'assistant' && hasCall(messages[cut]!)) cut -= 1;
    return cut >= start ? cut : -1;
  }
  let roundTrips = 0;
  for (let j = messages.length - 1; j > start + 1; j--) {
    if (messages[j]!.role === 'assistant' && messages[j - 1]!.role === 'user') {
      roundTrips += 1;
      if (roundTrips === 3) return j - 1;
    }
  }
  return -1;
}

/** Summarizes older turns. Returns false when there was nothing to compact or the summarizer failed. */
export async function compactLocal(s: LoopSession, all: boolean): Promise<boolean> {
  const st = state(s);
  const previous = currentCompaction(st);
  const start = previous ? st.messages.findIndex((m) => m.id === previous.lastMessageId) + 1 : 0;
  const cut = chooseCut(st.messages, start, all);
  if (cut < start) return false;
  const compacted = st.messages.slice(start, cut + 1);
  const tokensBefore = s.accounting().total;
  const result = await summarize(s, renderTranscript(compacted, previous?.summary ?? null));
  if (!result.ok) {
    s.log.warn('local compaction failed', { kind: result.outcome.kind });
    return false;
  }
  const backfill = await loadBackfill(s);
  const pinned = pinnedQuote(s);
  const record: CompactedRecord = {
    t: 'compacted',
    strategy: 'local',
    lastMessageId: st.messages[cut]!.id,
    summary: result.summary,
    ...compactedMemory(backfill),
    ...(pinned ? { pinned } : {}),
    tokensBefore,
    tokensAfter: 0,
    messagesCompacted: compacted.length,
    at: now(),
  };
  await s.store.append(s.conversationId, [record]);
  const tokensAfter = s.resetAccounting().total;
  record.tokensAfter = tokensAfter;
  s.run.emit({
    type: 'context.compacted',
    strategy: 'local',
    summary: result.summary,
    messagesCompacted: compacted.length,
    tokensBefore,
    tokensAfter,
  });
  await showCard(s, {
    kind: 'compacted',
    strategy: 'local',
    messages: compacted.length,
    tokensBefore,
    tokensAfter,
    summary: result.summary,
  });
  if (backfill) await showBackfill(s, backfill);
  s.contextChanged();
  return true;
}
