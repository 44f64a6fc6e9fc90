// The tools the model gets: `memory` (memory_20250818, executed by memory/), `memory_search`, and, where
// the space's recall is on, `conversation_search` and `recent_conversations` (../recall/). Every call
// ends as a tool result, never as a thrown error: unknown tools, malformed inputs, read-only refusals and
// rejected reviews become is_error results with a message the model can act on.
import type { BetaToolUnion } from '@anthropic-ai/sdk/resources/beta/messages/messages.js';
import { isMemoryError } from '../../../memory/errors.js';
import type { Actor, Memory, ToolResult } from '../../../memory/types.js';
import type { Settings } from '../../../shared/channels/settings.js';
import { WRITE_COMMANDS } from '../../../shared/projection/memory-writes.js';
import type { RecallTools } from '../recall/tools.js';
import { type Proposal, proposeChange } from './proposal.js';
import type { ReviewDecision } from './review.js';

export interface SearchTool {
  readonly definition: BetaToolUnion;
  execute(input: unknown): Promise<ToolResult>;
}

export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

export interface ToolEnv {
  conversationId: string;
  conversationTitle: string;
  writeMode: Settings['memoryWriteMode'];
  /** Under "ask": wait for the user's decision on a proposed change. */
  review(proposal: Proposal, toolUseId: string): Promise<ReviewDecision>;
  /**
   * Whether a forget since the call was stored redacted it (it quoted the forgotten file): such a write
   * would put back what the user just erased.
   */
  quotesForgotten?(call: ToolCall): boolean;
}

const QUOTES_FORGOTTEN =
  'this change quotes a memory file the user asked to forget while you were answering, so nothing was saved. Do not write that content again.';

const READ_ONLY =
  'Memory is read-only (the user chose this in Settings), so nothing was saved. If it matters, tell the user what you would have remembered.';

export class Toolbox {
  readonly definitions: BetaToolUnion[];

  constructor(
    private readonly memory: Memory | null,
    private readonly search: SearchTool | null,
    private readonly recall: RecallTools | null = null,
  ) {
    this.definitions = memory
      ? [memory.tool.definition, ...(search ? [search.definition] : []), ...(recall?.definitions ?? [])]
      : [];
  }

  async execute(call: ToolCall, env: ToolEnv): Promise<ToolResult> {
    try {
      if (this.memory && call.name === 'memory') return await this.runMemory(this.memory, call, env);
      if (this.search && call.name === 'memory_search') return await this.search.execute(call.input);
      if (this.memory && this.recall?.handles(call.name))
        return await this.recall.execute(call.name, call.input, env.conversationId);
      const offered = this.definitions.map((d) => (d as { name: string }).name).join(', ') || 'none';
      return {
        content: `Error: there is no tool named '${call.name}'. Tools available: ${offered}.`,
        isError: true,
      };
    } catch (error) {
      // Memory errors carry a message made for the model (no host paths); anything else must not leak.
      if (isMemoryError(error)) return { content: `Error: ${error.message}`, isError: true };
      return { content: `Error: the ${call.name} tool failed unexpectedly. Try again.`, isError: true };
    }
  }

  private async runMemory(memory: Memory, call: ToolCall, env: ToolEnv): Promise<ToolResult> {
    const input = call.input as { command?: unknown } | null;
    const command = typeof input?.command === 'string' ? input.command : '';
    const actor: Actor = {
      kind: 'agent',
      conversationId: env.conversationId,
      toolUseId: call.id,
      conversationTitle: env.conversationTitle,
    };
    if (!WRITE_COMMANDS.has(command)) return memory.tool.execute(call.input, actor);
    const forgotten = { content: `Error: ${QUOTES_FORGOTTEN}`, isError: true };
    if (env.quotesForgotten?.(call)) return forgotten;
    if (env.writeMode === 'automatic') return memory.tool.execute(call.input, actor);
    if (env.writeMode === 'read-only') return { content: `Error: ${READ_ONLY}`, isError: true };

    const proposal = await proposeChange(memory, call.input);
    // A change that cannot apply (bad path, missing old_str...) needs no review: the tool explains why.
    if (!proposal) return memory.tool.execute(call.input, actor);
    const decision = await env.review(proposal, call.id);
    // The user may forget the file while the review waits.
    if (decision.decision !== 'edit' && env.quotesForgotten?.(call)) return forgotten;
    switch (decision.decision) {
      case 'approve':
        return memory.tool.execute(call.input, actor);
      case 'edit': {
        // A rename happens as proposed and the edited text lands at the new path; otherwise the edited
        // text replaces the proposed change (for a delete: the file is kept with that text).
        let target = proposal.path;
        if (proposal.command === 'rename' && proposal.newPath) {
          const moved = await memory.tool.execute(call.input, actor);
          if (moved.isError) return moved;
          target = proposal.newPath;
        }
        await memory.write(target, decision.content, 'any', actor);
        return {
          content: `The user edited your proposed change before saving it. ${target} now contains:\n${decision.content}`,
          isError: false,
        };
      }
      case 'reject':
        return {
          content: `Error: the user rejected this memory change; nothing was saved.${decision.reason ? ` Their reason: ${decision.reason}` : ''} Do not retry it unless they ask.`,
          isError: true,
        };
      case 'cancelled':
        return { content: 'Error: cancelled by the user.', isError: true };
    }
  }
}
