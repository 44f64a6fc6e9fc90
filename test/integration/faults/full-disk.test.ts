// A full disk at every byte offset of a memory write (the fs fault layer of test/faults, over node:fs in
// a child process): each write is refused with a clear message, and after a SIGKILL the restart holds
// what was saved before: no refused change redone, no half line left in the middle of the journal, a
// history whose every entry can still be shown. Then the same with a CLI-sized burst of writes.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory } from '../../../memory/index.js';

const root = path.resolve(import.meta.dirname, '../../..');
let dataDir: string;
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

// Coarse steps through a whole write, then every byte around the size of the temp file plus the journal
// record: a disk that fills exactly there refuses the temp file's fsync after the journal accepted the
// change, and then the journal's own cancel line too.
const BUDGETS = [
  ...Array.from({ length: 20 }, (_, i) => i * 250),
  ...Array.from({ length: 300 }, (_, i) => 6250 + i),
];
const saved = (b: number) => `saved ${b}\n`;
const refused = (b: number, i: number) => `refused ${b}-${i} ${'x'.repeat(2000)}\n`;

/** Runs the writes in a child with a full disk, and kills it with SIGKILL once it is done. */
function fillAndKill(): Promise<string[]> {
  const code = `
    const { createMemory } = await import(${JSON.stringify(path.join(root, 'dist/memory/index.js'))});
    const memory = await createMemory({ dataDir: process.argv[1], watch: false });
    const disk = globalThis.__mnemoFsFaults;
    for (const b of ${JSON.stringify(BUDGETS)}) {
      disk.disarm();
      await memory.write('/memories/f' + b + '.md', 'saved ' + b + '\\n', 'any');
      disk.arm(b);
      for (let i = 0; i < 3; i++) {
        const text = 'refused ' + b + '-' + i + ' ' + 'x'.repeat(2000) + '\\n';
        await memory.write('/memories/f' + b + '.md', text, 'any').then(
          () => process.stdout.write('accepted ' + b + '-' + i + '\\n'),
          (e) => process.stdout.write('refusal ' + e.message + '\\n'),
        );
      }
    }
    disk.disarm();
    process.stdout.write('done\\n');
    setInterval(() => {}, 1000);`;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        path.join(root, 'dist/test/faults/fs-faults.js'),
        '--input-type=module',
        '-e',
        code,
        dataDir,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, MNEMO_FAULT_DIR: dataDir } },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('done\n')) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL'
        ? resolve(out.trim().split('\n'))
        : reject(new Error(`the child ended (${code}): ${out}`)),
    );
  });
}

describe('a full disk during memory writes', () => {
  it('refuses each write clearly and keeps what was saved, across a kill', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-full-'));
    const lines = await fillAndKill();
    const accepted = new Set(lines.filter((l) => l.startsWith('accepted ')).map((l) => l.slice(9)));
    for (const l of lines.filter((l) => l.startsWith('refusal ')))
      expect(l).toMatch(/^refusal The disk is full; nothing was changed\.$/);

    // Every journal line is whole (a short write must not leave half a line for the next one to glue to).
    const journal = await readFile(path.join(dataDir, 'memory-journal/journal.jsonl'), 'utf8');
    for (const line of journal.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();

    const memory = await createMemory({ dataDir, watch: false });
    try {
      for (const b of BUDGETS) {
        const p = `/memories/f${b}.md`;
        const last = [2, 1, 0].find((i) => accepted.has(`${b}-${i}`));
        const { content, version } = await memory.read(p);
        expect(content, `${p} after a full disk and a kill`).toBe(
          last === undefined ? saved(b) : refused(b, last),
        );
        const history = await memory.history(p);
        expect(history[0]!.afterHash).toBe(version);
        for (const entry of history) await memory.diff(entry.id);
      }
    } finally {
      await memory.close();
    }
  }, 120_000);
});
