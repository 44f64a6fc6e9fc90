// Executes the tool_use blocks of one reply, in order (memory writes depend on each other), and appends
// their results as one user message. Every tool_use gets a result: after an abort the remaining ones are
// answered "cancelled by the user", so the history stays one the API accepts.
import { randomUUID } from 'node:crypto';
import type {
  BetaContentBlockParam,
  BetaToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages.js';
import type { ToolMeta } from '../conversations/records.js';
import type { ToolUse } from './assistant-content.js';
import { type LoopSession, now, queueMessage, state } from './session.js';
import { WRITE_COMMANDS } from '../../../shared/projection/memory-writes.js';
import { noteId } from '../../../shared/projection/items.js';
import type { ToolCall, ToolEnv } from './tools.js';
import type { ConversationState } from '../conversations/state.js';
import { titleOf } from '../conversations/store.js';

export const CANCELLED = 'Error: cancelled by the user before this tool ran.';

/**
 * Whether the stored copy of the call (in the reply, among the last messages) differs from the one about
 * to run: a forget redacted it in place (conversations/redact.ts) after the reply arrived.
 */
function redactedSince(state: ConversationState, call: ToolCall): boolean {
  const { messages } = state;
  for (let i = messages.length - 1; i >= Math.max(0, messages.length - 3); i--) {
    const m = messages[i]!;
    if (m.role !== 'assistant') continue;
    for (const b of m.content)
      if (b.type === 'tool_use' && b.id === call.id)
        return JSON.stringify(b.input) !== JSON.stringify(call.input);
  }
  return false;
}

export async function runTools(s: LoopSession, calls: ToolUse[], turn: number, at: string): Promise<void> {
  const { run } = s;
  const content: BetaContentBlockParam[] = [];
  // Keyed by tool_use ids, each new: a dictionary from the start (an object literal would get a new hidden
  // class for every id, a cost the profile of bench/loop shows per turn).
  const tools = Object.create(null) as Record<string, ToolMeta>;
  const env: ToolEnv = {
    conversationId: s.conversationId,
    conversationTitle: titleOf(state(s)),
    writeMode: s.settings.memoryWriteMode,
    quotesForgotten: (call) => redactedSince(state(s), call),
    review: async (proposal, toolUseId) => {
      let id = '';
      const decision = await s.reviews.request(run.runId, run.signal, (reviewId) => {
        id = reviewId;
        const card = {
          kind: 'review' as const,
          reviewId,
          toolUseId,
          command: proposal.command,
          path: proposal.path,
          before: proposal.before,
          after: proposal.after,
        };
        // Stored (queued, in order) so the card is there after a reload; announced at once.
        const askedAt = now();
        s.store.appendQueued(s.conversationId, [
          { t: 'event', id: randomUUID(), event: 'review', card, at: askedAt },
        ]);
        const { kind: _kind, ...request } = card;
        run.emit({ type: 'review.request', ...request, at: askedAt });
      });
      if (!id) return decision;
      const outcome: 'approved' | 'edited' | 'rejected' =
        decision.decision === 'approve' ? 'approved' : decision.decision === 'edit' ? 'edited' : 'rejected';
      const resolved = { kind: 'reviewed' as const, reviewId: id, outcome };
      s.store.appendQueued(s.conversationId, [
        { t: 'event', id: randomUUID(), event: 'reviewed', card: resolved, at: now() },
      ]);
      run.emit({ type: 'review.resolved', reviewId: id, outcome });
      return decision;
    },
  };
  for (const call of calls) {
    if (run.signal.aborted) {
      content.push({ type: 'tool_result', tool_use_id: call.id, content: CANCELLED, is_error: true });
      tools[call.id] = { name: call.name, durationMs: 0, isError: true };
      continue;
    }
    run.emit({ type: 'tool.call', toolUseId: call.id, name: call.name, input: call.input, turn, at });
    // A memory write changes the disk: the reply that asked for it must be durable first.
    if (
      call.name === 'memory' &&
      WRITE_COMMANDS.has(String((call.input as { command?: unknown })?.command))
    ) {
      await s.store.flushed(s.conversationId);
    }
    const started = performance.now();
    // The journal entry a memory write makes travels with its result (event and record), in order.
    let journalId: string | undefined;
    const off = s.memory?.onChange((change) => {
      if (change.toolUseId === call.id) journalId ??= change.journalId;
    });
    let result;
    try {
      result = await s.toolbox.execute(call, env);
    } finally {
      off?.();
    }
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    run.emit({
      type: 'tool.result',
      toolUseId: call.id,
      name: call.name,
      result: result.content,
      isError: result.isError,
      durationMs,
      ...(journalId ? { journalId } : {}),
    });
    const block: BetaToolResultBlockParam = {
      type: 'tool_result',
      tool_use_id: call.id,
      content: result.content,
    };
    if (result.isError) block.is_error = true;
    content.push(block);
    tools[call.id] = {
      name: call.name,
      durationMs,
      isError: result.isError,
      ...(journalId ? { journalId } : {}),
    };
  }
  const notes = run.signal.aborted || !s.memory ? null : await s.takeMemoryNotes();
  if (notes) content.push({ type: 'text', text: notes });
  const id = randomUUID();
  const resultsAt = now();
  // Queued: the next request goes out while the disk syncs (the file stays a prefix of the history).
  queueMessage(s, { t: 'msg', id, kind: 'tool_results', role: 'user', content, at: resultsAt, tools });
  run.emit({ type: 'message.done', messageId: id, interrupted: false, at: resultsAt });
  // The note is part of the message (the model reads it there); its card is derived from it on reload.
  if (notes)
    run.emit({ type: 'card', id: noteId(id), card: { kind: 'memory_changed', note: notes }, at: resultsAt });
}
