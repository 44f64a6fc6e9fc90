// "Compact now": native sends the on-demand request (compaction:{type:"summarize"}, beta compact-2026-09-04,
// no context_management) and puts the signed block first in place of everything it summarizes (§3b); local
// runs our own summarizer over the whole conversation. Either way the memory is given again after it.
import type { CompactedRecord } from '../../conversations/records.js';
import { compactedMemory, loadBackfill, pinnedQuote, showBackfill } from '../backfill-step.js';
import { classifyError } from '../errors.js';
import { BETA_COMPACT, BETA_COMPACT_ON_DEMAND, buildRequest } from '../request.js';
import type { RunStatus } from '../../../../shared/channels/chat.js';
import { type LoopSession, now, showCard, showError, state } from '../session.js';
import { streamTurn } from '../stream-turn.js';
import { compactLocal } from './local.js';
import { recoverInterrupted } from '../recover.js';

export async function compactNow(s: LoopSession): Promise<Exclude<RunStatus, 'running'>> {
  await recoverInterrupted(s);
  if (s.strategy !== 'native') {
    const outcome = await compactLocal(s, true);
    if (s.run.signal.aborted) return 'aborted';
    if (outcome !== 'done') return fail(s, 'Compaction did not produce a summary. Retry in a moment.');
    return 'done';
  }
  const st = state(s);
  const last = st.messages.at(-1);
  if (!last) return fail(s, 'There is nothing to compact yet.');
  const params = buildRequest(st, {
    settings: s.settings,
    model: s.model,
    tools: s.toolbox.definitions,
    strategy: 'off',
  });
  delete params.context_management;
  params.betas = [
    ...new Set([...(params.betas ?? []).filter((b) => b !== BETA_COMPACT), BETA_COMPACT_ON_DEMAND]),
  ];
  (params as { compaction?: unknown }).compaction = { type: 'summarize' };
  const tokensBefore = s.accounting().total;
  const outcome = await streamTurn(s.client, params, { signal: s.run.signal, stallMs: s.stallMs });
  if (outcome.kind === 'aborted') return 'aborted';
  if (outcome.kind !== 'ok') {
    const failure =
      outcome.kind === 'stalled'
        ? { kind: 'stalled' as const, message: 'Compaction stalled and was stopped. Retry.', retryable: true }
        : classifyError(outcome.error);
    await showError(s, failure);
    return 'error';
  }
  const block = outcome.message.content.find((b) => b.type === 'compaction');
  if (!block || block.type !== 'compaction' || !block.content) {
    return fail(s, 'The API returned no summary, so nothing was compacted. Retry in a moment.');
  }
  const backfill = await loadBackfill(s);
  const pinned = pinnedQuote(s);
  const record: CompactedRecord = {
    t: 'compacted',
    strategy: 'native',
    lastMessageId: last.id,
    summary: block.content,
    block: {
      type: 'compaction',
      content: block.content,
      encrypted_content: block.encrypted_content,
      ...(block.signature != null ? { signature: block.signature } : {}),
    },
    ...compactedMemory(backfill),
    ...(pinned ? { pinned } : {}),
    tokensBefore,
    tokensAfter: 0,
    messagesCompacted: st.messages.length,
    at: now(),
  };
  await s.store.append(s.conversationId, [record]);
  const tokensAfter = s.resetAccounting().total;
  await showCard(s, {
    kind: 'compacted',
    strategy: 'native',
    messages: record.messagesCompacted,
    tokensBefore,
    tokensAfter,
    summary: block.content,
  });
  if (backfill) await showBackfill(s, backfill);
  s.contextChanged();
  return 'done';
}

async function fail(s: LoopSession, message: string): Promise<Exclude<RunStatus, 'running'>> {
  await showError(s, { kind: 'server', message, retryable: true });
  return 'error';
}
