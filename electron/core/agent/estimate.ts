// A local token estimate (the SDK has no tokenizer): about four characters per token. Used only for what
// was added since the API last reported usage, and for budgets; the API's own counts win when known.
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Estimate of one content block without serializing it as a whole request. */
export function estimateBlock(block: unknown): number {
  if (typeof block !== 'object' || block === null) return 0;
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return estimateTokens(String(b.text ?? '')) + 3;
    case 'tool_result': {
      const content = b.content;
      if (typeof content === 'string') return estimateTokens(content) + 10;
      if (Array.isArray(content)) return content.reduce((n: number, c) => n + estimateBlock(c), 10);
      return 10;
    }
    case 'tool_use':
      return estimateTokens(JSON.stringify(b.input ?? {})) + 15;
    case 'compaction':
      return estimateTokens(String(b.content ?? '')) + 5;
    default:
      return estimateTokens(JSON.stringify(b));
  }
}

export function estimateBlocks(blocks: readonly unknown[]): number {
  let n = 4;
  for (const block of blocks) n += estimateBlock(block);
  return n;
}
