// The forget's intent record: written before anything is erased, holding every name and version of the
// file; listed by pendingForgets until settled; resumeForget finishes the memory part (idempotent); the
// trash and a journal rewrite a crash left are emptied even when another process put them there.
import { readdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemory } from '../../../memory/index.js';
import { type Sandbox, sandbox, user } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(async () => {
  await s.cleanup();
});

const pendingDir = () => path.join(s.dataDir, 'memory-journal', 'forget-pending');

describe('forget intent', () => {
  it('returns every name and version, and stays pending until settled', async () => {
    await s.memory.create('/memories/old.md', 'first version of the file\n', user);
    await s.memory.write('/memories/old.md', 'second version of the file\n', 'any', user);
    await s.memory.rename('/memories/old.md', '/memories/notes/p.md', user);
    const trace = await s.memory.forget('/memories/notes/p.md');
    expect(trace.path).toBe('/memories/notes/p.md');
    expect(new Set(trace.paths)).toEqual(new Set(['/memories/notes/p.md', '/memories/old.md']));
    expect(new Set(trace.versions)).toEqual(
      new Set(['first version of the file\n', 'second version of the file\n']),
    );
    expect(await s.memory.pendingForgets()).toEqual([trace]);
    await s.memory.settleForget(trace.id);
    expect(await s.memory.pendingForgets()).toEqual([]);
    expect(await readdir(pendingDir())).toEqual([]);
  });

  it('resumeForget redoes an unfinished memory part (twice is fine), never a finished one', async () => {
    await s.memory.create('/memories/a.md', 'to be forgotten for good\n', user);
    const trace = await s.memory.forget('/memories/a.md');
    expect(trace.memoryDone).toBe(true);
    // Made after the forget, before the app erased its copies: a later start must leave it alone.
    await s.memory.create('/memories/a.md', 'a new file with the same name\n', user);
    const again = await createMemory({ dataDir: s.dataDir, watch: false });
    try {
      const [pending] = await again.pendingForgets();
      expect(pending).toEqual(trace);
      await again.resumeForget(pending!);
      expect((await again.read('/memories/a.md')).content).toBe('a new file with the same name\n');
      // A crash before the memory part was done: the start redoes it.
      const { memoryDone: _done, ...unfinished } = pending!;
      await again.resumeForget(unfinished);
      await again.resumeForget(unfinished);
      await expect(again.read('/memories/a.md')).rejects.toMatchObject({ code: 'not_found' });
      expect(await again.journal()).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it('drops a temp intent never renamed into place and an unreadable one', async () => {
    await s.memory.create('/memories/a.md', 'x\n', user);
    const trace = await s.memory.forget('/memories/a.md');
    await writeFile(path.join(pendingDir(), `${trace.id}.json.tmp`), '{"half');
    await writeFile(path.join(pendingDir(), '00000000-0000-0000-0000-000000000000.json'), 'not json');
    expect(await s.memory.pendingForgets()).toEqual([trace]);
    expect(await readdir(pendingDir())).toEqual([`${trace.id}.json`]);
  });

  it("empties another process's trash and a journal rewrite a crash left", async () => {
    await s.memory.create('/memories/a.md', 'a secret I regret telling\n', user);
    const other = await createMemory({ dataDir: s.dataDir, watch: false });
    try {
      await other.delete('/memories/a.md', user); // into the trash, by the other instance
    } finally {
      await other.close().catch(() => undefined);
    }
    const trash = path.join(s.dataDir, 'memory-journal', 'trash');
    await writeFile(path.join(trash, 'left-by-another-process'), 'a secret I regret telling\n');
    const leftover = path.join(s.dataDir, 'memory-journal', 'journal.jsonl.rewrite-99999');
    await writeFile(leftover, 'a secret I regret telling\n');
    await s.memory.forget('/memories/a.md');
    expect(await readdir(trash)).toEqual([]);
    expect(
      (await readdir(path.join(s.dataDir, 'memory-journal'))).filter((n) => n.includes('rewrite')),
    ).toEqual([]);
  });
});
