// Loop benchmark (issue 4, point 8): turns per second against the fake Messages API with no latency. Ours:
// the real agent loop through createCore (events emitted, every finished message written to the
// conversation's JSONL on the real disk at once and synced within CHAT_SYNC_MS, the run's end waiting for the
// sync); baseline in the same run: a bare SDK streaming loop that keeps the history in an array. Each turn is
// one request answered by a tool call, so both loops run the same request/response/tool-result cycle, with
// requests of the same size (checked). The fake runs in its own process, as the real API is remote, so its
// work counts against neither loop. Both loops are warmed up, rounds alternate in ABBA order, and the ratio
// is the median of the per-round ratios (the machine is shared). Target: ours at least 0.9x the bare loop's
// turns per second.
import Anthropic from '@anthropic-ai/sdk';
import type {
  BetaContentBlockParam,
  BetaMessageParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages.js';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunEvent } from '../../shared/channels/chat.js';
import { systemBlocks } from '../../electron/core/agent/request.js';
import { createCore } from '../../electron/core/create-core.js';
import type { HostServices } from '../../electron/core/host.js';
import { text, toolUse } from '../../test/fixtures/fake-anthropic/index.js';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export interface BenchTable {
  title: string;
  rows: Record<string, string | number>[];
}

const TURNS = 60;
// Many short rounds (a round is a tenth of a second): on a shared machine a load spike spoils a round or
// two, not the median. The per-round ratios spread over about ±7% here; 100 rounds put the median within
// about 1% (30 moved it by ±3% between runs).
const ROUNDS = 100;
const MODEL = 'claude-sonnet-5-5';

const host: HostServices = {
  kind: 'test',
  saveFile: async () => ({ saved: false }),
  pickImport: async () => null,
  openExternal: async () => false,
  openFolder: async () => false,
};

/** The fake in its own process (the real API is remote): its own work counts against neither loop. */
interface Fake {
  url: string;
  child: ChildProcess;
}

async function startFake(): Promise<Fake> {
  const main = fileURLToPath(new URL('../../test/fixtures/fake-anthropic/main.js', import.meta.url));
  const child = spawn(process.execPath, [main, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { url: chunk.toString().trim(), child };
}

/** The fake answers every request with a tool call until the last turn, then with text. */
async function script(fake: Fake): Promise<void> {
  await fetch(`${fake.url}/_fake/reset`, { method: 'POST' });
  const replies = [
    ...Array.from({ length: TURNS - 1 }, (_, i) => toolUse({ name: 'lookup', input: { n: i } })),
    text('All done after many turns.'),
  ];
  const res = await fetch(`${fake.url}/_fake/enqueue`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(replies),
  });
  if (!res.ok) throw new Error(`the fake refused the script: ${res.status}`);
}

// Ours answers the unknown tool with this text (electron/core/agent/tools.ts); the bare loop sends the same,
// and the warm-up checks that both send requests of the same size.
const UNKNOWN_TOOL = "Error: there is no tool named 'lookup'. Tools available: none.";

/** `messages` with cache_control on the last block, as our request builder marks it. */
function cached(messages: BetaMessageParam[]): BetaMessageParam[] {
  const last = messages.at(-1)!;
  if (!Array.isArray(last.content)) return messages;
  const content = [...(last.content as BetaContentBlockParam[])];
  content[content.length - 1] = {
    ...content.at(-1)!,
    cache_control: { type: 'ephemeral' },
  } as BetaContentBlockParam;
  return [...messages.slice(0, -1), { ...last, content } as BetaMessageParam];
}

async function bare(fake: Fake): Promise<number> {
  await script(fake);
  const client = new Anthropic({ apiKey: 'bench', baseURL: fake.url });
  const messages: BetaMessageParam[] = [
    { role: 'user', content: [{ type: 'text', text: 'Run the lookups.' }] },
  ];
  const started = performance.now();
  for (let turn = 0; turn < TURNS; turn++) {
    // The same request as ours (system block and the last block marked for the prompt cache), so the
    // fake does the same work for both and the ratio measures the loops, not the bodies.
    const message = await client.beta.messages
      .stream({ model: MODEL, max_tokens: 8_192, system: systemBlocks(false), messages: cached(messages) })
      .finalMessage();
    messages.push({ role: 'assistant', content: message.content as BetaContentBlockParam[] });
    const uses = message.content.filter((b) => b.type === 'tool_use');
    if (uses.length === 0) break;
    messages.push({
      role: 'user',
      content: uses.map((b) => ({
        type: 'tool_result',
        tool_use_id: b.id,
        content: UNKNOWN_TOOL,
        is_error: true,
      })),
    });
  }
  return TURNS / ((performance.now() - started) / 1_000);
}

/**
 * Our loop through one backend made once and warmed up, as in the app (startup work such as the memory
 * search index is not a per-turn cost); each call is a new conversation, appended durably on the real disk.
 */
async function startOurs(
  fake: Fake,
  dataDir: string,
): Promise<{ run(): Promise<number>; close(): Promise<void> }> {
  const core = await createCore({
    dataDir,
    host,
    env: { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: fake.url, HOME: dataDir },
  });
  core.ctx.settings.set({ contextStrategy: 'off', maxTurns: TURNS + 5 });
  await core.ctx.memorySearch.warm().catch(() => undefined);
  const waiting = new Map<string, () => void>();
  core.bus.subscribe((name, payload) => {
    const e = payload as RunEvent;
    if (name === 'chat.event' && e.type === 'run.finished') waiting.get(e.runId)?.();
  });
  return {
    async run() {
      await script(fake);
      let done!: () => void;
      const finished = new Promise<void>((resolve) => (done = resolve));
      const started = performance.now();
      const { runId } = await core.handlers['chat.send'](
        { text: 'Run the lookups.', memory: false },
        { clientId: 'bench' },
      );
      // run.finished cannot come before send returns: the run starts on a later tick.
      waiting.set(runId, done);
      await finished;
      waiting.delete(runId);
      return TURNS / ((performance.now() - started) / 1_000);
    },
    close: () => core.close(),
  };
}

/** Size of the last Messages request the fake received since its last reset. */
async function lastRequestSize(fake: Fake): Promise<number> {
  const { requests } = (await (await fetch(`${fake.url}/_fake/requests`)).json()) as {
    requests: { path: string; body: unknown }[];
  };
  return JSON.stringify(requests.filter((r) => r.path.endsWith('/messages')).at(-1)?.body).length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(): Promise<BenchTable> {
  const fake = await startFake();
  // The real disk (not a tmpfs): durability has its real cost here.
  const dataDir = await mkdtemp(path.join('/var/tmp', 'mnemo-bench-loop-'));
  const ours = await startOurs(fake, dataDir);
  try {
    // Warm-up of both (JIT, sockets, first file in the data dir), then rounds in alternating order (ABBA),
    // so a load spike from other processes hits both loops alike; the ratio is the median of the rounds'.
    await bare(fake);
    const bareSize = await lastRequestSize(fake);
    await ours.run();
    const ourSize = await lastRequestSize(fake);
    // The fake's work grows with the body it parses, on the same two cores: a loop that sent more bytes
    // would be slower for that alone, so loops that send different requests are not compared.
    if (bareSize !== ourSize)
      throw new Error(`The loops sent requests of different sizes (${bareSize} vs ${ourSize} bytes).`);
    const bareRates: number[] = [];
    const ourRates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        bareRates.push(await bare(fake));
        ourRates.push(await ours.run());
      } else {
        ourRates.push(await ours.run());
        bareRates.push(await bare(fake));
      }
    }
    const b = median(bareRates);
    const o = median(ourRates);
    // Rounds alternate, so each ratio compares runs made under the same machine load.
    const ratios = ourRates.map((rate, i) => rate / bareRates[i]!).sort((x, y) => x - y);
    const ratio = median(ratios);
    const quartiles = `${ratios[Math.floor(ROUNDS / 4)]!.toFixed(2)}–${ratios[Math.floor((3 * ROUNDS) / 4)]!.toFixed(2)}`;
    return {
      title: `Agent loop turns per second vs a bare SDK streaming loop (fake API, no latency, ${TURNS} turns)`,
      rows: [
        { loop: 'bare SDK stream', 'turns/s': Number(b.toFixed(1)), ratio: 1 },
        {
          loop: 'ours (events + JSONL, synced)',
          'turns/s': Number(o.toFixed(1)),
          ratio: Number(ratio.toFixed(2)),
        },
        { loop: `ratio of ${ROUNDS} rounds, middle half`, 'turns/s': '', ratio: quartiles },
        { loop: 'target', 'turns/s': '', ratio: `>= 0.9 ${ratio >= 0.9 ? 'ok' : 'MISSED'}` },
      ],
    };
  } finally {
    await ours.close();
    fake.child.kill();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const table = await run();
  console.log(table.title);
  console.table(table.rows);
}
