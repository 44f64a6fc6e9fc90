// The agent loop for one run: request, stream, persist, run tools, repeat, until the model ends its turn,
// the turn cap is reached, the user aborts, or the API fails. Whatever happens, the persisted history is one
// the API accepts on the next request (tool_use always answered, partial text kept and marked interrupted).
import { randomUUID } from 'node:crypto';
import type { MessageRecord } from '../conversations/records.js';
import type { RunStatus } from '../runs.js';
import { convertReply, partialText, textOf } from './assistant-content.js';
import { ensureBackfill } from './backfill-step.js';
import { compactionPaused, localBeforeRequest } from './context/local.js';
import { nativeActed, nativeAfterReply } from './context/native.js';
import { classifyError } from './errors.js';
import { buildRequest } from './request.js';
import { recoverInterrupted } from './recover.js';
import { runTools } from './run-tools.js';
import { type LoopSession, appendMessage, now, queueMessage, showCard, showError, state } from './session.js';
import { type TurnOutcome, streamTurn } from './stream-turn.js';

export async function runLoop(s: LoopSession): Promise<Exclude<RunStatus, 'running'>> {
  const { run } = s;
  await recoverInterrupted(s);
  await ensureBackfill(s);
  let turn = 0;
  for (;;) {
    if (run.signal.aborted) return 'aborted';
    if (turn >= s.maxTurns) {
      await showCard(s, { kind: 'turn_limit', turns: turn });
      return 'turn_limit';
    }
    turn += 1;
    if (s.strategy === 'local') {
      await localBeforeRequest(s);
      if (run.signal.aborted) return 'aborted';
    }
    const params = buildRequest(state(s), {
      settings: s.settings,
      model: s.model,
      tools: s.toolbox.definitions,
      strategy: s.strategy,
      pauseCompaction:
        s.strategy === 'native' && compactionPaused(state(s), s.settings, s.accounting().total),
    });
    const messageId = randomUUID();
    const outcome = await streamTurn(s.client, params, {
      signal: run.signal,
      stallMs: s.stallMs,
      onText: (text) => run.emit({ type: 'text.delta', messageId, text }),
    });
    if (outcome.kind !== 'ok') return endEarly(s, outcome, messageId);

    const reply = outcome.message;
    const converted = convertReply(reply);
    const usage = reply.usage;
    // The reply's time: its record's, and its tool calls' (so their live and stored items agree).
    const at = now();
    if (converted.content.length > 0) {
      const measured = {
        input: usage.input_tokens,
        output: usage.output_tokens,
        cacheRead: usage.cache_read_input_tokens ?? 0,
        cacheWrite: usage.cache_creation_input_tokens ?? 0,
      };
      const record: MessageRecord = {
        t: 'msg',
        id: messageId,
        kind: 'assistant',
        role: 'assistant',
        content: converted.content,
        at,
        usage: measured,
      };
      if (converted.cutToolUse) record.interrupted = true;
      // Queued: the disk syncs while tools run; memory writes and the run's end wait for it.
      queueMessage(s, record);
      s.accounting().measure(measured);
      run.emit({ type: 'message.done', messageId, interrupted: converted.cutToolUse, at });
    }
    // Checked first: most replies report nothing, and the loop does not wait a tick for that.
    if (nativeActed(reply)) await nativeAfterReply(s, reply);
    s.contextChanged();

    if (
      converted.toolUses.length > 0 &&
      (reply.stop_reason === 'tool_use' || reply.stop_reason === 'max_tokens')
    ) {
      await runTools(s, converted.toolUses, turn, at);
      s.contextChanged();
      continue;
    }
    if (reply.stop_reason === 'pause_turn' || reply.stop_reason === 'compaction') continue;
    if (converted.cutToolUse) {
      await showCard(s, { kind: 'interrupted' });
    }
    return 'done';
  }
}

/** Abort, stall or API error: keep the partial text (marked interrupted), report, end the run. */
async function endEarly(
  s: LoopSession,
  outcome: Exclude<TurnOutcome, { kind: 'ok' }>,
  messageId: string,
): Promise<Exclude<RunStatus, 'running'>> {
  const { run } = s;
  const content = partialText(outcome.partial);
  if (content.length > 0) {
    const at = now();
    await appendMessage(s, {
      t: 'msg',
      id: messageId,
      kind: 'assistant',
      role: 'assistant',
      content,
      at,
      interrupted: true,
    });
    run.emit({ type: 'message.done', messageId, interrupted: true, text: textOf(content), at });
  }
  if (outcome.kind === 'aborted') return 'aborted';
  const failure =
    outcome.kind === 'stalled'
      ? {
          kind: 'stalled' as const,
          message: `The answer stalled (nothing arrived for ${Math.round(s.stallMs / 1000)} s) and was stopped. Retry to try again.`,
          retryable: true,
        }
      : classifyError(outcome.error);
  if (outcome.kind === 'error') s.log.warn('run failed', { kind: failure.kind, message: failure.message });
  await showError(s, failure);
  return 'error';
}
