// A folder opened for the first time (a space never opened here, or synced in) has its files hashed a
// batch at a time. Each hash must be its own file's: it is saved, and the next start journals what
// changed on disk meanwhile against it.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createMemory } from '../../../memory/index.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
let base: string | undefined;
afterEach(async () => {
  if (base) await rm(base, { recursive: true, force: true });
  base = undefined;
});

it('hashes every file of a first open as its own, so the next start journals an edit against it', async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'mnemo-first-open-'));
  const dataDir = path.join(base, 'data');
  const text = (i: number) => `note ${i}\n${'x'.repeat(i)}\n`;
  for (let i = 0; i < 150; i++) {
    const dir = path.join(dataDir, 'memories', `d${i % 7}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `f${i}.md`), text(i));
  }
  const first = await createMemory({ dataDir, watch: false });
  await first.close();

  const edited = [3, 77, 149];
  for (const i of edited)
    await writeFile(path.join(dataDir, 'memories', `d${i % 7}`, `f${i}.md`), 'changed\n');
  const second = await createMemory({ dataDir, watch: false });
  try {
    const external = (await second.journal()).filter((e) => e.actor === 'external');
    expect(external.map((e) => e.path).sort()).toEqual(
      edited.map((i) => `/memories/d${i % 7}/f${i}.md`).sort(),
    );
    for (const i of edited) {
      const entry = external.find((e) => e.path === `/memories/d${i % 7}/f${i}.md`)!;
      expect(entry.beforeHash).toBe(sha(text(i)));
      expect(entry.afterHash).toBe(sha('changed\n'));
    }
  } finally {
    await second.close();
  }
});

// With an idle queue (MemoryOptions.idle, what a space's open passes), the first open leaves the hashing
// to the queue. Whichever comes first computes them: the queue, a change, or the close. Each way the
// next start journals exactly the files edited meanwhile, against their right old content.
const ways: [
  string,
  (m: Awaited<ReturnType<typeof createMemory>>, jobs: (() => Promise<unknown>)[]) => Promise<void>,
][] = [
  ['the idle queue runs', async (_m, jobs) => void (await Promise.all(jobs.map((j) => j())))],
  ['the store closes first', async () => undefined],
  [
    'a change comes first (a folder renamed: journaled with each file’s hash)',
    async (m) => {
      await m.rename('/memories/d1', '/memories/e1', { kind: 'user' });
      await m.rename('/memories/e1', '/memories/d1', { kind: 'user' });
    },
  ],
];

it.each(ways)("defers a first open's hashing to the idle queue; then %s", async (_name, then) => {
  base = await mkdtemp(path.join(os.tmpdir(), 'mnemo-first-open-'));
  const dataDir = path.join(base, 'data');
  const text = (i: number) => `note ${i}\n${'y'.repeat(i)}\n`;
  for (let i = 0; i < 60; i++) {
    const dir = path.join(dataDir, 'memories', `d${i % 5}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, `f${i}.md`), text(i));
  }
  const jobs: (() => Promise<unknown>)[] = [];
  const first = await createMemory({ dataDir, watch: false, idle: (job) => void jobs.push(job) });
  // The open saved no state (that would have hashed every file); the queue has the job that will.
  expect(existsSync(path.join(dataDir, 'memory-journal', 'state.json'))).toBe(false);
  expect(jobs).toHaveLength(1);
  await then(first, jobs);
  for (const e of await first.journal()) {
    const i = Number(/f(\d+)\.md$/.exec(e.path)![1]);
    expect(e.beforeHash, e.path).toBe(sha(text(i)));
  }
  await first.close();
  await Promise.all(jobs.map((j) => j())); // a job left over after the close does nothing
  expect(existsSync(path.join(dataDir, 'memory-journal', 'state.json'))).toBe(true);

  const edited = [7, 33, 59];
  for (const i of edited)
    await writeFile(path.join(dataDir, 'memories', `d${i % 5}`, `f${i}.md`), 'changed\n');
  const second = await createMemory({ dataDir, watch: false, idle: (job) => void jobs.push(job) });
  try {
    const external = (await second.journal()).filter((e) => e.actor === 'external');
    expect(external.map((e) => e.path).sort()).toEqual(
      edited.map((i) => `/memories/d${i % 5}/f${i}.md`).sort(),
    );
    for (const i of edited) {
      const entry = external.find((e) => e.path === `/memories/d${i % 5}/f${i}.md`)!;
      expect(entry.beforeHash).toBe(sha(text(i)));
    }
  } finally {
    await second.close();
  }
});
