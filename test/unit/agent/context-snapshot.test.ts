// The context meter's figures saved in the page sidecar (agent/context-snapshot.ts) against a full replay of
// the file: whatever the conversation holds (usage reports, compactions with their memory and pins,
// threshold compaction blocks, clearings, the cards of both, a compaction that got stuck, pins,
// truncations, backfills) and whatever happened to the file (another process's appends, a torn last line,
// a cut, a hand edit in place, the sidecar damaged or put back stale), the meter read through the sidecar
// after a restart is exactly what Accounting.fromState on the replayed state gives, or there is none and
// the file is replayed; once replayed, the next start has one. And it holds no text of the conversation.
import { appendFile, readFile, rm } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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
import { pageFileOf, readPageContext } from '../../../electron/core/conversations/page-file.js';
import type { ConversationRecord } from '../../../electron/core/conversations/records.js';
import { type ConversationState, rebuild } from '../../../electron/core/conversations/state.js';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import { type Step, records, step, tick } from './context-steps.js';
import {
  type FileFault,
  applyFileFault,
  editInPlace,
  fileFaults,
  isFileFault,
  keepSidecars,
  line,
  sidecarFolder,
} from './sidecar-faults.js';

const { dir, file } = sidecarFolder('mnemo-meter-');
const open = (): ConversationStore => new ConversationStore(dir(), { context: snapshotOf });

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
  const saved = parseSnapshot(await readPageContext(dir(), id));
  const got = saved && meterUsage(id, meterOfSnapshot(saved, system), settings, 200_000);
  return { ref, want: JSON.stringify(want), got: got && JSON.stringify(got) };
}

type Op =
  | { op: 'create'; steps: Step[] }
  | { op: 'append'; c: number; steps: Step[] }
  | { op: 'foreignAppend'; c: number; steps: Step[] }
  | { op: 'editInPlace'; c: number }
  | FileFault
  | { op: 'restart' };

const c = fc.nat(2);
const steps = fc.array(step, { minLength: 1, maxLength: 10 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), steps }),
  { weight: 3, arbitrary: fc.record({ op: fc.constant('append' as const), c, steps }) },
  fc.record({ op: fc.constant('foreignAppend' as const), c, steps }),
  fc.record({ op: fc.constant('editInPlace' as const), c }),
  ...fileFaults(
    c,
    [
      '',
      '{',
      'null',
      '{"v":2,"id":"x","stamp":[1,2,3],"pinned":[],"deltas":[],"entries":[],"items":[],"context":{}}',
    ],
    { drop: false },
  ),
  { weight: 2, arbitrary: fc.constant({ op: 'restart' as const }) },
);

/** A digit of a usage or token count raised by one, or null where there is none. */
function bumpCount(text: string): string | null {
  const i = text.search(/"(input|tokens)":[1-8]/);
  if (i < 0) return null;
  const p = text.indexOf(':', i) + 1;
  return text.slice(0, p) + String(Number(text[p]) + 1) + text.slice(p + 1);
}

describe('context meter from the page sidecar', () => {
  it('equals the full replay’s meter, whatever the conversation holds and whatever happened to its file', async () => {
    let served = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 12 }),
        fc.constantFrom(0, 1_234),
        fc.nat(SETTINGS.length - 1),
        async (ops, system, s) => {
          await rm(dir(), { recursive: true, force: true });
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
                const state = await store.create({ memory: true, records: body });
                convs.push({ id: state.meta.id, ids });
                continue;
              }
              if (o.op === 'restart') {
                await restart();
                await keepSidecars(
                  dir(),
                  convs.map((x) => x.id),
                  kept,
                );
                await check();
                continue;
              }
              const conv = convs[o.c];
              if (!conv || !store.has(conv.id)) continue;
              if (isFileFault(o)) {
                await applyFileFault(dir(), conv.id, o, kept);
                continue;
              }
              switch (o.op) {
                case 'append':
                  await store.append(conv.id, records(o.steps, prefix, conv.ids)).catch(() => undefined);
                  break;
                case 'foreignAppend':
                  await appendFile(
                    file(conv.id),
                    records(o.steps, `f${prefix}`, conv.ids).map(line).join(''),
                  );
                  break;
                case 'editInPlace':
                  // Only the mtime tells: see editInPlace.
                  await store.close();
                  editInPlace(file(conv.id), bumpCount);
                  store = open();
                  await store.init();
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
    const text = await readFile(pageFileOf(dir(), meta.id), 'utf8');
    expect(text).toContain('"context"');
    expect(text).toContain('"compacted"');
    expect(text).not.toContain(secret);
  });
});
