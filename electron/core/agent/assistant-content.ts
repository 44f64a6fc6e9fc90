// A reply as it goes back into the history: response blocks become request blocks (round-tripped unchanged
// where the API says so: compaction, thinking), empty text is dropped, and a tool_use whose input was cut
// off by max_tokens is removed so it can never be executed or sent unanswered.
import type {
  BetaContentBlock,
  BetaContentBlockParam,
  BetaMessage,
} from '@anthropic-ai/sdk/resources/beta/messages/messages.js';

export interface ToolUse {
  id: string;
  name: string;
  input: unknown;
}

function toParam(block: BetaContentBlock): BetaContentBlockParam | null {
  switch (block.type) {
    case 'text':
      return block.text.length > 0 ? { type: 'text', text: block.text } : null;
    case 'tool_use':
      return {
        type: 'tool_use',
        id: block.id,
        name: block.name,
        input: (typeof block.input === 'object' && block.input !== null ? block.input : {}) as Record<
          string,
          unknown
        >,
      };
    case 'compaction': {
      const out: BetaContentBlockParam = {
        type: 'compaction',
        content: block.content,
        encrypted_content: block.encrypted_content,
      };
      if (block.signature != null) out.signature = block.signature;
      if (block.tool_changes != null) (out as { tool_changes?: unknown }).tool_changes = block.tool_changes;
      return out;
    }
    case 'thinking':
      return { type: 'thinking', thinking: block.thinking, signature: block.signature };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    default:
      return block as unknown as BetaContentBlockParam;
  }
}

export interface Converted {
  content: BetaContentBlockParam[];
  toolUses: ToolUse[];
  /** A tool_use was dropped because max_tokens cut its input. */
  cutToolUse: boolean;
}

export function convertReply(message: BetaMessage): Converted {
  const blocks = [...message.content];
  let cutToolUse = false;
  if (message.stop_reason === 'max_tokens' && blocks.at(-1)?.type === 'tool_use') {
    blocks.pop();
    cutToolUse = true;
  }
  const content: BetaContentBlockParam[] = [];
  const toolUses: ToolUse[] = [];
  for (const block of blocks) {
    const param = toParam(block);
    if (!param) continue;
    content.push(param);
    if (block.type === 'tool_use') toolUses.push({ id: block.id, name: block.name, input: block.input });
  }
  return { content, toolUses, cutToolUse };
}

/** What an interrupted reply keeps: its text, nothing that would need a tool result. */
export function partialText(message: BetaMessage | undefined): BetaContentBlockParam[] {
  if (!message) return [];
  // Trailing whitespace is trimmed: the API refuses a final assistant message that ends with it.
  return message.content
    .filter(
      (b): b is Extract<BetaContentBlock, { type: 'text' }> => b.type === 'text' && b.text.trim().length > 0,
    )
    .map((b) => ({ type: 'text', text: b.text.trimEnd() }));
}

export function textOf(content: readonly BetaContentBlockParam[]): string {
  return content
    .filter((b): b is Extract<BetaContentBlockParam, { type: 'text' }> => b.type === 'text')
    .map((b) => b.text)
    .join('');
}
