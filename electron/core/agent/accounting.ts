// Token accounting without re-serializing the history: the API's usage for the last request (input, cache
// reads and writes, output) plus a running estimate of each message appended since. Each append costs
// O(size of that message); the parts (system, memory, messages, tool results) are running sums too. The
// queue of tool results that local clearing may replace is kept here, oldest first.
import type { MessageRecord } from '../conversations/records.js';
import type { ConversationState } from '../conversations/state.js';
import { currentCompaction } from '../conversations/state.js';
import { estimateBlock, estimateBlocks, estimateTokens } from './estimate.js';
import { givenAgain, isThresholdCompaction } from './history.js';

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

interface Clearable {
  id: string;
  tokens: number;
}

/**
 * The running sums of an Accounting without its system tokens (they depend on the settings and are added
 * at use): what the context meter shows, kept in the page sidecar (context-snapshot.ts). Numbers only.
 */
export interface AccountingSums {
  measured: number | null;
  sinceMeasured: number;
  /** The estimate of everything sent, less the system prompt and tools. */
  estimated: number;
  memory: number;
  toolResults: number;
}

export class Accounting {
  /** Context size the API reported after the last response, or null before the first one. */
  private measured: number | null = null;
  private sinceMeasured = 0;
  private estimatedAll = 0;
  private memoryTokens = 0;
  private toolResultTokens = 0;
  private readonly clearable: Clearable[] = [];
  private head = 0;

  constructor(private readonly systemTokens: number) {
    this.estimatedAll = systemTokens;
  }

  /** One pass over the history, at load or after a compaction; every later change is incremental. */
  static fromState(state: ConversationState, systemTokens: number): Accounting {
    const acc = new Accounting(systemTokens);
    const compaction = currentCompaction(state);
    let start = 0;
    if (compaction) {
      start = state.messages.findIndex((m) => m.id === compaction.lastMessageId) + 1;
      acc.estimatedAll += estimateTokens(compaction.summary) + estimateTokens(compaction.pinned ?? '');
      if (compaction.request) acc.estimatedAll += estimateBlocks(givenAgain(compaction.request));
      acc.memoryTokens = compaction.memory?.tokens ?? 0;
      acc.estimatedAll += acc.memoryTokens;
    }
    // A threshold compaction block in a reply: the history starts there (history.ts), and so does the
    // count (the reply's own usage, zero when paused after compacting, measures nothing that is sent).
    let block = -1;
    for (let i = state.messages.length - 1; i >= start && block < 0; i--)
      if (isThresholdCompaction(state.messages[i]!)) block = i;
    if (block >= 0) {
      acc.estimatedAll = systemTokens;
      acc.memoryTokens = 0;
    }
    for (let i = Math.max(start, block); i < state.messages.length; i++) {
      const m = state.messages[i]!;
      acc.add(m, state.cleared);
      // A reply kept verbatim by a compaction was measured with the context before it: only later
      // replies measure the context as it is now.
      if (i === block) continue;
      if (m.kind === 'assistant' && m.usage && (!compaction || m.at > compaction.at)) acc.measure(m.usage);
    }
    return acc;
  }

  /** The sums fromState gives, for fromSums to give the same total and parts under any system tokens. */
  toSums(): AccountingSums {
    return {
      measured: this.measured,
      sinceMeasured: this.sinceMeasured,
      estimated: this.estimatedAll - this.systemTokens,
      memory: this.memoryTokens,
      toolResults: this.toolResultTokens,
    };
  }

  /**
   * The meter's figures from saved sums. Without the queue of clearable results, so only for display:
   * a run builds its accounting from the state (fromState), which it loads anyway.
   */
  static fromSums(sums: AccountingSums, systemTokens: number): Accounting {
    const acc = new Accounting(systemTokens);
    acc.measured = sums.measured;
    acc.sinceMeasured = sums.sinceMeasured;
    acc.estimatedAll = systemTokens + sums.estimated;
    acc.memoryTokens = sums.memory;
    acc.toolResultTokens = sums.toolResults;
    return acc;
  }

  /** A message was appended (after the last measurement). */
  add(m: MessageRecord, cleared?: ReadonlySet<string>): void {
    const tokens = estimateBlocks(m.content);
    this.estimatedAll += tokens;
    this.sinceMeasured += tokens;
    if (m.kind === 'backfill' && m.role === 'user') this.memoryTokens = tokens;
    if (m.kind !== 'tool_results') return;
    const names = m.tools ?? {};
    for (const block of m.content) {
      if (block.type !== 'tool_result') continue;
      const t = estimateBlock(block);
      if (cleared?.has(block.tool_use_id)) continue;
      this.toolResultTokens += t;
      // The model's memory reads stay (as native exclude_tools ['memory']); other results may be cleared.
      if (names[block.tool_use_id]?.name !== 'memory')
        this.clearable.push({ id: block.tool_use_id, tokens: t });
    }
  }

  /** The API's usage for the request that produced the assistant message just added. */
  measure(usage: { input: number; output: number; cacheRead: number; cacheWrite: number }): void {
    this.measured = usage.input + usage.cacheRead + usage.cacheWrite + usage.output;
    this.sinceMeasured = 0;
  }

  get total(): number {
    return this.measured === null ? this.estimatedAll : this.measured + this.sinceMeasured;
  }

  get isMeasured(): boolean {
    return this.measured !== null;
  }

  parts(): { system: number; memory: number; messages: number; toolResults: number } {
    let system = this.systemTokens;
    let memory = this.memoryTokens;
    let toolResults = Math.max(0, this.toolResultTokens);
    const total = this.total;
    const fixed = system + memory + toolResults;
    // The parts are estimates; when the API's measured total is smaller, scale them so they add up.
    if (fixed > total && fixed > 0) {
      const k = total / fixed;
      system = Math.round(system * k);
      memory = Math.round(memory * k);
      toolResults = Math.round(toolResults * k);
    }
    return { system, memory, toolResults, messages: Math.max(0, total - system - memory - toolResults) };
  }

  /**
   * Local clearing decision: past the trigger, every clearable result but the last `keep` (oldest first),
   * if together they free at least `atLeast` tokens. Amortized O(1): each result is looked at once.
   */
  planClearing(trigger: number, keep: number, atLeast: number): { ids: string[]; tokens: number } | null {
    if (this.total <= trigger) return null;
    const available = this.clearable.length - this.head - keep;
    if (available <= 0) return null;
    let tokens = 0;
    const ids: string[] = [];
    for (let i = this.head; i < this.head + available; i++) {
      ids.push(this.clearable[i]!.id);
      tokens += this.clearable[i]!.tokens;
    }
    if (tokens < atLeast) return null;
    return { ids, tokens };
  }

  /** Applies a clearing: the results now count as their placeholders. */
  cleared(ids: readonly string[], tokens: number, placeholderTokens: number): void {
    this.head += ids.length;
    if (this.head > 1024 && this.head * 2 > this.clearable.length) {
      this.clearable.splice(0, this.head);
      this.head = 0;
    }
    const saved = tokens - placeholderTokens * ids.length;
    this.toolResultTokens -= saved;
    this.estimatedAll -= saved;
    if (this.measured !== null) this.measured -= saved;
    else this.sinceMeasured -= saved;
  }

  /** Native clearing reported by the API (the next usage already reflects it). */
  nativeCleared(tokens: number): void {
    this.toolResultTokens = Math.max(0, this.toolResultTokens - tokens);
  }

  shouldCompact(trigger: number): boolean {
    return this.total > trigger;
  }
}
