// A file's rename makes its checks while its journal record syncs (memory/mutations.ts, Change.verify):
// a refusal must still answer as before, change no file and leave no trace of the rename in the journal
// (its record is withdrawn), here and after a restart.
import { mkdir, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, type Memory } from '../../../memory/index.js';
import { agent, sandbox, snapshotOutside, type Sandbox } from './helpers.js';

let s: Sandbox | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});

const cases: { name: string; to: string; plant?: (s: Sandbox) => Promise<void>; message: RegExp }[] = [
  { name: 'a taken file', to: '/memories/b.md', message: /The destination \/memories\/b\.md already exists/ },
  { name: 'a taken folder', to: '/memories/d', message: /The destination \/memories\/d already exists/ },
  { name: 'a destination below a file', to: '/memories/b.md/x.md', message: /b\.md is a file/ },
  {
    name: 'a destination in a linked folder',
    to: '/memories/out/x.md',
    plant: (s) => symlink(s.outside, path.join(s.dataDir, 'memories', 'out')),
    message: /\/memories\/out is a symbolic link/,
  },
  {
    name: 'a destination below a linked folder',
    to: '/memories/d/out/x.md',
    plant: async (s) => {
      await mkdir(path.join(s.dataDir, 'memories', 'd'), { recursive: true });
      await symlink(s.outside, path.join(s.dataDir, 'memories', 'd', 'out'));
    },
    message: /\/memories\/d\/out is a symbolic link/,
  },
];

describe('a refused file rename', () => {
  it.each(cases)('$name: refused as before, nothing changed, nothing journaled', async (c) => {
    s = await sandbox();
    await s.memory.create('/memories/a.md', 'source\n');
    await s.memory.create('/memories/b.md', 'taken\n');
    await s.memory.create('/memories/d/c.md', 'c\n');
    await c.plant?.(s);
    const outside = await snapshotOutside(s.base);
    const before = await s.memory.journal();

    const r = await s.memory.tool.execute(
      { command: 'rename', old_path: '/memories/a.md', new_path: c.to },
      agent,
    );
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(c.message);
    expect(r.content).not.toContain(s.base);

    const files = async (m: Memory) =>
      Object.fromEntries(
        await Promise.all(
          (await m.list())
            .filter((e) => e.kind === 'file')
            .map(async (e) => [e.path, (await m.read(e.path)).content]),
        ),
      );
    const expected = { '/memories/a.md': 'source\n', '/memories/b.md': 'taken\n', '/memories/d/c.md': 'c\n' };
    expect(await files(s.memory)).toEqual(expected);
    expect(await s.memory.journal()).toEqual(before);
    expect(await s.memory.changesBy('toolu_1')).toEqual([]);
    expect(await snapshotOutside(s.base)).toEqual(outside);

    await s.memory.close();
    const again = await createMemory({ dataDir: s.dataDir, watch: false });
    s.memory = again;
    expect(await files(again)).toEqual(expected);
    expect((await again.journal()).filter((j) => j.command === 'rename')).toEqual([]);
  });
});
