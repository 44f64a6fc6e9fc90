// The context meter's figures saved in the page sidecar (agent/context-snapshot.ts) against a full replay of
// the file: whatever the conversation holds (usage reports, compactions with their memory and pins,
// threshold compaction blocks, clearings, the cards of both, a compaction that got stuck, pins,
// truncations, backfills) and whatever happened to the file (another process's appends, a torn last line,
// a cut, a hand edit in place, the sidecar damaged or put back stale), the meter read through the sidecar
// after a restart is exactly what Accounting.fromState on the replayed state gives, or there is none and
// the file is replayed; once replayed, the next start has one. And it holds no text of the conversation.
import { readFileSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings, type Settings } from '../../../shared/channels/settings.js';
import { Accounting } from '../../../electron/core/agent/accounting.js';
import {
  meterOfSnapshot,
  meterOfState,
  meterUsage,
  parseSnapshot,
  snapshotOf,
} from '../../../electron/core/agent/context-snapshot.js';
import { readJsonl } from '../../../electron/core/conversations/jsonl.js';
import { PAGES_DIR, pageFileOf, readPageContext } from '../../../electron/core/conversations/page-file.js';
import type { ConversationRecord, MessageRecord } from '../../../electron/core/conversations/records.js';
import { type ConversationState, rebuild } from '../../../electron/core/conversations/state.js';
import { ConversationStore } from '../../../electron/core/conversations/store.js';

let dir: string;
beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'mnemo-meter-'))));
afterEach(async () => rm(dir, { recursive: true, force: true }));

const file = (id: string): string => path.join(dir, `${id}.jsonl`);
const line = (r: ConversationRecord): string => `${JSON.stringify(r)}\n`;
const open = (): ConversationStore => new ConversationStore(dir, { context: snapshotOf });

/** Times that only grow (a compaction measures only the replies after it). */
let clock = Date.parse('2026-01-01T00:00:00Z');
const tick = (): string => new Date((clock += 1_000)).toISOString();

type Step =
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
const step: fc.Arbitrary<Step> = fc.oneof(
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
function records(steps: Step[], prefix: string, ids: string[]): ConversationRecord[] {
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

async function replayed(id: string): Promise<ConversationState | null> {
  const read = await readJsonl<ConversationRecord>(file(id), { repair: false }).catch(() => null);
  const state = read ? rebuild(read.records) : null;
  return state?.meta.id === id ? state : null;
}

const SETTINGS: Settings[] = [
  defaultSettings,
  { ...defaultSettings, contextStrategy: 'local' },
  { ...defaultSettings, compactTrigger: 200_000, backfillBudgetTokens: 8_000 },
];

/** What the meter shows from the sidecar, or null; and from a full replay (both as JSON, as sent). */
async function meters(id: string, system: number, settings: Settings) {
  const ref = await replayed(id);
  const want = ref && meterUsage(id, meterOfState(ref, Accounting.fromState(ref, system)), settings, 200_000);
  const saved = parseSnapshot(await readPageContext(dir, id));
  const got = saved && meterUsage(id, meterOfSnapshot(saved, system), settings, 200_000);
  return { ref, want: JSON.stringify(want), got: got && JSON.stringify(got) };
}

type Op =
  | { op: 'create'; steps: Step[] }
  | { op: 'append'; c: number; steps: Step[] }
  | { op: 'foreignAppend'; c: number; steps: Step[] }
  | { op: 'torn'; c: number }
  | { op: 'cut'; c: number; at: number }
  | { op: 'editInPlace'; c: number }
  | { op: 'damageSidecar'; c: number; text: string }
  | { op: 'restoreSidecar'; c: number; pick: number }
  | { op: 'restart' };

const c = fc.nat(2);
const steps = fc.array(step, { minLength: 1, maxLength: 10 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), steps }),
  { weight: 3, arbitrary: fc.record({ op: fc.constant('append' as const), c, steps }) },
  fc.record({ op: fc.constant('foreignAppend' as const), c, steps }),
  fc.record({ op: fc.constant('torn' as const), c }),
  fc.record({ op: fc.constant('cut' as const), c, at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ op: fc.constant('editInPlace' as const), c }),
  fc.record({
    op: fc.constant('damageSidecar' as const),
    c,
    text: fc.constantFrom(
      '',
      '{',
      'null',
      '{"v":2,"id":"x","stamp":[1,2,3],"pinned":[],"deltas":[],"entries":[],"items":[],"context":{}}',
    ),
  }),
  fc.record({ op: fc.constant('restoreSidecar' as const), c, pick: fc.nat() }),
  { weight: 2, arbitrary: fc.constant({ op: 'restart' as const }) },
);

describe('context meter from the page sidecar', () => {
  it('equals the full replay’s meter, whatever the conversation holds and whatever happened to its file', async () => {
    let served = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 12 }),
        fc.constantFrom(0, 1_234),
        fc.nat(SETTINGS.length - 1),
        async (ops, system, s) => {
          await rm(dir, { recursive: true, force: true });
          const settings = SETTINGS[s]!;
          let store = open();
          await store.init();
          const convs: { id: string; ids: string[] }[] = [];
          const kept = new Map<string, Buffer[]>();
          let batch = 0;
          const restart = async () => {
            await store.close();
            store = open();
            await store.init();
          };
          /** After a start: each meter through its sidecar is the replay's; without one, it is replayed. */
          const check = async () => {
            for (const { id } of convs) {
              const { ref, want, got } = await meters(id, system, settings);
              if (!ref || !store.has(id)) continue;
              if (got === null) {
                await store.open(id).catch(() => undefined);
                continue;
              }
              served += 1;
              expect(got).toBe(want);
            }
          };
          try {
            for (const o of ops) {
              const prefix = `b${batch++}-`;
              if (o.op === 'create') {
                const ids: string[] = [];
                const body = records(o.steps, prefix, ids);
                const state = await store.create({ memory: batch % 2 === 0, records: body });
                convs.push({ id: state.meta.id, ids });
                continue;
              }
              if (o.op === 'restart') {
                await restart();
                for (const { id } of convs) {
                  const saved = await readFile(pageFileOf(dir, id)).catch(() => null);
                  if (saved) kept.set(id, [...(kept.get(id) ?? []), saved]);
                }
                await check();
                continue;
              }
              const conv = convs[o.c];
              if (!conv || !store.has(conv.id)) continue;
              const f = file(conv.id);
              switch (o.op) {
                case 'append':
                  await store.append(conv.id, records(o.steps, prefix, conv.ids)).catch(() => undefined);
                  break;
                case 'foreignAppend':
                  await appendFile(f, records(o.steps, `f${prefix}`, conv.ids).map(line).join(''));
                  break;
                case 'torn':
                  await appendFile(f, line({ t: 'title', title: 'torn', at: tick() }).slice(0, 12));
                  break;
                case 'cut':
                  truncateSync(f, Math.floor(statSync(f).size * o.at));
                  break;
                case 'editInPlace': {
                  // Same length and inode; a digit of a usage or token count changed: only the mtime tells.
                  const text = readFileSync(f, 'utf8');
                  const i = text.search(/"(input|tokens)":[1-8]/);
                  if (i < 0) break;
                  const p = text.indexOf(':', i) + 1;
                  await store.close();
                  const before = statSync(f).mtimeMs;
                  writeFileSync(f, text.slice(0, p) + String(Number(text[p]) + 1) + text.slice(p + 1));
                  const t = new Date(before + 5_000);
                  utimesSync(f, t, t);
                  store = open();
                  await store.init();
                  break;
                }
                case 'damageSidecar':
                  await mkdir(path.join(dir, PAGES_DIR), { recursive: true });
                  await writeFile(pageFileOf(dir, conv.id), o.text.replace('"x"', JSON.stringify(conv.id)));
                  break;
                case 'restoreSidecar':
                  if (kept.has(conv.id)) {
                    const all = kept.get(conv.id)!;
                    await writeFile(pageFileOf(dir, conv.id), all[o.pick % all.length]!);
                  }
                  break;
              }
            }
            await restart();
            await check();
            // Replayed once, every conversation that can have a snapshot has one now (not one whose ids
            // repeat, which gets no page sidecar, nor one with a step without a card).
            await restart();
            for (const { id } of convs) {
              const ref = store.has(id) ? await replayed(id) : null;
              if (!ref || !snapshotOf(ref)) continue;
              if (new Set(ref.entries.map((e) => e.record.id)).size !== ref.entries.length) continue;
              const { want, got } = await meters(id, system, settings);
              expect(got).toBe(want);
              served += 1;
            }
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 80 },
    );
    // Not vacuous.
    expect(served).toBeGreaterThan(40);
  });

  it('holds numbers and ids, never the conversation’s text', async () => {
    const secret = 'zebra-passphrase-4471';
    let store = open();
    await store.init();
    const { meta } = await store.create({
      memory: true,
      records: [
        {
          t: 'msg',
          id: 'u1',
          kind: 'user',
          role: 'user',
          text: secret,
          content: [{ type: 'text', text: secret }],
          at: tick(),
        },
        {
          t: 'msg',
          id: 'a1',
          kind: 'assistant',
          role: 'assistant',
          content: [{ type: 'text', text: secret }],
          at: tick(),
        },
        {
          t: 'compacted',
          strategy: 'local',
          lastMessageId: 'a1',
          summary: secret,
          pinned: secret,
          tokensBefore: 9,
          tokensAfter: 3,
          messagesCompacted: 2,
          at: tick(),
        },
        {
          t: 'event',
          id: 'e1',
          event: 'compacted',
          at: tick(),
          card: {
            kind: 'compacted',
            strategy: 'local',
            messages: 2,
            tokensBefore: 9,
            tokensAfter: 3,
            summary: secret,
          },
        },
      ],
    });
    await store.close();
    store = open();
    await store.init();
    await store.close();
    const text = await readFile(pageFileOf(dir, meta.id), 'utf8');
    expect(text).toContain('"context"');
    expect(text).toContain('"compacted"');
    expect(text).not.toContain(secret);
  });
});
