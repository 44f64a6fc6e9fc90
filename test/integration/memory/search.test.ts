// Search over the real memory store: the index follows every kind of change through the memory's events
// (its periodic rescan is pushed out of reach here, so only the events can make these pass).
import { link, mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createMemory, type Memory } from '../../../memory/index.js';
import {
  createMemorySearch,
  createMemorySearchTool,
  type AttachedSearch,
} from '../../../memory/search/index.js';

let dir: string;
let memory: Memory;
let attached: AttachedSearch;
const agent = { kind: 'agent', conversationId: 'conv', toolUseId: 'tool' } as const;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mnemo-search-int-'));
  memory = await createMemory({ dataDir: dir, watch: false });
  attached = createMemorySearch(memory, { rescanIntervalMs: 3_600_000 });
});
afterEach(async () => {
  attached.detach();
  await memory.close();
  await rm(dir, { recursive: true, force: true });
});

const paths = async (q: string): Promise<string[]> =>
  (await attached.search.search(q, 100)).hits.map((h) => `${h.path}:${h.line}`);

test('the index follows the tool, the panel, renames, deletes, restores and forgets', async () => {
  expect(await paths('otter')).toEqual([]);
  await memory.tool.execute(
    { command: 'create', path: '/memories/zoo/animals.md', file_text: 'cat\notter\n' },
    agent,
  );
  expect(await paths('otter')).toEqual(['/memories/zoo/animals.md:2']);
  await memory.tool.execute(
    { command: 'insert', path: '/memories/zoo/animals.md', insert_line: 0, insert_text: 'sea otter\n' },
    agent,
  );
  expect(await paths('otter')).toEqual(['/memories/zoo/animals.md:1', '/memories/zoo/animals.md:3']);
  await memory.rename('/memories/zoo', '/memories/park');
  expect(await paths('otter')).toEqual(['/memories/park/animals.md:1', '/memories/park/animals.md:3']);
  const del = await memory.delete('/memories/park');
  expect(await paths('otter')).toEqual([]);
  await memory.restore(del.journalId);
  expect(await paths('sea otter')).toEqual(['/memories/park/animals.md:1']);
  await memory.forget('/memories/park');
  expect(await paths('otter')).toEqual([]);
});

test('planted links inside the root are never searched', async () => {
  const outside = path.join(dir, 'private.txt');
  await writeFile(outside, 'bank password hint\n');
  await symlink(outside, path.join(memory.root, 'soft.md'));
  await link(outside, path.join(memory.root, 'hard.md'));
  await memory.create('/memories/ok.md', 'password manager is used\n');
  await attached.search.refresh();
  expect(await paths('password')).toEqual(['/memories/ok.md:1']);
});

test('a folder swapped for a link after indexing exposes nothing outside the root', async () => {
  await memory.create('/memories/d/x.md', 'harmless note\n');
  expect(await paths('note')).toEqual(['/memories/d/x.md:1']);
  const outside = path.join(dir, 'outside');
  await mkdir(outside);
  await writeFile(path.join(outside, 'x.md'), 'outside note: secret\n');
  await rename(path.join(memory.root, 'd'), path.join(dir, 'moved-away'));
  await symlink(outside, path.join(memory.root, 'd'));
  attached.search.invalidate('/memories/d/x.md');
  expect(await paths('secret')).toEqual([]);
  attached.search.invalidate('/memories/d');
  await attached.search.refresh();
  expect(await paths('note')).toEqual([]);
});

test('the memory_search tool answers from the live index', async () => {
  const tool = createMemorySearchTool(attached.search, { maxChars: memory.limits.viewCapChars });
  await memory.create('/memories/a.md', '# Diet\n- vegetarian since 2019\n');
  await memory.create('/memories/b/c.md', 'Restaurant: vegetarian options\n');
  expect(await tool.execute({ query: 'Vegetarian', limit: 5 })).toEqual({
    isError: false,
    content: '/memories/a.md:2: - vegetarian since 2019\n/memories/b/c.md:1: Restaurant: vegetarian options',
  });
});
