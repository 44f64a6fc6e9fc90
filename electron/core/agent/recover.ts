// After a crash between a reply's tool_use and its recorded result (SIGKILL, power cut, force-quit), the
// next run first records the missing results, truthfully: for a memory write the memory's journal says
// whether the change was applied (a journaled change is on disk; recovery redoes it), and the result says
// which. Recorded once, so every later request sends the same text. The messages the user sent since stay
// where they are: the pairing rules (pairing.ts) put the results first in that user message.
import { randomUUID } from 'node:crypto';
import type {
  BetaToolResultBlockParam,
  BetaToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages.js';
import type { JournalEntry, Memory } from '../../../memory/types.js';
import type { MessageRecord, ToolMeta } from '../conversations/records.js';
import { STOPPED, interruptedResult, isMemoryWrite } from './pairing.js';
import { type LoopSession, appendMessage, now, state } from './session.js';

/** The calls of the last assistant message(s) that no later record answers. */
export function danglingCalls(messages: readonly MessageRecord[]): BetaToolUseBlockParam[] {
  const answered = new Set<string>();
  let i = messages.length - 1;
  for (; i >= 0 && messages[i]!.role === 'user'; i--) {
    for (const b of messages[i]!.content) if (b.type === 'tool_result') answered.add(b.tool_use_id);
  }
  const calls: BetaToolUseBlockParam[] = [];
  const seen = new Set<string>();
  for (; i >= 0 && messages[i]!.role === 'assistant'; i--) {
    const blocks = messages[i]!.content;
    for (let j = blocks.length - 1; j >= 0; j--) {
      const b = blocks[j]!;
      if (b.type !== 'tool_use' || answered.has(b.id) || seen.has(b.id)) continue;
      seen.add(b.id);
      calls.push(b);
    }
  }
  return calls.reverse();
}

function describe(e: JournalEntry): string {
  switch (e.command) {
    case 'create':
      return `${e.path} was created`;
    case 'delete':
      return `${e.path} was deleted`;
    case 'rename':
      return `${e.path} was renamed to ${e.newPath ?? '?'}`;
    default:
      return `${e.path} was changed`;
  }
}

/** The result a call gets after a crash: for a memory write, whether the journal holds the change. */
export async function recoveredResult(
  memory: Memory | null,
  call: BetaToolUseBlockParam,
): Promise<BetaToolResultBlockParam> {
  if (!memory || !isMemoryWrite(call)) return interruptedResult(call);
  let changes: JournalEntry[];
  try {
    changes = await memory.changesBy(call.id);
  } catch {
    return interruptedResult(call); // not known: the default says so
  }
  const text =
    changes.length > 0
      ? `${STOPPED} The memory change was applied: ${changes.map(describe).join('; ')}. Do not make it again.`
      : `${STOPPED} The memory change was not applied (the memory's journal has no record of it); make it again if it still matters.`;
  return { type: 'tool_result', tool_use_id: call.id, content: text, is_error: true };
}

/** Before a run (or Compact now): record results for the calls a crash left unanswered. */
export async function recoverInterrupted(s: LoopSession): Promise<void> {
  const calls = danglingCalls(state(s).messages);
  if (calls.length === 0) return;
  const content: BetaToolResultBlockParam[] = [];
  const tools = Object.create(null) as Record<string, ToolMeta>;
  for (const call of calls) {
    content.push(await recoveredResult(s.memory, call));
    tools[call.id] = { name: call.name, durationMs: 0, isError: true };
  }
  await appendMessage(s, {
    t: 'msg',
    id: randomUUID(),
    kind: 'tool_results',
    role: 'user',
    content,
    at: now(),
    tools,
  });
}
