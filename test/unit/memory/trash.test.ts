// Deletes go through the trash: out of the memory folder at once (a rename), off the disk after the next
// checkpoint, at close, at the next start after a crash, and at once when the user forgets the file.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemory } from '../../../memory/index.js';
import { agent, sandbox, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(async () => {
  await s.cleanup();
});

const trashDir = () => path.join(s.dataDir, 'memory-journal', 'trash');
const inTrash = () => readdir(trashDir());
const inRoot = (...segments: string[]) => readdir(path.join(s.dataDir, 'memories', ...segments));

async function create(p: string, text = 'content\n'): Promise<void> {
  const r = await s.memory.tool.execute({ command: 'create', path: p, file_text: text }, agent);
  expect(r.isError).toBe(false);
}

async function del(p: string): Promise<void> {
  const r = await s.memory.tool.execute({ command: 'delete', path: p }, agent);
  expect(r.isError).toBe(false);
}

describe('the trash', () => {
  it('takes a deleted file and folder out of the memory folder at once, and frees them at close', async () => {
    await create('/memories/a.md');
    await create('/memories/notes/b.md');
    await create('/memories/notes/c.md');
    await del('/memories/a.md');
    await del('/memories/notes');
    expect(await inRoot()).toEqual([]);
    expect(await inTrash()).toHaveLength(2);
    const view = await s.memory.tool.execute({ command: 'view', path: '/memories' }, agent);
    expect(view.content).not.toContain('a.md');
    await s.memory.close();
    expect(await inTrash()).toEqual([]);
  });

  it('empties itself after the checkpoint that follows a delete', async () => {
    await create('/memories/a.md');
    await del('/memories/a.md');
    expect(await inTrash()).toHaveLength(1);
    await s.memory.flush();
    await expect.poll(inTrash).toEqual([]);
  });

  it('keeps the deleted content restorable from the journal', async () => {
    await create('/memories/a.md', 'keep me\n');
    await del('/memories/a.md');
    await s.memory.close();
    const memory = await createMemory({ dataDir: s.dataDir, watch: false });
    try {
      const [deleted] = await memory.deleted();
      await memory.restore(deleted!.id);
      expect((await memory.read('/memories/a.md')).content).toBe('keep me\n');
    } finally {
      await memory.close();
    }
  });

  it('keeps a deleted file that is not UTF-8 (written by another program) byte for byte', async () => {
    const bytes = Buffer.from([0x66, 0xff, 0xfe, 0x00, 0x0a, 0xc3, 0x28]);
    await writeFile(path.join(s.dataDir, 'memories', 'bin.dat'), bytes);
    await s.memory.close();
    s.memory = await createMemory({ dataDir: s.dataDir, watch: false }); // records it as external
    await del('/memories/bin.dat');
    await s.memory.close();
    s.memory = await createMemory({ dataDir: s.dataDir, watch: false });
    const [deleted] = await s.memory.deleted();
    await s.memory.restore(deleted!.id);
    expect(await readFile(path.join(s.dataDir, 'memories', 'bin.dat'))).toEqual(bytes);
  });

  it('removes what a crash left in it when the memory opens', async () => {
    await s.memory.close();
    await mkdir(path.join(trashDir(), 'left-folder'), { recursive: true });
    await writeFile(path.join(trashDir(), 'left-folder', 'x.md'), 'left\n');
    await writeFile(path.join(trashDir(), 'left.md'), 'left\n');
    const memory = await createMemory({ dataDir: s.dataDir, watch: false });
    try {
      expect(await inTrash()).toEqual([]);
    } finally {
      await memory.close();
    }
  });

  it('is emptied at once when the user forgets a file deleted earlier', async () => {
    await create('/memories/private.md', 'a secret I regret telling\n');
    await del('/memories/private.md');
    expect(await inTrash()).toHaveLength(1);
    await s.memory.forget('/memories/private.md');
    expect(await inTrash()).toEqual([]);
  });

  it('still deletes when the trash cannot take the file (it was removed and replaced by a file)', async () => {
    await create('/memories/a.md');
    await rm(trashDir(), { recursive: true });
    await writeFile(trashDir(), 'not a folder\n');
    await del('/memories/a.md');
    expect(await inRoot()).toEqual([]);
    const [deleted] = await s.memory.deleted();
    expect(deleted).toMatchObject({ path: '/memories/a.md', command: 'delete' });
  });
});
