// A file's rename is checked while its journal record syncs (memory/mutations.ts, Change.verify), so a
// refused one has a record in the journal until its cancel line follows. Killed in between (SIGKILL at
// 'after-journal': the record is durable, the refusal known, the cancel not written), the restart must
// redo nothing of it: no file overwritten, moved or removed, nothing beside a link touched, the rename in
// no history. A rename that was allowed, killed at the same point, is completed (the control).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemory } from '../../../memory/index.js';
import { assertDistFresh, worker } from './child-process.js';

let base: string;
beforeAll(() => assertDistFresh());
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Runs one tool command in a child killed at the first 'after-journal' it reaches. */
function killedAfterRecord(dataDir: string, command: object): Promise<NodeJS.Signals | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [worker, 'tool', dataDir, JSON.stringify(command)], {
      stdio: ['ignore', 'ignore', 'ignore'],
      env: { ...process.env, MNEMO_CRASH_AT: 'after-journal', MNEMO_CRASH_AFTER: '0' },
    });
    child.on('exit', (_code, signal) => resolve(signal));
  });
}

async function seed(dataDir: string, files: Record<string, string>): Promise<void> {
  const memory = await createMemory({ dataDir, watch: false });
  for (const [p, content] of Object.entries(files)) await memory.write(p, content, null);
  await memory.close();
}

async function reopen(dataDir: string) {
  const memory = await createMemory({ dataDir, watch: false });
  const files: Record<string, string> = {};
  for (const e of await memory.list())
    if (e.kind === 'file') files[e.path] = (await memory.read(e.path)).content;
  const renames = (await memory.journal()).filter((j) => j.command === 'rename');
  const byTool = await memory.changesBy('toolu');
  await memory.close();
  return { files, renames, byTool };
}

describe('a refused rename killed after its journal record', () => {
  it.each([
    ['a taken destination', '/memories/b.md'],
    ['a destination in a linked folder', '/memories/out/b.md'],
    ['a destination below a file', '/memories/c.md/b.md'],
  ])(
    '%s: recovery redoes nothing',
    async (_what, to) => {
      base = await mkdtemp(path.join(os.tmpdir(), 'mnemo-refused-'));
      const dataDir = path.join(base, 'data');
      const outside = path.join(base, 'outside');
      await mkdir(outside);
      await seed(dataDir, {
        '/memories/a.md': 'source\n',
        '/memories/b.md': 'taken\n',
        '/memories/c.md': 'c\n',
      });
      await symlink(outside, path.join(dataDir, 'memories', 'out'));

      const signal = await killedAfterRecord(dataDir, {
        command: 'rename',
        old_path: '/memories/a.md',
        new_path: to,
      });
      expect(signal).toBe('SIGKILL'); // the record was made: the checks ran while it synced

      const after = await reopen(dataDir);
      expect(after.files).toEqual({
        '/memories/a.md': 'source\n',
        '/memories/b.md': 'taken\n',
        '/memories/c.md': 'c\n',
      });
      expect(after.renames).toEqual([]);
      expect(after.byTool).toEqual([]);
      expect(await readdir(outside)).toEqual([]);
    },
    30_000,
  );

  it('the same kill after an allowed rename: recovery completes it', async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'mnemo-refused-'));
    const dataDir = path.join(base, 'data');
    await seed(dataDir, { '/memories/a.md': 'source\n' });
    const signal = await killedAfterRecord(dataDir, {
      command: 'rename',
      old_path: '/memories/a.md',
      new_path: '/memories/moved.md',
    });
    expect(signal).toBe('SIGKILL');
    const after = await reopen(dataDir);
    expect(after.files).toEqual({ '/memories/moved.md': 'source\n' });
    expect(after.byTool.map((j) => j.command)).toEqual(['rename']);
    expect(await readFile(path.join(dataDir, 'memories', 'moved.md'), 'utf8')).toBe('source\n');
  }, 30_000);
});
