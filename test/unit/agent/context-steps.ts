// Generated conversations for the context meter's property (context-snapshot.test.ts): everything the
// meter counts (usage reports, compactions with their memory and pins, threshold compaction blocks,
// clearings with and without cards, a compaction that got stuck, pins, truncations, backfills), and the
// records they become.
import fc from 'fast-check';
import { defaultSettings } from '../../../shared/channels/settings.js';
import type { ConversationRecord, MessageRecord } from '../../../electron/core/conversations/records.js';

/** Times that only grow (a compaction measures only the replies after it). */
let clock = Date.parse('2026-01-01T00:00:00Z');
export const tick = (): string => new Date((clock += 1_000)).toISOString();

export type Step =
  | { op: 'user'; words: number }
  | { op: 'backfill'; words: number }
  | { op: 'assistant'; words: number; tools: number[]; usage: number[] | null; block: boolean }
  | { op: 'results'; tools: number[]; memory: boolean; words: number }
  | { op: 'cleared'; tools: number[]; card: boolean; strategy: 'native' | 'local' }
  | { op: 'compacted'; message: number; memory: number; pinned: boolean; strategy: 'native' | 'local' }
  | { op: 'stuck'; strategy: 'native' | 'local'; pinnedMessages: number; tokens: number }
  | { op: 'pin'; message: number; pinned: boolean }
  | { op: 'truncate'; message: number };

const tool = fc.nat({ max: 9 });
const strategy = fc.constantFrom('native' as const, 'local' as const);
export const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('user' as const), words: fc.nat(40) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('backfill' as const), words: fc.nat(400) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('assistant' as const),
      words: fc.nat(80),
      tools: fc.array(tool, { maxLength: 3 }),
      usage: fc.option(fc.array(fc.nat(200_000), { minLength: 4, maxLength: 4 })),
      block: fc.nat(4).map((n) => n === 0),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('results' as const),
      tools: fc.array(tool, { minLength: 1, maxLength: 3 }),
      memory: fc.boolean(),
      words: fc.nat(300),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('cleared' as const),
      tools: fc.array(tool, { minLength: 1, maxLength: 4 }),
      // Without a card: a record from before cards, whose history step is its free text.
      card: fc.nat(4).map((n) => n !== 0),
      strategy,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('compacted' as const),
      message: fc.nat(),
      memory: fc.nat(3_000),
      pinned: fc.boolean(),
      strategy,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('stuck' as const),
      strategy,
      pinnedMessages: fc.nat(2),
      tokens: fc.nat(400_000),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('pin' as const), message: fc.nat(), pinned: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('truncate' as const), message: fc.nat() }) },
);

const words = (n: number, seed: string): string => `${seed} ${'lorem ipsum '.repeat(n)}`.trim();

/** The records the steps make; `ids`: the conversation's message ids so far (updated). */
export function records(steps: Step[], prefix: string, ids: string[]): ConversationRecord[] {
  const out: ConversationRecord[] = [];
  let n = 0;
  const msg = (m: Omit<MessageRecord, 't' | 'id' | 'at'>): void => {
    const id = `${prefix}m${n++}`;
    ids.push(id);
    out.push({ t: 'msg', id, at: tick(), ...m });
  };
  const event = (card: NonNullable<Extract<ConversationRecord, { t: 'event' }>['card']>): void => {
    out.push({ t: 'event', id: `${prefix}e${n++}`, event: card.kind, at: tick(), card });
  };
  for (const s of steps) {
    switch (s.op) {
      case 'user':
        msg({
          kind: 'user',
          role: 'user',
          text: 'q',
          content: [{ type: 'text', text: words(s.words, 'q') }],
        });
        break;
      case 'backfill':
        msg({
          kind: 'backfill',
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: `${prefix}bf${n}`, content: words(s.words, 'mem') }],
        });
        break;
      case 'assistant': {
        const [input, output, cacheRead, cacheWrite] = s.usage ?? [];
        msg({
          kind: 'assistant',
          role: 'assistant',
          content: [
            ...(s.block ? [{ type: 'compaction', content: words(s.words, 'summary') } as never] : []),
            { type: 'text', text: words(s.words, 'a') },
            ...s.tools.map((t) => ({
              type: 'tool_use' as const,
              id: `tu${t}`,
              name: 'memory',
              input: { t },
            })),
          ],
          ...(s.usage
            ? { usage: { input: input!, output: output!, cacheRead: cacheRead!, cacheWrite: cacheWrite! } }
            : {}),
        });
        break;
      }
      case 'results':
        msg({
          kind: 'tool_results',
          role: 'user',
          content: s.tools.map((t) => ({
            type: 'tool_result' as const,
            tool_use_id: `tu${t}`,
            content: words(s.words, 'r'),
          })),
          tools: Object.fromEntries(
            s.tools.map((t) => [
              `tu${t}`,
              { name: s.memory ? 'memory' : 'web_fetch', durationMs: 3, isError: false },
            ]),
          ),
        });
        break;
      case 'cleared': {
        const toolUseIds = s.tools.map((t) => `tu${t}`);
        out.push({ t: 'cleared', toolUseIds, tokens: 40 * toolUseIds.length, at: tick() });
        const facts = { tokensBefore: 9_000, tokensAfter: 7_000 };
        if (s.card)
          event({ kind: 'cleared', strategy: s.strategy, count: toolUseIds.length, tokens: 40, ...facts });
        else
          out.push({
            t: 'event',
            id: `${prefix}e${n++}`,
            event: 'cleared',
            text: 'Cleared some old tool results',
            strategy: s.strategy,
            ...facts,
            at: tick(),
          });
        break;
      }
      case 'compacted': {
        if (ids.length === 0) break;
        const last = ids[s.message % ids.length]!;
        const summary = words(s.memory % 50, 'sum');
        out.push({
          t: 'compacted',
          strategy: s.strategy,
          lastMessageId: last,
          summary,
          ...(s.memory > 0
            ? {
                memory: {
                  toolUseId: `${prefix}mem${n}`,
                  text: 'm',
                  files: [],
                  totalFiles: 0,
                  tokens: s.memory,
                },
              }
            : {}),
          ...(s.pinned ? { pinned: 'pinned quote' } : {}),
          tokensBefore: 120_000,
          tokensAfter: 20_000,
          messagesCompacted: 4,
          at: tick(),
        });
        event({
          kind: 'compacted',
          strategy: s.strategy,
          messages: 4,
          tokensBefore: 120_000,
          tokensAfter: 20_000,
          summary,
        });
        break;
      }
      case 'stuck':
        event({
          kind: 'compaction_stuck',
          strategy: s.strategy,
          trigger: s.strategy === 'native' ? 150_000 : defaultSettings.compactTrigger,
          budget: defaultSettings.backfillBudgetTokens,
          pinnedMessages: s.pinnedMessages,
          tokens: s.tokens,
          summary: 800,
          floor: 160_000,
          memory: 3_000,
          pinned: 100,
          kept: 2_000,
        });
        break;
      case 'pin':
        if (ids.length)
          out.push({ t: 'pin', messageId: ids[s.message % ids.length]!, pinned: s.pinned, at: tick() });
        break;
      case 'truncate':
        if (ids.length) {
          const from = s.message % ids.length;
          out.push({ t: 'truncate', fromMessageId: ids[from]!, at: tick() });
          ids.length = from;
        }
        break;
    }
  }
  return out;
}
