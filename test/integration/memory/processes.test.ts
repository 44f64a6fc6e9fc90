// Two real processes (the desktop app and a CLI run, say) on one data folder: their writes serialize
// through the data folder's lock and the journal, and nothing is lost.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory } from '../../../memory/index.js';
import { assertDistFresh, worker } from './child-process.js';

function runWorker(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [worker, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

let dataDir: string;
beforeAll(async () => {
  assertDistFresh();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'mnemo-procs-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('two processes on one data folder', () => {
  it('serialize their writes and lose nothing', async () => {
    const setup = await createMemory({ dataDir, watch: false });
    await setup.create('/memories/shared.md', 'start');
    await setup.close();
    const count = 60;
    const [a, b] = await Promise.all([
      runWorker(['shared', dataDir, 'A', String(count)]),
      runWorker(['shared', dataDir, 'B', String(count)]),
    ]);
    expect(a).toEqual({ code: 0, stderr: '' });
    expect(b).toEqual({ code: 0, stderr: '' });

    const memory = await createMemory({ dataDir, watch: false });
    const shared = (await memory.read('/memories/shared.md')).content.split('\n');
    expect(shared.length).toBe(2 * count + 1);
    for (const id of ['A', 'B']) {
      const mine = shared.filter((l) => l.startsWith(`p${id}-`));
      // each process's lines are all there, in its own order (each inserted at the top)
      expect(mine).toEqual(Array.from({ length: count }, (_, i) => `p${id}-${count - 1 - i}`));
      for (let i = 0; i < count; i++)
        expect((await memory.read(`/memories/p${id}/n${i}.md`)).content).toBe(`${id}:${i}`);
    }
    const history = await memory.history('/memories/shared.md');
    expect(history.length).toBe(2 * count + 1);
    expect(history[0]!.afterHash).toBe((await memory.read('/memories/shared.md')).version);
    // every change's "before" is the previous change's "after": no two processes edited the same version
    const chain = [...history].reverse();
    for (let i = 1; i < chain.length; i++) expect(chain[i]!.beforeHash).toBe(chain[i - 1]!.afterHash);
    expect(new Set(history.map((h) => h.conversationId))).toEqual(new Set([undefined, 'proc-A', 'proc-B']));
    await memory.close();
  }, 180_000);
});
