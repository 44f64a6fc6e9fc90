// The fault suite's driver: round after round, a worker process runs the real backend on one data folder
// and is killed with SIGKILL at a random moment (right at a tool call, a saved message or an intent, or
// after a random delay); every fourth round fills the disk first. Each restart reports what it found, which
// is checked against what the killed processes acknowledged (invariants.ts). Runs from dist/.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Expectations } from './invariants.js';
import { parseLine, type Line } from './protocol.js';
import { rng } from './workload.js';

// The workers always run from dist/, whether this file runs from there or from source (vitest): the worker
// bundled (rolldown.config.ts), as the faces are, so that each restart reads one file rather than some
// eight hundred modules; the fs layer stays tsc's output, loaded before it.
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, here.split(path.sep).includes('dist') ? '../../..' : '../..');
const WORKER = path.join(root, 'dist/test/faults/bundled/worker.js');
const FS_FAULTS = path.join(root, 'dist/test/faults/fs-faults.js');
/** A worker that prints nothing for this long hangs (its own waits give up after WAIT_MS, 45 s). */
const SILENT_MS = 90_000;

export interface FaultRunOptions {
  kills: number;
  seed: number;
  /** Every how many rounds the disk fills up (0: never). */
  diskEvery?: number;
  log?: (line: string) => void;
}

export interface FaultRunResult {
  kills: number;
  expectations: Expectations;
  /** createCore plus the conversation list, measured in the restarted process. */
  slowestRestartMs: number;
  /** From the process's start (module loading included) to ready. */
  slowestStartMs: number;
  /** From spawning the process to its ready line, as the parent saw it. */
  slowestSpawnMs: number;
  /** The data folder, and next to it `<dataDir>.log`: every line the workers printed. */
  dataDir: string;
  summary: string;
}

interface RoundPlan {
  /** Kill at the n-th mark or intent line after go, or after delayMs. */
  atLine?: number;
  delayMs: number;
  diskBytes?: number;
}

function plan(seed: number, disk: boolean): RoundPlan {
  const r = rng(seed);
  if (disk)
    return {
      atLine: 2 + Math.floor(r() * 10),
      delayMs: Math.floor(r() * 5),
      diskBytes: Math.floor(r() ** 2 * 96_000),
    };
  if (r() < 0.5) return { atLine: 1 + Math.floor(r() * 14), delayMs: Math.floor(r() * 6) };
  return { delayMs: 10 + Math.floor(r() * 500) };
}

interface RoundResult {
  killed: boolean;
  readyMs?: number;
  spawnMs?: number;
  sinceStart?: number;
  /** The longest a conversation stayed locked by the killed process. */
  busyMs?: number;
}

/** One worker on dataDir: feeds its lines to `expect`, kills it as planned (or once checked, if `verifyOnly`). */
function round(
  dataDir: string,
  seed: number,
  name: string,
  expect: Expectations,
  p: RoundPlan,
  verifyOnly: boolean,
): Promise<RoundResult> {
  const args = [...(p.diskBytes !== undefined ? ['--import', FS_FAULTS] : []), WORKER, dataDir, String(seed)];
  const env = { ...process.env, MNEMO_FAULT_DIR: dataDir } as NodeJS.ProcessEnv;
  for (const v of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'MNEMO_DATA_DIR', 'MNEMO_DEBUG']) delete env[v];
  if (p.diskBytes !== undefined) env.MNEMO_FAULTS_DISK = String(p.diskBytes);
  const spawned = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  const result: RoundResult = { killed: false };
  let stderr = '';
  let buf = '';
  let counting = false;
  let lines = 0;
  const kill = (): void => {
    if (!result.killed && child.exitCode === null) {
      result.killed = child.kill('SIGKILL');
    }
  };
  const killSoon = (): void => void setTimeout(kill, p.delayMs);
  let watchdog: NodeJS.Timeout | undefined;
  const watch = (): void => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      expect.record('hang', `${name}: the worker printed nothing for ${SILENT_MS / 1000} s`);
      kill();
    }, SILENT_MS);
  };
  watch();
  const onLine = (line: Line): void => {
    expect.line(line, name);
    if (line.t === 'ready') {
      result.readyMs = line.ms;
      result.spawnMs = Math.round(performance.now() - spawned);
      result.sinceStart = line.sinceStart;
    } else if (line.t === 'state') expect.state(line, name);
    else if (line.t === 'check') {
      result.busyMs = Math.max(result.busyMs ?? 0, line.busyMs);
      if (!line.ok) expect.bricked(line.conversationId, line.detail ?? '', name);
    } else if (line.t === 'checked' && verifyOnly) kill();
    else if (line.t === 'go') {
      if (p.diskBytes !== undefined) return; // counting starts once the disk is free again
      if (p.atLine === undefined) killSoon();
      else counting = true;
    } else if (line.t === 'disk' && !line.full) counting = true;
    else if (counting && (line.t === 'mark' || line.t === 'intent') && ++lines === p.atLine) killSoon();
  };
  child.stdout.on('data', (d: Buffer) => {
    watch();
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    appendFileSync(`${dataDir}.log`, parts.map((t) => `${name}: ${t}\n`).join(''));
    for (const text of parts) {
      const line = parseLine(text);
      if (line) onLine(line);
    }
  });
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      clearTimeout(watchdog);
      if (signal !== 'SIGKILL' || !result.killed)
        expect.record(
          'crash',
          `${name}: the process ended by itself (code ${code}, ${signal}): ${stderr.trim().slice(-1500)}`,
        );
      resolve(result);
    });
  });
}

const SLOW_MS = 2_000;

/** The locks a killed process left: each lock folder, its age and its owner record. */
function locksLeft(dataDir: string): string {
  const out: string[] = [];
  const describe = (dir: string, record: string): void => {
    try {
      const age = Date.now() - statSync(dir).mtimeMs;
      let owner = '(none)';
      try {
        owner = JSON.stringify(readFileSync(record, 'utf8'));
      } catch {
        // no record
      }
      out.push(`${path.relative(dataDir, dir)} age ${Math.round(age)} ms owner ${owner}`);
    } catch {
      // no such lock
    }
  };
  describe(path.join(dataDir, 'memory-journal', 'lock'), path.join(dataDir, 'memory-journal', 'lock.pid'));
  const convs = path.join(dataDir, 'conversations');
  for (const name of existsSync(convs) ? readdirSync(convs) : [])
    if (name.endsWith('.lock')) describe(path.join(convs, name), path.join(convs, name, 'pid'));
  return out.length > 0 ? out.join('; ') : 'none';
}

export async function runFaults(options: FaultRunOptions): Promise<FaultRunResult> {
  if (!existsSync(WORKER))
    throw new Error('dist/test/faults/bundled/worker.js is missing: run `npm run build` first.');
  const log = options.log ?? (() => undefined);
  const diskEvery = options.diskEvery ?? 4;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-faults-'));
  const expectations = new Expectations([dataDir, tmpdir()]);
  let kills = 0;
  let slowestRestartMs = 0;
  let slowestSpawnMs = 0;
  let slowestStartMs = 0;
  let slowestUnlockMs = 0;
  const logged = new Set<string>();
  for (let i = 0; i <= options.kills; i++) {
    const seed = (Math.imul(options.seed, 1_000_003) + i) >>> 0;
    const verifyOnly = i === options.kills;
    const disk = !verifyOnly && diskEvery > 0 && i % diskEvery === diskEvery - 1;
    const name = `round ${i} (seed ${seed}${disk ? ', disk full' : ''})`;
    const before = expectations.violations.length;
    const locks = i > 0 ? locksLeft(dataDir) : '';
    const r = await round(dataDir, seed, name, expectations, plan(seed, disk), verifyOnly);
    // A slow restart or a conversation kept busy: what the killed process left, for whoever looks into it.
    if ((r.sinceStart ?? 0) > SLOW_MS || (r.busyMs ?? 0) > SLOW_MS)
      log(
        `slow: ${name}: ready after ${r.sinceStart ?? '?'} ms, busy ${r.busyMs ?? 0} ms; locks left: ${locks}`,
      );
    if (r.killed && !verifyOnly) kills++;
    // The first start creates the data folder; every later one is a restart after a kill.
    if (i > 0 && r.readyMs !== undefined) slowestRestartMs = Math.max(slowestRestartMs, r.readyMs);
    if (i > 0 && r.spawnMs !== undefined) slowestSpawnMs = Math.max(slowestSpawnMs, r.spawnMs);
    if (i > 0 && r.sinceStart !== undefined) slowestStartMs = Math.max(slowestStartMs, r.sinceStart);
    slowestUnlockMs = Math.max(slowestUnlockMs, r.busyMs ?? 0);
    for (const v of expectations.violations.slice(before)) {
      // A bricked conversation stays bricked: say so once.
      const key = v.kind === 'bricked' ? (/conversation (\S+):/.exec(v.detail)?.[1] ?? v.detail) : v.detail;
      if (!logged.has(key)) log(`${v.kind}: ${v.detail}`);
      logged.add(key);
    }
  }
  const bricked = new Set(
    expectations.violations
      .filter((v) => v.kind === 'bricked')
      .map((v) => /conversation (\S+):/.exec(v.detail)?.[1]),
  ).size;
  const summary = [
    `${kills} kills, ${bricked} bricked conversations, ${expectations.count('torn')} torn files, ${expectations.count('lost')} lost acknowledged writes`,
    `slowest restart: ${slowestStartMs} ms from the process's start to ready (createCore + conversation list: ${slowestRestartMs} ms; ${slowestSpawnMs} ms from spawn); a conversation stayed locked by the killed process for ${slowestUnlockMs} ms at most`,
    `${expectations.count('crash')} crashes, ${expectations.count('hang')} hangs, ${expectations.count('unclear')} unclear messages (seed ${options.seed})`,
  ].join('\n');
  return { kills, expectations, slowestRestartMs, slowestStartMs, slowestSpawnMs, dataDir, summary };
}

export async function removeDataDir(result: FaultRunResult): Promise<void> {
  await rm(result.dataDir, { recursive: true, force: true });
  rmSync(`${result.dataDir}.log`, { force: true });
}
