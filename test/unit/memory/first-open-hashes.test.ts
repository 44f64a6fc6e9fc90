// A folder opened for the first time (a space never opened here, or synced in) has its files hashed a
// batch at a time. Each hash must be its own file's: it is saved, and the next start journals what
// changed on disk meanwhile against it.
import { createHash } from 'node:crypto';
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
