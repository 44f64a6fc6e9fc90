// The folder view answers from the memory's cached tree (bench/memory: folder view at 10,000 files); the
// cache must stay coherent with another process's writes to the same data folder. Here the other process
// is a second memory on the same folder, with its own cache and lock holder.
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, type Actor, type Memory } from '../../../memory/index.js';

const agent: Actor = { kind: 'agent', conversationId: 'c', toolUseId: 't' };
let base: string | undefined;
const open: Memory[] = [];
afterEach(async () => {
  for (const m of open.splice(0)) await m.close();
  if (base) await rm(base, { recursive: true, force: true });
  base = undefined;
});

const view = async (m: Memory, p = '/memories') =>
  (await m.tool.execute({ command: 'view', path: p }, agent)).content;

describe('the cached folder view', () => {
  it("shows another process's creates, renames, deletes and edits at the next view", async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'mnemo-coherent-'));
    const dataDir = path.join(base, 'data');
    const a = await createMemory({ dataDir, watch: false });
    const b = await createMemory({ dataDir, watch: false });
    open.push(a, b);
    await a.create('/memories/notes/one.md', 'one\n');
    expect(await view(b)).toContain('/memories/notes/one.md');
    await b.create('/memories/notes/two.md', 'two\n');
    expect(await view(a)).toContain('/memories/notes/two.md');
    await b.rename('/memories/notes', '/memories/archive');
    const afterRename = await view(a);
    expect(afterRename).toContain('/memories/archive/two.md');
    expect(afterRename).not.toContain('/memories/notes');
    await b.delete('/memories/archive/one.md');
    expect(await view(a)).not.toContain('one.md');
    await b.write('/memories/archive/two.md', 'two\n'.repeat(1000), 'any');
    expect(await view(a, '/memories/archive')).toMatch(/3\.9K\t\/memories\/archive\/two\.md/);
    expect((await a.usage()).totalBytes).toBe(4000);
  });
});
