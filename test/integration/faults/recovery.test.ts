// Startup recovery after a SIGKILL must not redo a change that a later, applied change superseded: a file
// created and then renamed away looks like a create that never happened, and redoing it brought the source
// of an acknowledged rename back (found by the fault suite). The child runs from dist/.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory } from '../../../memory/index.js';

const root = path.resolve(import.meta.dirname, '../../..');
let dataDir: string;
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Runs the memory API's calls in a child, which is killed with SIGKILL once it printed "acked". */
function killedAfter(script: string): Promise<void> {
  const code = `
    const { createMemory } = await import(${JSON.stringify(path.join(root, 'dist/memory/index.js'))});
    const memory = await createMemory({ dataDir: process.argv[1], watch: false });
    ${script}
    process.stdout.write('acked\\n');
    setInterval(() => {}, 1000);`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code, dataDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('acked')) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`the child ended by itself (${_code})`)),
    );
  });
}

describe('recovery after a kill', () => {
  const cases = [
    {
      name: 'create, then rename: only the new name',
      script: `await memory.create('/memories/a.md', 'A\\n'); await memory.rename('/memories/a.md', '/memories/b.md');`,
      expected: { '/memories/b.md': 'A\n' },
    },
    {
      name: 'create, then delete: nothing',
      script: `await memory.create('/memories/a.md', 'A\\n'); await memory.delete('/memories/a.md');`,
      expected: {},
    },
    {
      name: 'create, rename, create the old name again: both',
      script: `await memory.create('/memories/a.md', 'A\\n'); await memory.rename('/memories/a.md', '/memories/b.md');
               await memory.create('/memories/a.md', 'A2\\n');`,
      expected: { '/memories/a.md': 'A2\n', '/memories/b.md': 'A\n' },
    },
    {
      name: 'write, rename, write the new name: the last content',
      script: `await memory.create('/memories/a.md', 'A\\n'); await memory.rename('/memories/a.md', '/memories/b.md');
               await memory.write('/memories/b.md', 'B\\n', 'any');`,
      expected: { '/memories/b.md': 'B\n' },
    },
  ];
  for (const c of cases) {
    it(`keeps what was acknowledged: ${c.name}`, async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-recovery-'));
      await killedAfter(c.script);
      const memory = await createMemory({ dataDir, watch: false });
      try {
        const files: Record<string, string> = {};
        for (const e of await memory.list())
          if (e.kind === 'file') files[e.path] = (await memory.read(e.path)).content;
        expect(files).toEqual(c.expected);
        for (const p of Object.keys(files))
          expect((await memory.history(p))[0]!.afterHash).toBe((await memory.read(p)).version);
      } finally {
        await memory.close();
      }
    });
  }
});
