// Crash safety: a child process doing 500 whole-file writes is killed with SIGKILL at random moments, and at
// the named crash points between the journal append, the temp write and the rename. After each crash,
// startup recovery must leave every file a complete old or new version, keep every acknowledged write,
// remove temp leftovers, and leave the journal agreeing with the files.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemory } from '../../../memory/index.js';
import { crashContent } from './process-worker.js';
import { assertDistFresh, worker } from './child-process.js';

interface Run {
  acked: number[];
  signal: NodeJS.Signals | null;
}

/** Start a crash worker; kill it with SIGKILL after `killAfterAcks` acknowledgements (if given). */
function runCrashWorker(
  dataDir: string,
  start: number,
  end: number,
  env: Record<string, string>,
  killAfterAcks?: number,
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [worker, 'crash', dataDir, String(start), String(end)], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...env },
    });
    const acked: number[] = [];
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const l of lines) {
        const m = /^ack (\d+)$/.exec(l);
        if (m) acked.push(Number(m[1]));
      }
      if (killAfterAcks !== undefined && acked.length >= killAfterAcks) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) => resolve({ acked, signal }));
  });
}

/** Recover (open in this process) and check every file and the journal. Returns per-file versions. */
async function verify(
  dataDir: string,
  lastAcked: Map<string, number>,
  mustBe?: { file: string; version: number },
): Promise<void> {
  const memory = await createMemory({ dataDir, watch: false });
  try {
    const names = await readdir(path.join(dataDir, 'memories'));
    expect(names.filter((n) => n.startsWith('.'))).toEqual([]); // temp leftovers removed
    for (const e of await memory.list()) {
      const { content, version } = await memory.read(e.path);
      const m = /^v(\d+)\n/.exec(content);
      expect(m, `${e.path} starts with its version`).not.toBeNull();
      const v = Number(m![1]);
      expect(content, `${e.path} is a complete version`).toBe(crashContent(v));
      expect(v).toBeGreaterThanOrEqual(lastAcked.get(e.path) ?? -1);
      const history = await memory.history(e.path);
      expect(history[0]!.afterHash, `journal agrees with ${e.path}`).toBe(version);
      if (mustBe && mustBe.file === e.path) expect(v).toBe(mustBe.version);
    }
    for (const file of lastAcked.keys()) expect(names).toContain(file.slice('/memories/'.length));
  } finally {
    await memory.close();
  }
}

const fileOf = (i: number) => `/memories/f${i % 10}.md`;
let dataDir: string;
beforeAll(() => {
  assertDistFresh();
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('crash safety', () => {
  it('survives SIGKILL at random moments during 500 writes', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mnemo-crash-'));
    const lastAcked = new Map<string, number>();
    let next = 0;
    let kills = 0;
    while (next < 500) {
      const killAfter = 5 + Math.floor(Math.random() * 60);
      const run = await runCrashWorker(dataDir, next, 500, {}, killAfter);
      for (const i of run.acked) lastAcked.set(fileOf(i), i);
      if (run.signal === 'SIGKILL') kills++;
      next = run.acked.length ? run.acked[run.acked.length - 1]! + 1 : next;
      await verify(dataDir, lastAcked);
    }
    expect(kills).toBeGreaterThan(3);
  }, 300_000);

  it.each(['after-journal', 'after-temp-write', 'after-rename'])(
    'recovers from a crash %s: the journaled write is completed',
    async (point) => {
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'mnemo-crash-'));
      const lastAcked = new Map<string, number>();
      let next = 0;
      for (let round = 0; round < 4; round++) {
        const after = Math.floor(Math.random() * 15);
        const run = await runCrashWorker(dataDir, next, next + 40, {
          MNEMO_CRASH_AT: point,
          MNEMO_CRASH_AFTER: String(after),
        });
        expect(run.signal).toBe('SIGKILL');
        expect(run.acked.length).toBe(after);
        for (const i of run.acked) lastAcked.set(fileOf(i), i);
        const crashed = next + after; // journaled, then killed before it could report success
        await verify(dataDir, lastAcked, { file: fileOf(crashed), version: crashed });
        lastAcked.set(fileOf(crashed), crashed);
        next = crashed + 1;
      }
    },
    180_000,
  );
});
