// From a conversation's state to the request the API expects: its history (history.ts), the system prompt,
// the tools and the context management edits, with cache_control on the stable prefix (tools, system,
// backfill) plus the end of the history so each turn reads the previous one from the prompt cache.
import { CONVERSATION_SEARCH } from '../recall/tools.js';
import type {
  BetaContentBlockParam,
  BetaMessageParam,
  BetaTextBlockParam,
  BetaToolUnion,
} from '@anthropic-ai/sdk/resources/beta/messages/messages.js';
import type { Settings } from '../../../shared/channels/settings.js';
import type { ConversationState } from '../conversations/state.js';
import { type History, buildHistory } from './history.js';
import { systemPrompt } from './system-prompt.js';
import type { TurnParams } from './stream-turn.js';

export const BETA_CONTEXT_MANAGEMENT = 'context-management-2025-06-27';
export const BETA_COMPACT = 'compact-2026-01-12';
export const BETA_COMPACT_ON_DEMAND = 'compact-2026-09-04';
/** The API refuses a compact_20260112 trigger below this. */
export const NATIVE_COMPACT_MIN = 50_000;
export const MAX_TOKENS = 8_192;

/** The compaction trigger a strategy works to: the API's own minimum applies to native compaction. */
export function compactTriggerOf(strategy: 'native' | 'local', settings: Settings): number {
  return strategy === 'native'
    ? Math.max(NATIVE_COMPACT_MIN, settings.compactTrigger)
    : settings.compactTrigger;
}

const CACHE = { type: 'ephemeral' } as const;

/** cache_control on the last memory view result and on the last block (copies; the history is not touched). */
function markCache(history: History): void {
  const { messages, memoryView } = history;
  if (memoryView) {
    const m = messages[memoryView.message]!;
    const content = [...m.content];
    content[memoryView.block] = {
      ...content[memoryView.block]!,
      cache_control: CACHE,
    } as BetaContentBlockParam;
    messages[memoryView.message] = { ...m, content };
  }
  const last = messages.at(-1);
  if (!last) return;
  const content = [...last.content];
  const tail = content.at(-1);
  if (tail && tail.type !== 'thinking' && tail.type !== 'redacted_thinking') {
    content[content.length - 1] = { ...tail, cache_control: CACHE } as BetaContentBlockParam;
    messages[messages.length - 1] = { ...last, content };
  }
}

export interface RequestOptions {
  settings: Settings;
  model: string;
  tools: BetaToolUnion[];
  strategy: Settings['contextStrategy'];
  /**
   * Native: leave the compaction edit out (compaction said it cannot help and is paused, see
   * context/local.ts compactionPaused); the API would otherwise compact, and be paid for, on every turn.
   */
  pauseCompaction?: boolean;
}

export function contextManagement(
  settings: Settings,
  pauseCompaction = false,
): NonNullable<TurnParams['context_management']> {
  const edits: NonNullable<NonNullable<TurnParams['context_management']>['edits']> = [
    {
      type: 'clear_tool_uses_20250919',
      trigger: { type: 'input_tokens', value: settings.clearTrigger },
      keep: { type: 'tool_uses', value: settings.clearKeep },
      ...(settings.clearAtLeast > 0
        ? { clear_at_least: { type: 'input_tokens', value: settings.clearAtLeast } }
        : {}),
      // The backfill and the model's own memory reads stay: they are what the memory is for. The user
      // may keep memory_search results too.
      exclude_tools: ['memory', ...settings.clearExcludeTools],
    },
  ];
  if (!pauseCompaction) {
    edits.push({
      type: 'compact_20260112',
      trigger: { type: 'input_tokens', value: compactTriggerOf('native', settings) },
      // Pause so the app can give the memory (and pinned messages) again right after the summary.
      pause_after_compaction: true,
    });
  }
  return { edits };
}

export function systemBlocks(memory: boolean, recall = false): BetaTextBlockParam[] {
  return [{ type: 'text', text: systemPrompt(memory, recall), cache_control: CACHE }];
}

export function cachedTools(tools: BetaToolUnion[]): BetaToolUnion[] {
  return tools.map((t, i) =>
    i === tools.length - 1 ? ({ ...t, cache_control: CACHE } as BetaToolUnion) : t,
  );
}

export function buildRequest(state: ConversationState, options: RequestOptions): TurnParams {
  const history = buildHistory(state);
  markCache(history);
  const betas: string[] = [];
  const params: TurnParams = {
    model: options.model,
    max_tokens: MAX_TOKENS,
    // The recall paragraph goes with the recall tools (offered where the space's setting is on).
    system: systemBlocks(
      state.meta.memory,
      options.tools.some((t) => (t as { name?: string }).name === CONVERSATION_SEARCH),
    ),
    messages: history.messages as BetaMessageParam[],
  };
  if (options.tools.length > 0) params.tools = cachedTools(options.tools);
  if (options.strategy === 'native') {
    betas.push(BETA_CONTEXT_MANAGEMENT, BETA_COMPACT);
    params.context_management = contextManagement(options.settings, options.pauseCompaction);
  } else if (history.compactionBlock) betas.push(BETA_COMPACT);
  if (history.onDemandBlock) betas.push(BETA_COMPACT_ON_DEMAND);
  if (betas.length > 0) params.betas = betas;
  return params;
}
