// Native context management (the API's clear_tool_uses_20250919 and compact_20260112 edits, sent by
// request.ts): after each reply, report what the API did, and after a compaction give the memory and the
// pinned messages again right after the summary (the compaction block is round-tripped unchanged). As with
// local compaction, the card's sizes are the next request's, a compaction that would not make it smaller
// is not kept, and one that leaves it over the trigger is said once and paused (request.ts then leaves the
// compaction edit out until compactionPaused says otherwise), rather than paid for on every turn.
import type { BetaMessage } from '@anthropic-ai/sdk/resources/beta/messages/messages.js';
import { compactedMemory, giveAgainAfterCompaction, pinnedQuote, showBackfill } from '../backfill-step.js';
import { compactTriggerOf } from '../request.js';
import { type LoopSession, now, showCard, state } from '../session.js';
import { showStuck } from './local.js';

/** Whether the reply reports anything the API did to the context (most replies do not). */
export function nativeActed(reply: BetaMessage): boolean {
  return (
    (reply.context_management?.applied_edits?.length ?? 0) > 0 || reply.content[0]?.type === 'compaction'
  );
}

export async function nativeAfterReply(s: LoopSession, reply: BetaMessage): Promise<void> {
  for (const edit of reply.context_management?.applied_edits ?? []) {
    if (edit.type !== 'clear_tool_uses_20250919') continue;
    const before = s.accounting().total;
    s.accounting().nativeCleared(edit.cleared_input_tokens);
    await showCard(s, {
      kind: 'cleared',
      strategy: 'native',
      count: edit.cleared_tool_uses,
      tokens: edit.cleared_input_tokens,
      tokensBefore: before,
      tokensAfter: Math.max(0, before - edit.cleared_input_tokens),
    });
  }
  const first = reply.content[0];
  if (first?.type !== 'compaction' || typeof first.content !== 'string') return;
  const st = state(s);
  const at = st.messages.length - 1;
  const compaction = st.messages[at]!;
  // Everything before the reply that carries the block is now summarized (the API ignores it).
  const previous = lastCompactionIndex(s, at);
  const messagesCompacted = Math.max(0, at - previous - 1);
  const tokensBefore = sumIterations(reply) ?? s.accounting().total;
  const backfill = await giveAgainAfterCompaction(s, reply.content.length === 1);
  // The next request as it will be sent: the block, the memory and pinned messages again, what follows.
  const tokensAfter = s.resetAccounting().total;
  const given = { summary: first.content, ...compactedMemory(backfill), ...pinnedOf(s) };
  // Paused after compacting (the reply is the block alone), a compaction that would not make the next
  // request smaller is dropped, block and memory given again, so the history goes on as it was.
  if (tokensAfter >= tokensBefore && reply.content.length === 1) {
    s.log.info('native compaction discarded: it would not make the next request smaller', {
      tokensBefore,
      tokensAfter,
    });
    await s.store.append(s.conversationId, [{ t: 'truncate', fromMessageId: compaction.id, at: now() }]);
    const total = s.resetAccounting().total;
    await showStuck(s, { strategy: 'native', tokens: total, record: given, floor: tokensAfter, kept: 0 });
    return;
  }
  await showCard(s, {
    kind: 'compacted',
    strategy: 'native',
    messages: messagesCompacted,
    tokensBefore,
    tokensAfter,
    summary: first.content,
  });
  if (backfill) await showBackfill(s, backfill);
  // It helped, but the API would compact again on the next request: say so once, and pause it.
  if (tokensAfter > compactTriggerOf('native', s.settings))
    await showStuck(s, {
      strategy: 'native',
      tokens: tokensAfter,
      record: given,
      floor: tokensAfter,
      kept: 0,
    });
}

function pinnedOf(s: LoopSession): { pinned?: string } {
  const pinned = pinnedQuote(s);
  return pinned ? { pinned } : {};
}

function lastCompactionIndex(s: LoopSession, before: number): number {
  const messages = state(s).messages;
  for (let i = before - 1; i >= 0; i--) {
    if (messages[i]!.role === 'assistant' && messages[i]!.content[0]?.type === 'compaction') return i;
  }
  return -1;
}

/** The compaction iteration's input is the size of the context that was closed. */
function sumIterations(reply: BetaMessage): number | undefined {
  const iterations = reply.usage.iterations ?? [];
  const compaction = iterations.find((i) => i.type === 'compaction');
  return compaction ? compaction.input_tokens : undefined;
}
