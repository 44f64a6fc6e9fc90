// The recall benchmark's corpus (a Zipf vocabulary, conversations seeded by plain fs writes) and its
// measures (wall and CPU ms, the event loop's longest stall, the sliced busy-work baseline).
import { promises as fsp } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as path from 'node:path';
import type { MessageRecord } from '../../electron/core/conversations/records.js';
import { SLICE_MS } from '../../electron/core/recall/slices.js';
import { ms } from '../timing.js';

// A Zipf-distributed vocabulary of 5,000 words (frequency ~ 1/rank, as in natural text) whose most
// frequent ranks are the stop words the index leaves out, so "common" below means a common content word.
export const STOPS =
  'the a and to of in is it that for on with was this be as at by not or but if are they no'.split(' ');
const SYLLABLES = 'ka lo mi ne ru sa te vi zo pa re di fo gu ha ji'.split(' ');
export const VOCABULARY = 5_000;
export const word = (rank: number): string => {
  if (rank < STOPS.length) return STOPS[rank]!;
  let w = '';
  for (let r = rank, i = 0; i < 3 || r > 0; i++, r = Math.floor(r / 16)) w += SYLLABLES[r % 16];
  return w;
};
const cumulative: number[] = [];
for (let r = 0, sum = 0; r < VOCABULARY; r++) cumulative.push((sum += 1 / (r + 1)));
let seedState = 42;
function nextRank(): number {
  seedState = (Math.imul(seedState, 1_103_515_245) + 12_345) >>> 0;
  const x = (seedState / 2 ** 32) * cumulative.at(-1)!;
  let lo = 0;
  let hi = VOCABULARY - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** About 30 words drawn from the vocabulary; a rare marker now and then, and one fact to find. */
export function sentence(c: number, m: number): string {
  const words: string[] = [];
  for (let w = 0; w < 30; w++) words.push(word(nextRank()));
  if (m === 100) words.push(`marker${c}`);
  if (c === 500 && m === 42) words.push('the restaurant called Chez Gaston');
  return `${words.join(' ')}.`;
}

export async function seed(dir: string, conversations: number, messages: number): Promise<number> {
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  let bytes = 0;
  const jobs: Promise<void>[] = [];
  for (let c = 0; c < conversations; c++) {
    const id = `c${String(c).padStart(6, '0')}`;
    const t0 = Date.UTC(2024, 0, 1) + c * 3_600_000;
    const lines = [
      JSON.stringify({
        t: 'meta',
        v: 1,
        id,
        title: `Conversation ${c}`,
        createdAt: new Date(t0).toISOString(),
        memory: true,
      }),
    ];
    for (let m = 0; m < messages; m++) {
      const text = sentence(c, m);
      const user = m % 2 === 0;
      const record: MessageRecord = {
        t: 'msg',
        id: `${id}-m${m}`,
        kind: user ? 'user' : 'assistant',
        role: user ? 'user' : 'assistant',
        content: [{ type: 'text', text }],
        ...(user ? { text } : {}),
        at: new Date(t0 + m * 1000).toISOString(),
      };
      lines.push(JSON.stringify(record));
    }
    const body = `${lines.join('\n')}\n`;
    bytes += body.length;
    jobs.push(fsp.writeFile(path.join(dir, `${id}.jsonl`), body, { mode: 0o600 }));
    if (jobs.length >= 32) await Promise.all(jobs.splice(0));
  }
  await Promise.all(jobs);
  return bytes;
}

export const round = (x: number): number => Math.round(x * 100) / 100;

/** `fn`'s wall ms, and the event loop's longest stall meanwhile (ms). */
export async function stalls(fn: () => Promise<unknown>): Promise<{ ms: number; stall: number }> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const took = await ms(fn);
  h.disable();
  return { ms: took, stall: h.max / 1e6 };
}

/** The baseline: busy work in SLICE_MS slices, each followed by a turn of the loop, for `forMs`. */
export async function slicedWork(forMs: number): Promise<void> {
  const end = performance.now() + forMs;
  while (performance.now() < end) {
    const slice = performance.now() + SLICE_MS;
    while (performance.now() < slice);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
