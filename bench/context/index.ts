// Context accounting benchmark (issue 4, point 8): a synthetic 2,000-turn conversation with tool results.
// Per turn, ours adds the new messages to a running estimate, takes the API's usage, and makes the local
// clearing and compaction decisions from running sums (accounting.ts); the naive way, measured in the same
// run, serializes the whole history every turn to count tokens and scans every tool result to decide what
// to clear, as the simplest tutorial loops do. Targets: ours flat in conversation length (cost at 2,000
// turns at most 1.5x the cost at 100) and at least 50x cheaper than the naive way at 2,000 turns.
// Also measured: the request's history, kept per conversation and extended by each turn's messages
// (history.ts), against building it from the records every turn (what the loop did before).
import { pathToFileURL } from 'node:url';
import { Accounting } from '../../electron/core/agent/accounting.js';
import { buildHistory, historyFromScratch } from '../../electron/core/agent/history.js';
import type { MessageRecord } from '../../electron/core/conversations/records.js';
import { type ConversationState, applyRecord, emptyState } from '../../electron/core/conversations/state.js';

export interface BenchTable {
  title: string;
  rows: Record<string, string | number>[];
}

const TURNS = 2_000;
const CHECKPOINTS = [100, 2_000];
const WINDOW = 50;
const TRIGGER = 100_000;
const KEEP = 3;
const COMPACT_AT = 10_000_000; // decisions only: the summarizer call itself is a model request

/** The four messages of one synthetic turn: question, tool call, ~2 KB tool result, answer. */
function turn(i: number): MessageRecord[] {
  const at = new Date(0).toISOString();
  const id = `toolu_${String(i).padStart(20, '0')}`;
  return [
    {
      t: 'msg',
      id: `u${i}`,
      kind: 'user',
      role: 'user',
      at,
      text: `question ${i}`,
      content: [{ type: 'text', text: `Question ${i}: ${'what about this? '.repeat(8)}` }],
    },
    {
      t: 'msg',
      id: `a${i}`,
      kind: 'assistant',
      role: 'assistant',
      at,
      content: [{ type: 'tool_use', id, name: 'memory_search', input: { query: `topic ${i}`, limit: 20 } }],
    },
    {
      t: 'msg',
      id: `r${i}`,
      kind: 'tool_results',
      role: 'user',
      at,
      tools: { [id]: { name: 'memory_search', durationMs: 1, isError: false } },
      content: [
        {
          type: 'tool_result',
          tool_use_id: id,
          content: `/memories/notes/n${i}.md:1: ${'a line that matched the query '.repeat(70)}`,
        },
      ],
    },
    {
      t: 'msg',
      id: `b${i}`,
      kind: 'assistant',
      role: 'assistant',
      at,
      content: [{ type: 'text', text: `Answer ${i}: ${'here is what I found. '.repeat(12)}` }],
    },
  ];
}

const history: MessageRecord[][] = Array.from({ length: TURNS }, (_, i) => turn(i));

/** Ours: the real accounting, turn by turn; returns the mean cost (µs) of the turns ending at each checkpoint. */
function ours(): Map<number, number> {
  const acc = new Accounting(2_000);
  const cleared = new Set<string>();
  const result = new Map<number, number>();
  let windowNs = 0n;
  let reported = 0;
  for (let i = 0; i < TURNS; i++) {
    const messages = history[i]!;
    const started = process.hrtime.bigint();
    acc.add(messages[0]!, cleared);
    acc.add(messages[1]!, cleared);
    acc.measure({ input: Math.max(0, acc.total - 300), output: 40, cacheRead: 0, cacheWrite: 0 });
    acc.add(messages[2]!, cleared);
    acc.add(messages[3]!, cleared);
    const plan = acc.planClearing(TRIGGER, KEEP, 0);
    if (plan) {
      for (const id of plan.ids) cleared.add(id);
      acc.cleared(plan.ids, plan.tokens, 30);
    }
    const compact = acc.shouldCompact(COMPACT_AT);
    const elapsed = process.hrtime.bigint() - started;
    if (compact) reported += 1;
    const n = i + 1;
    if (CHECKPOINTS.some((c) => n > c - WINDOW && n <= c)) windowNs += elapsed;
    if (CHECKPOINTS.includes(n)) {
      result.set(n, Number(windowNs) / WINDOW / 1_000);
      windowNs = 0n;
    }
  }
  if (reported < 0) throw new Error('unreachable');
  return result;
}

function conversation(): ConversationState {
  const at = new Date(0).toISOString();
  return emptyState({ t: 'meta', v: 1, id: 'bench', title: '', createdAt: at, memory: false });
}

/** The kept history, turn by turn: mean cost (µs) of building the request's history at each checkpoint. */
function keptHistory(): Map<number, number> {
  const state = conversation();
  const result = new Map<number, number>();
  let windowNs = 0n;
  let length = 0;
  for (let i = 0; i < TURNS; i++) {
    for (const m of history[i]!) applyRecord(state, m);
    const started = process.hrtime.bigint();
    length = buildHistory(state).messages.length;
    const elapsed = process.hrtime.bigint() - started;
    const n = i + 1;
    if (CHECKPOINTS.some((c) => n > c - WINDOW && n <= c)) windowNs += elapsed;
    if (CHECKPOINTS.includes(n)) {
      result.set(n, Number(windowNs) / WINDOW / 1_000);
      windowNs = 0n;
    }
  }
  if (length === 0) throw new Error('the history came out empty');
  return result;
}

/** The history built from the records of `n` turns (µs). */
function rebuiltHistory(n: number): number {
  const state = conversation();
  for (const m of history.slice(0, n).flat()) applyRecord(state, m);
  const started = process.hrtime.bigint();
  const built = historyFromScratch(state);
  const elapsed = Number(process.hrtime.bigint() - started) / 1_000;
  if (built.messages.length === 0) throw new Error('the history came out empty');
  return elapsed;
}

/** Naive: serialize the whole history to count tokens, scan every tool result to decide what to clear. */
function naiveTurn(n: number): number {
  const messages = history
    .slice(0, n)
    .flat()
    .map((m) => ({ role: m.role, content: m.content }));
  const started = process.hrtime.bigint();
  const tokens = Math.ceil(JSON.stringify(messages).length / 4);
  const results: string[] = [];
  for (const m of messages)
    for (const b of m.content) if (b.type === 'tool_result') results.push(b.tool_use_id);
  const toClear = tokens > TRIGGER ? results.slice(0, Math.max(0, results.length - KEEP)) : [];
  const compact = tokens > COMPACT_AT;
  const elapsed = Number(process.hrtime.bigint() - started) / 1_000;
  if (compact && toClear.length < 0) throw new Error('unreachable');
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(): Promise<BenchTable> {
  // Warm up, then take the median of several passes so one GC pause does not decide the result.
  ours();
  const passes = Array.from({ length: 7 }, () => ours());
  const ourCost = new Map(CHECKPOINTS.map((c) => [c, median(passes.map((p) => p.get(c)!))]));
  const naiveCost = new Map(
    CHECKPOINTS.map((c) => [c, median(Array.from({ length: 5 }, () => naiveTurn(c)))]),
  );
  const rows: BenchTable['rows'] = CHECKPOINTS.map((c) => ({
    turns: c,
    'ours µs/turn': Number(ourCost.get(c)!.toFixed(2)),
    'naive µs/turn': Number(naiveCost.get(c)!.toFixed(1)),
    'naive / ours': Number((naiveCost.get(c)! / ourCost.get(c)!).toFixed(1)),
  }));
  const flat = ourCost.get(2_000)! / ourCost.get(100)!;
  const speedup = naiveCost.get(2_000)! / ourCost.get(2_000)!;
  rows.push({
    turns: 'targets',
    'ours µs/turn': `2000 vs 100: ${flat.toFixed(2)}x (<= 1.5 ${flat <= 1.5 ? 'ok' : 'MISSED'})`,
    'naive µs/turn': '',
    'naive / ours': `${speedup.toFixed(0)}x at 2000 (>= 50 ${speedup >= 50 ? 'ok' : 'MISSED'})`,
  });
  keptHistory();
  const kept = Array.from({ length: 5 }, () => keptHistory());
  for (const c of CHECKPOINTS) {
    const ours = median(kept.map((p) => p.get(c)!));
    const rebuilt = median(Array.from({ length: 5 }, () => rebuiltHistory(c)));
    rows.push({
      turns: `${c} (request history)`,
      'ours µs/turn': Number(ours.toFixed(2)),
      'naive µs/turn': Number(rebuilt.toFixed(1)),
      'naive / ours': Number((rebuilt / ours).toFixed(1)),
    });
  }
  return {
    title:
      'Context per turn: accounting (running sums vs serializing everything) and request history (kept vs rebuilt)',
    rows,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const table = await run();
  console.log(table.title);
  console.table(table.rows);
}
