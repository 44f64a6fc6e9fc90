// The folder view answers from this process's cached tree (bench/memory: folder view at 10,000 files, far
// above the reference, which walks the disk each time). The cache must follow another process's writes to
// the same data folder: here a real child process (the CLI beside the app, say) creates, edits, renames
// and deletes, and this process's next view shows each change. No watcher in this process: what it sees
// comes from the journal, which it reads again whenever the other process may have written.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory, type Actor, type Memory } from '../../../memory/index.js';
import { assertDistFresh, worker } from './child-process.js';

const agent: Actor = { kind: 'agent', conversationId: 'app', toolUseId: 'toolu_app' };

/** Runs memory-tool commands in a child process on `dataDir`; resolves when it has exited cleanly. */
function other(dataDir: string, ...commands: Record<string, unknown>[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const args = [worker, 'tool', dataDir, ...commands.map((c) => JSON.stringify(c))];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`the other process failed (${code}): ${stderr}`)),
    );
  });
}

let base: string;
let dataDir: string;
let app: Memory;
const view = async (p = '/memories') => {
  const r = await app.tool.execute({ command: 'view', path: p }, agent);
  expect(r.isError).toBe(false);
  return r.content;
};

beforeAll(async () => {
  assertDistFresh();
  base = await mkdtemp(path.join(os.tmpdir(), 'mnemo-view-other-'));
  dataDir = path.join(base, 'data');
  app = await createMemory({ dataDir, watch: false });
});
afterAll(async () => {
  await app?.close();
  await rm(base, { recursive: true, force: true });
});

describe("the cached folder view and another process's writes", () => {
  it('shows every create, edit, rename and delete the other process made, at the next view', async () => {
    await app.create('/memories/notes/mine.md', 'written here\n');
    expect(await view()).toContain('/memories/notes/mine.md'); // the cache is warm from here on

    await other(dataDir, { command: 'create', path: '/memories/notes/theirs.md', file_text: 'there\n' });
    expect(await view()).toContain('/memories/notes/theirs.md');

    await other(dataDir, {
      command: 'create',
      path: '/memories/projects/deep/plan.md',
      file_text: 'plan\n',
    });
    // Two levels deep, like the reference's listing: the new folders, then the file from its parent.
    expect(await view()).toContain('/memories/projects/deep/');
    expect(await view('/memories/projects')).toContain('/memories/projects/deep/plan.md');

    await other(dataDir, {
      command: 'str_replace',
      path: '/memories/notes/theirs.md',
      old_str: 'there',
      new_str: 'there, '.repeat(400),
    });
    expect(await view('/memories/notes')).toMatch(/2\.7K\t\/memories\/notes\/theirs\.md/);

    await other(dataDir, { command: 'rename', old_path: '/memories/notes', new_path: '/memories/archive' });
    const renamed = await view();
    expect(renamed).toContain('/memories/archive/theirs.md');
    expect(renamed).toContain('/memories/archive/mine.md');
    expect(renamed).not.toContain('/memories/notes');

    await other(
      dataDir,
      { command: 'delete', path: '/memories/archive/mine.md' },
      { command: 'delete', path: '/memories/projects' },
    );
    const deleted = await view();
    expect(deleted).not.toContain('mine.md');
    expect(deleted).not.toContain('/memories/projects');
    expect(deleted).toContain('/memories/archive/theirs.md');
    expect((await app.usage()).totalBytes).toBe(Buffer.byteLength('there, '.repeat(400) + '\n'));
  }, 60_000);
});
