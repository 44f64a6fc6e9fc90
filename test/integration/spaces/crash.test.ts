// Every registry change survives a crash at any of its steps: a child process is killed with SIGKILL at
// each named crash point, and a fresh registry then sees the old state or the new one, never a half-made
// space; every listed space is complete; the lock the dead child held does not block the next change,
// which also removes what the crash left behind.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSONAL_ID, SpaceRegistry, spaceDir, type Space } from '../../../electron/core/spaces/index.js';

const root = path.resolve(import.meta.dirname, '../../..');
const worker = path.join(root, 'dist/test/integration/spaces/crash-worker.js');

function run(
  dataDir: string,
  args: string[],
  crashAt: string,
): Promise<{ signal: NodeJS.Signals | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [worker, dataDir, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, MNEMO_CRASH_AT: crashAt },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (_code, signal) => resolve({ signal, out }));
  });
}

interface Case {
  point: string;
  /** What the child does (given the id of a prepared space "Work"). */
  args: (id: string) => string[];
  /** The names listed after the crash: before (the change did not happen) or after (it did). */
  expect: 'before' | 'after';
  names: { before: string[]; after: string[] };
  trashedAfter?: number;
  prepareDelete?: boolean;
}

const cases: Case[] = [
  {
    point: 'space-create-before-rename',
    args: () => ['create', 'Home'],
    expect: 'before',
    names: { before: ['Personal', 'Work'], after: ['Personal', 'Work', 'Home'] },
  },
  {
    point: 'space-create-after-rename',
    args: () => ['create', 'Home'],
    expect: 'after',
    names: { before: ['Personal', 'Work'], after: ['Personal', 'Work', 'Home'] },
  },
  {
    point: 'space-json-before-rename',
    args: (id) => ['rename', id, 'Job'],
    expect: 'before',
    names: { before: ['Personal', 'Work'], after: ['Personal', 'Job'] },
  },
  {
    point: 'space-json-after-rename',
    args: (id) => ['rename', id, 'Job'],
    expect: 'after',
    names: { before: ['Personal', 'Work'], after: ['Personal', 'Job'] },
  },
  {
    point: 'space-json-before-rename',
    args: () => ['rename', PERSONAL_ID, 'Home'],
    expect: 'before',
    names: { before: ['Personal', 'Work'], after: ['Home', 'Work'] },
  },
  {
    point: 'space-json-after-rename',
    args: () => ['rename', PERSONAL_ID, 'Home'],
    expect: 'after',
    names: { before: ['Personal', 'Work'], after: ['Home', 'Work'] },
  },
  {
    point: 'space-delete-after-rename',
    args: (id) => ['delete', id],
    expect: 'after',
    names: { before: ['Personal', 'Work'], after: ['Personal'] },
    trashedAfter: 1,
  },
  {
    point: 'space-restore-after-rename',
    args: (id) => ['restore', id],
    expect: 'after',
    names: { before: ['Personal'], after: ['Personal', 'Work'] },
    trashedAfter: 0,
    prepareDelete: true,
  },
  {
    point: 'space-trash-after-rename',
    args: () => ['empty'],
    expect: 'after',
    names: { before: ['Personal'], after: ['Personal'] },
    trashedAfter: 0,
    prepareDelete: true,
  },
];

const dirs: string[] = [];
beforeAll(() => {
  if (!existsSync(worker))
    throw new Error('dist/ lacks the spaces crash worker: run `npx tsc -b tsconfig.node.json` first.');
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function complete(dataDir: string, space: Space): void {
  const folder = spaceDir(dataDir, space.id);
  if (space.id === PERSONAL_ID) return;
  // Names starting with "." are never read: temp files a crash left, swept by the next change.
  expect(
    readdirSync(folder)
      .filter((n) => !n.startsWith('.'))
      .sort(),
  ).toEqual(['conversations', 'memories', 'memory-journal', 'space.json']);
}

describe('space registry crash safety', () => {
  it(
    'after a SIGKILL at every crash point, the change happened whole or not at all',
    { timeout: 60_000 },
    async () => {
      // Prepared in this process; the children run at once, in parallel (each on its own folder).
      const prepared = await Promise.all(
        cases.map(async (c) => {
          const dataDir = mkdtempSync(path.join(tmpdir(), 'mnemo-space-crash-'));
          dirs.push(dataDir);
          const registry = new SpaceRegistry(dataDir);
          const work = await registry.create({ name: 'Work' });
          if (c.prepareDelete) await registry.delete(work.id);
          await registry.close();
          return { c, dataDir, id: work.id };
        }),
      );
      const runs = await Promise.all(prepared.map((p) => run(p.dataDir, p.c.args(p.id), p.c.point)));
      for (const [i, p] of prepared.entries()) {
        const label = `${p.c.point} ${p.c.args(p.id)[0]}`;
        expect(runs[i]!.signal, label).toBe('SIGKILL');
        expect(runs[i]!.out, label).toBe('');
        const registry = new SpaceRegistry(p.dataDir);
        const spaces = await registry.list();
        expect(
          spaces.map((s) => s.name),
          label,
        ).toEqual(p.c.names[p.c.expect]);
        for (const s of spaces) complete(p.dataDir, s);
        if (p.c.trashedAfter !== undefined)
          expect((await registry.trashed()).length, label).toBe(p.c.trashedAfter);
        // The dead child's lock is cleared at once; the next change works and sweeps the leftovers.
        await registry.create({ name: 'After' });
        await registry.emptyTrash(0, Date.now() + 1);
        const leftovers = (d: string) =>
          existsSync(d) ? readdirSync(d).filter((n) => n.startsWith('.tmp-') || n.startsWith('.gone-')) : [];
        expect(leftovers(path.join(p.dataDir, 'spaces')), label).toEqual([]);
        expect(leftovers(p.dataDir), label).toEqual([]);
        for (const s of await registry.list())
          expect(leftovers(spaceDir(p.dataDir, s.id)), label).toEqual([]);
        expect(leftovers(path.join(p.dataDir, 'spaces', '.trash')), label).toEqual([]);
        await registry.close();
      }
    },
  );
});
