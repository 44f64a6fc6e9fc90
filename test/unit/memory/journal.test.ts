import { mkdir, readFile, writeFile, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemory, type ChangeEvent } from '../../../memory/index.js';
import { agent, sandbox, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(async () => {
  await s.cleanup();
});
const journalText = () => readFile(path.join(s.dataDir, 'memory-journal', 'journal.jsonl'), 'utf8');

describe('journal', () => {
  it('records who changed what, with conversation and tool_use ids, newest first', async () => {
    await s.memory.tool.execute({ command: 'create', path: '/memories/a.md', file_text: 'one\n' }, agent);
    await s.memory.write('/memories/a.md', 'two\n', 'any');
    const h = await s.memory.history('/memories/a.md');
    expect(h.map((e) => [e.actor, e.command])).toEqual([
      ['user', 'write'],
      ['agent', 'create'],
    ]);
    expect(h[1]).toMatchObject({
      conversationId: 'c1',
      toolUseId: 'toolu_1',
      messageId: 'msg_1',
      beforeHash: null,
    });
    expect(h[0]!.beforeHash).toBe(h[1]!.afterHash);
    const d = await s.memory.diff(h[0]!.id);
    expect(d).toMatchObject({ path: '/memories/a.md', before: 'one\n', after: 'two\n' });
    expect(d.patch).toContain('-one\n+two');
  });

  it('reverts a change (journaled itself) and merges an undo into a file that moved on elsewhere', async () => {
    await s.memory.write('/memories/a.md', 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n', null);
    const { journalId } = await s.memory.write('/memories/a.md', 'l1\nL2\nl3\nl4\nl5\nl6\nl7\nl8\n', 'any');
    await s.memory.write('/memories/a.md', 'l1\nL2\nl3\nl4\nl5\nl6\nl7\nL8\n', 'any');
    await s.memory.revert(journalId);
    expect((await s.memory.read('/memories/a.md')).content).toBe('l1\nl2\nl3\nl4\nl5\nl6\nl7\nL8\n');
    const h = await s.memory.history('/memories/a.md');
    expect(h[0]!.command).toBe('revert');
  });

  it('undoes a create by deleting, and a folder delete as one batch', async () => {
    const c = await s.memory.create('/memories/new.md', 'x');
    await s.memory.revert(c.journalId);
    await expect(s.memory.read('/memories/new.md')).rejects.toMatchObject({ code: 'not_found' });
    await s.memory.create('/memories/f/a.md', 'A');
    await s.memory.create('/memories/f/g/b.md', 'B');
    const del = await s.memory.delete('/memories/f');
    expect((await s.memory.list()).map((e) => e.path)).toEqual([]);
    await s.memory.revert(del.journalId);
    expect((await s.memory.read('/memories/f/a.md')).content).toBe('A');
    expect((await s.memory.read('/memories/f/g/b.md')).content).toBe('B');
  });

  it('lists deleted files and restores one', async () => {
    await s.memory.create('/memories/a.md', 'keep me');
    await s.memory.delete('/memories/a.md');
    const deleted = await s.memory.deleted();
    expect(deleted.map((e) => e.path)).toEqual(['/memories/a.md']);
    await s.memory.restore(deleted[0]!.id);
    expect((await s.memory.read('/memories/a.md')).content).toBe('keep me');
    expect(await s.memory.deleted()).toEqual([]);
  });

  it('restores what a deleted file held on disk, even after an edit the cache did not see', async () => {
    await s.memory.create('/memories/e.md', 'as written by the app');
    // Edited with another program (no watcher here), same size: only the file's mtime tells.
    const host = path.join(s.dataDir, 'memories', 'e.md');
    await new Promise((r) => setTimeout(r, 5));
    await writeFile(host, 'as edited by the user');
    await s.memory.rename('/memories/e.md', '/memories/f.md');
    await s.memory.delete('/memories/f.md');
    const [entry] = await s.memory.deleted();
    await s.memory.restore(entry!.id);
    expect((await s.memory.read('/memories/f.md')).content).toBe('as edited by the user');
  });

  it('undoes a folder rename', async () => {
    await s.memory.create('/memories/f/a.md', 'A');
    const r = await s.memory.rename('/memories/f', '/memories/g/h');
    expect((await s.memory.read('/memories/g/h/a.md')).content).toBe('A');
    await s.memory.revert(r.journalId);
    expect((await s.memory.read('/memories/f/a.md')).content).toBe('A');
  });

  it('forget removes the file and every trace, including its earlier names and contents', async () => {
    await s.memory.create('/memories/old.md', 'PERSONAL-DATA-1');
    await s.memory.write('/memories/old.md', 'PERSONAL-DATA-2', 'any');
    await s.memory.rename('/memories/old.md', '/memories/p.md');
    await s.memory.create('/memories/other.md', 'unrelated');
    await s.memory.forget('/memories/p.md');
    await expect(s.memory.read('/memories/p.md')).rejects.toMatchObject({ code: 'not_found' });
    const text = await journalText();
    expect(text).not.toContain('PERSONAL-DATA');
    expect(text).not.toContain('/memories/old.md');
    expect(text).not.toContain('/memories/p.md');
    expect(text).toContain('unrelated');
    expect((await s.memory.journal()).map((e) => e.path)).toEqual(['/memories/other.md']);
  });

  it('prunes the oldest history past the size cap', async () => {
    await s.cleanup();
    s = await sandbox({ limits: { journalCapBytes: 20_000 } });
    for (let i = 0; i < 40; i++)
      await s.memory.write('/memories/a.md', `version ${i} ` + 'x'.repeat(1000), 'any');
    const entries = await s.memory.journal();
    expect(entries.length).toBeLessThan(40);
    expect(entries[0]!.afterHash).toBe((await s.memory.read('/memories/a.md')).version);
    expect(
      (await readFile(path.join(s.dataDir, 'memory-journal', 'journal.jsonl'))).length,
    ).toBeLessThanOrEqual(20_000);
  });

  it('emits change events for every actor', async () => {
    const events: ChangeEvent[] = [];
    s.memory.onChange((e) => events.push(e));
    await s.memory.tool.execute({ command: 'create', path: '/memories/a.md', file_text: 'x' }, agent);
    await s.memory.rename('/memories/a.md', '/memories/b.md');
    expect(events.map((e) => [e.actor, e.command, e.path, e.newPath])).toEqual([
      ['agent', 'create', '/memories/a.md', undefined],
      ['user', 'rename', '/memories/a.md', '/memories/b.md'],
    ]);
    expect(events[0]!.conversationId).toBe('c1');
  });
});

describe('startup recovery and external edits', () => {
  it('journals edits made while the app was closed, and removes temp leftovers', async () => {
    await s.memory.create('/memories/a.md', 'one');
    await s.memory.close();
    const root = path.join(s.dataDir, 'memories');
    await writeFile(path.join(root, 'a.md'), 'edited elsewhere');
    await writeFile(path.join(root, 'b.md'), 'new elsewhere');
    await writeFile(path.join(root, '.mnemo-tmp-123-abc'), 'half a write');
    s.memory = await createMemory({ dataDir: s.dataDir, watch: false });
    expect(await readdir(root)).not.toContain('.mnemo-tmp-123-abc');
    const h = await s.memory.history('/memories/a.md');
    expect(h[0]).toMatchObject({ actor: 'external', command: 'external' });
    expect((await s.memory.diff(h[0]!.id)).after).toBe('edited elsewhere');
    expect((await s.memory.history('/memories/b.md'))[0]!.actor).toBe('external');
  });

  it('cuts a torn last journal line', async () => {
    await s.memory.create('/memories/a.md', 'one');
    await s.memory.close();
    const file = path.join(s.dataDir, 'memory-journal', 'journal.jsonl');
    await writeFile(file, (await readFile(file, 'utf8')) + '{"t":"e","id":"torn","at":1,"act');
    s.memory = await createMemory({ dataDir: s.dataDir, watch: false });
    expect((await s.memory.journal()).map((e) => e.command)).toEqual(['create']);
    await s.memory.write('/memories/a.md', 'two', 'any');
    expect((await readFile(file, 'utf8')).split('\n').every((l) => l === '' || JSON.parse(l))).toBe(true);
  });

  it('notices an external edit through the watcher', async () => {
    await s.cleanup();
    s = await sandbox({ watch: true, watchDebounceMs: 30 });
    await s.memory.create('/memories/a.md', 'one');
    const seen = new Promise<ChangeEvent>((resolve) =>
      s.memory.onChange((e) => {
        if (e.actor === 'external') resolve(e);
      }),
    );
    await writeFile(path.join(s.dataDir, 'memories', 'a.md'), 'changed by an editor');
    expect(await seen).toMatchObject({ actor: 'external', path: '/memories/a.md' });
    const h = await s.memory.history('/memories/a.md');
    expect((await s.memory.diff(h[0]!.id)).after).toBe('changed by an editor');
  });
});

describe('watcher on folders', () => {
  it('notices a folder made outside the app, and later edits inside it', async () => {
    await s.cleanup();
    s = await sandbox({ watch: true, watchDebounceMs: 30 });
    const waitFor = (p: string) =>
      new Promise<ChangeEvent>((resolve) =>
        s.memory.onChange((e) => {
          if (e.actor === 'external' && e.path === p) resolve(e);
        }),
      );
    const first = waitFor('/memories/new/a.md');
    await mkdir(path.join(s.dataDir, 'memories', 'new'));
    await writeFile(path.join(s.dataDir, 'memories', 'new', 'a.md'), 'made in a shell');
    await first;
    const second = waitFor('/memories/new/b.md');
    await writeFile(path.join(s.dataDir, 'memories', 'new', 'b.md'), 'second');
    await second;
    expect((await s.memory.list()).map((e) => e.path)).toEqual([
      '/memories/new',
      '/memories/new/a.md',
      '/memories/new/b.md',
    ]);
  });
});

describe('last read and staleness', () => {
  it('lists files unread for longer than the threshold; view and touchRead refresh them', async () => {
    let now = Date.now();
    await s.cleanup();
    s = await sandbox({ clock: () => now });
    await s.memory.create('/memories/a.md', 'a');
    await s.memory.create('/memories/b.md', 'b');
    await s.memory.create('/memories/c.md', 'c');
    now += 91 * 86_400_000;
    const stateFile = path.join(s.dataDir, 'memory-journal', 'state.json');
    const savedBefore = await readFile(stateFile, 'utf8');
    await s.memory.tool.execute({ command: 'view', path: '/memories/a.md' }, agent);
    s.memory.touchRead(['/memories/b.md', '/etc/passwd']);
    // Read times are kept in memory and saved lazily: a read does not write the state file.
    expect(await readFile(stateFile, 'utf8')).toBe(savedBefore);
    // c.md was never read: it counts from its modification time
    expect((await s.memory.stale()).map((e) => e.path)).toEqual(['/memories/c.md']);
    const list = await s.memory.list();
    expect(list.find((e) => e.path === '/memories/a.md')!.lastReadAt).toBe(new Date(now).toISOString());
    await s.memory.flush();
    expect(JSON.parse(await readFile(stateFile, 'utf8')).files['/memories/b.md'].r).toBe(now);
    await s.memory.close();
    s.memory = await createMemory({ dataDir: s.dataDir, watch: false, clock: () => now });
    expect((await s.memory.list()).find((e) => e.path === '/memories/b.md')!.lastReadAt).toBe(
      new Date(now).toISOString(),
    );
    expect((await readdir(path.join(s.dataDir, 'memories'))).sort()).toEqual(['a.md', 'b.md', 'c.md']);
  });
});
