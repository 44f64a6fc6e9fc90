// The memory.* channels end to end: the real backend (createCore) behind the real in-memory transport, on
// a temp data dir, checked against the files on disk.
import { link, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { failure, startMemoryHarness, type MemoryHarness } from './handlers-harness.js';

let h: MemoryHarness;
beforeEach(async () => {
  h = await startMemoryHarness();
});
afterEach(async () => {
  await h.close();
});

const enc = new TextEncoder();
const onDisk = (rel: string): Promise<string> => readFile(path.join(h.root, rel), 'utf8');
const NOTES = '# Food\n\n- likes tea\n- hates coffee\n  - even decaf\n\nLives in Lyon.\n';

describe('files', () => {
  test('create, list, read with facts, save with the version it opened', async () => {
    const created = await h.api['memory.create']({ path: '/memories/people/anna.md', content: NOTES });
    expect(created.version).toMatch(/^[0-9a-f]{64}$/);
    const { entries, totalBytes } = await h.api['memory.list']({});
    expect(entries.map((e) => [e.path, e.kind])).toEqual([
      ['/memories/people', 'dir'],
      ['/memories/people/anna.md', 'file'],
    ]);
    expect(totalBytes).toBe(Buffer.byteLength(NOTES));
    const file = await h.api['memory.read']({ path: '/memories/people/anna.md' });
    expect(file.content).toBe(NOTES);
    expect(file.version).toBe(created.version);
    expect(file.facts.map((f) => [f.kind, f.text, f.line])).toEqual([
      ['heading', 'Food', 1],
      ['item', 'likes tea', 3],
      ['item', 'hates coffee', 4],
      ['item', 'even decaf', 5],
      ['paragraph', 'Lives in Lyon.', 7],
    ]);
    expect(file.facts[3]?.parentId).toBe(file.facts[2]?.id);
    const saved = await h.api['memory.write']({
      path: '/memories/people/anna.md',
      content: NOTES + '- new\n',
      baseVersion: file.version,
    });
    expect(saved.version).not.toBe(file.version);
    expect(await onDisk('people/anna.md')).toBe(NOTES + '- new\n');
  });

  test('a save from a stale version is a conflict carrying both contents; nothing is overwritten', async () => {
    const { version } = await h.api['memory.create']({ path: '/memories/a.md', content: 'one\n' });
    await h.api['memory.write']({ path: '/memories/a.md', content: 'two\n', baseVersion: version });
    const error = await failure(
      h.api['memory.write']({ path: '/memories/a.md', content: 'mine\n', baseVersion: version }),
    );
    expect(error.code).toBe('conflict');
    expect(JSON.stringify(error.details)).toContain('two\\n');
    expect(JSON.stringify(error.details)).toContain('mine\\n');
    expect(await onDisk('a.md')).toBe('two\n');
  });

  test('errors map to clear contract codes without host paths', async () => {
    const missing = await failure(h.api['memory.read']({ path: '/memories/nope.md' }));
    expect(missing.code).toBe('not_found');
    const bad = await failure(h.api['memory.create']({ path: '/memories/../etc/passwd', content: 'x' }));
    expect(bad.code).toBe('invalid_request');
    expect(bad.message).toContain('".." segments are not allowed');
    const secret = await failure(
      h.api['memory.create']({ path: '/memories/k.md', content: 'key: sk-ant-api03-' + 'a'.repeat(40) }),
    );
    expect(secret.code).toBe('invalid_request');
    expect(secret.message).toContain('Anthropic API key');
    expect(secret.message).not.toContain('aaaaaaaaaa');
    for (const e of [missing, bad, secret]) expect(e.message).not.toContain(h.dataDir);
  });

  test('rename, delete (a folder asks the host), restore, history, diff, revert, forget', async () => {
    await h.api['memory.create']({ path: '/memories/dir/a.md', content: 'alpha\n' });
    const renamed = await h.api['memory.rename']({
      path: '/memories/dir/a.md',
      newPath: '/memories/dir/b.md',
    });
    expect(renamed.journalId).toBeTruthy();
    h.confirmAnswer = false;
    const cancelled = await failure(h.api['memory.delete']({ path: '/memories/dir' }));
    expect(cancelled.message).toContain('cancelled');
    expect(h.confirms).toEqual(['Delete the folder /memories/dir?']);
    expect(await onDisk('dir/b.md')).toBe('alpha\n');
    h.confirmAnswer = undefined;
    const deleted = await h.api['memory.delete']({ path: '/memories/dir/b.md' });
    expect((await h.api['memory.list']({})).entries.map((e) => e.path)).not.toContain('/memories/dir/b.md');
    await h.api['memory.restore']({ journalId: deleted.journalId });
    expect(await onDisk('dir/b.md')).toBe('alpha\n');
    const history = await h.api['memory.history']({ path: '/memories/dir/b.md' });
    expect(history.entries.length).toBeGreaterThanOrEqual(3);
    const w = await h.api['memory.write']({
      path: '/memories/dir/b.md',
      content: 'beta\n',
      baseVersion: (await h.api['memory.read']({ path: '/memories/dir/b.md' })).version,
    });
    const diff = await h.api['memory.diff']({ journalId: w.journalId });
    expect([diff.before, diff.after]).toEqual(['alpha\n', 'beta\n']);
    expect(diff.patch).toContain('+beta');
    await h.api['memory.revert']({ journalId: w.journalId });
    expect(await onDisk('dir/b.md')).toBe('alpha\n');
    h.confirmAnswer = false;
    const kept = await failure(h.api['memory.forget']({ path: '/memories/dir/b.md' }));
    expect(kept.message).toContain('Nothing was forgotten');
    expect(await onDisk('dir/b.md')).toBe('alpha\n');
    h.confirmAnswer = true;
    expect(await h.api['memory.forget']({ path: '/memories/dir/b.md' })).toEqual({ ok: true });
    expect(h.confirms.at(-1)).toBe('Forget /memories/dir/b.md permanently?');
    expect((await h.api['memory.history']({ path: '/memories/dir/b.md' })).entries).toEqual([]);
    expect((await h.api['memory.stale']({})).entries).toEqual([]);
  });
});

describe('facts', () => {
  test('forgetting one fact leaves the others byte-identical on disk, and Undo brings it back', async () => {
    await h.api['memory.create']({ path: '/memories/anna.md', content: NOTES });
    const file = await h.api['memory.read']({ path: '/memories/anna.md' });
    const coffee = file.facts.find((f) => f.text === 'hates coffee');
    const result = await h.api['memory.forgetFact']({
      path: '/memories/anna.md',
      factId: coffee?.id ?? '',
      baseVersion: file.version,
    });
    expect(await onDisk('anna.md')).toBe('# Food\n\n- likes tea\n\nLives in Lyon.\n');
    const event = await h.waitForChange((e) => e.journalId === result.journalId);
    expect(event).toMatchObject({ actor: 'user', path: '/memories/anna.md' });
    await h.api['memory.revert']({ journalId: result.journalId });
    expect(await onDisk('anna.md')).toBe(NOTES);
  });

  test('a stale version, an unknown fact and a non-empty heading are refused, nothing changes', async () => {
    const { version } = await h.api['memory.create']({ path: '/memories/anna.md', content: NOTES });
    const file = await h.api['memory.read']({ path: '/memories/anna.md' });
    const tea = file.facts.find((f) => f.text === 'likes tea')?.id ?? '';
    const heading = file.facts[0]?.id ?? '';
    const stale = await failure(
      h.api['memory.forgetFact']({ path: '/memories/anna.md', factId: tea, baseVersion: 'f'.repeat(64) }),
    );
    expect(stale.code).toBe('conflict');
    const unknown = await failure(
      h.api['memory.forgetFact']({ path: '/memories/anna.md', factId: 'nope-0', baseVersion: version }),
    );
    expect(unknown.code).toBe('not_found');
    const structure = await failure(
      h.api['memory.forgetFact']({ path: '/memories/anna.md', factId: heading, baseVersion: version }),
    );
    expect(structure.code).toBe('invalid_request');
    expect(structure.message).toContain('still has 4 facts under it');
    expect(await onDisk('anna.md')).toBe(NOTES);
  });
});

describe('events', () => {
  test('changes by the user, the agent and another program all arrive as memory.changed', async () => {
    const c = await h.api['memory.create']({ path: '/memories/u.md', content: 'user\n' });
    expect(await h.waitForChange((e) => e.journalId === c.journalId)).toMatchObject({
      actor: 'user',
      command: 'create',
      path: '/memories/u.md',
    });
    const tool = await h.core.ctx.memory.tool.execute(
      { command: 'create', path: '/memories/agent.md', file_text: 'from the agent\n' },
      { kind: 'agent', conversationId: 'conv-1', toolUseId: 'toolu_1' },
    );
    expect(tool.isError).toBe(false);
    expect(await h.waitForChange((e) => e.path === '/memories/agent.md')).toMatchObject({
      actor: 'agent',
      conversationId: 'conv-1',
    });
    await writeFile(path.join(h.root, 'outside-edit.md'), 'edited in vim\n');
    expect(await h.waitForChange((e) => e.path === '/memories/outside-edit.md')).toMatchObject({
      actor: 'external',
    });
  });
});

describe('search', () => {
  test('finds lines with ranges, follows changes live, and respects the limit', async () => {
    await h.api['memory.create']({ path: '/memories/a.md', content: 'Tea at five\nno match\nmore TEA\n' });
    const first = await h.api['memory.search']({ query: 'tea' });
    expect(first).toEqual({
      hits: [
        { path: '/memories/a.md', line: 1, snippet: 'Tea at five', ranges: [[0, 3]] },
        { path: '/memories/a.md', line: 3, snippet: 'more TEA', ranges: [[5, 8]] },
      ],
      truncated: false,
      total: 2,
    });
    const limited = await h.api['memory.search']({ query: 'tea', limit: 1 });
    expect(limited.truncated).toBe(true);
    expect(limited.total).toBe(2);
    expect(limited.hits).toHaveLength(1);
    const tool = await h.core.ctx.memory.tool.execute(
      { command: 'str_replace', path: '/memories/a.md', old_str: 'no match', new_str: 'green tea' },
      { kind: 'agent', conversationId: 'c', toolUseId: 't' },
    );
    expect(tool.isError).toBe(false);
    await h.waitForChange((e) => e.command === 'str_replace');
    expect((await h.api['memory.search']({ query: 'tea' })).hits.map((x) => x.line)).toEqual([1, 2, 3]);
    await writeFile(path.join(h.root, 'b.md'), 'tea from outside\n');
    await h.waitForChange((e) => e.path === '/memories/b.md');
    expect((await h.api['memory.search']({ query: 'from outside' })).hits.map((x) => x.path)).toEqual([
      '/memories/b.md',
    ]);
    const empty = await failure(h.api['memory.search']({ query: '   ' }));
    expect(empty.code).toBe('invalid_request');
  });
});

describe('export and import', () => {
  test('export saves a zip through the host with folders, optionally the journal', async () => {
    await h.api['memory.create']({ path: '/memories/a.md', content: 'A\n' });
    await h.api['memory.create']({ path: '/memories/deep/er/b.md', content: 'B\n' });
    const plain = await h.api['memory.export']({});
    expect(plain.saved).toBe(true);
    expect(plain.fileName).toMatch(/^mnemo-memory-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = unzipSync(new Uint8Array(await readFile(h.saved[0]?.file ?? '')));
    expect(Object.keys(files).sort()).toEqual([
      'memories/a.md',
      'memories/deep/',
      'memories/deep/er/',
      'memories/deep/er/b.md',
    ]);
    expect(strFromU8(files['memories/deep/er/b.md'] ?? new Uint8Array())).toBe('B\n');
    await h.api['memory.export']({ includeJournal: true });
    const withJournal = unzipSync(new Uint8Array(await readFile(h.saved[1]?.file ?? '')));
    expect(Object.keys(withJournal).some((k) => k.startsWith('.mnemo-journal/'))).toBe(true);
  });

  test('export names what it left out, and why; an NFD-named file goes in under its NFC name', async () => {
    const root = path.join(h.dataDir, 'memories');
    await writeFile(path.join(root, 'cafe\u0301.md'), 'coffee\n');
    await writeFile(path.join(h.dataDir, 'elsewhere.txt'), 'outside\n');
    await link(path.join(h.dataDir, 'elsewhere.txt'), path.join(root, 'alias.md'));
    // The watcher picks the planted files up; wait until the panel lists the new one.
    await vi.waitFor(
      async () =>
        expect((await h.api['memory.list']({})).entries.map((e) => e.path)).toContain('/memories/café.md'),
      { timeout: 8000, interval: 100 },
    );
    const res = await h.api['memory.export']({});
    const files = unzipSync(new Uint8Array(await readFile(h.saved[0]?.file ?? '')));
    expect(strFromU8(files['memories/café.md'] ?? new Uint8Array())).toBe('coffee\n');
    expect(res.skipped).toEqual([
      { path: 'memories/alias.md', reason: expect.stringMatching(/more than one hard link/) },
    ]);
    expect(JSON.stringify(res)).not.toContain(h.dataDir);
  });

  test('preview lists what would happen and changes nothing; apply does it once', async () => {
    await h.api['memory.create']({ path: '/memories/same.md', content: 'same\n' });
    await h.api['memory.create']({ path: '/memories/differs.md', content: 'here\n' });
    const zip = zipSync({
      'memories/same.md': enc.encode('same\n'),
      'memories/differs.md': enc.encode('from the archive\n'),
      'memories/new/added.md': enc.encode('new\n'),
      'memories/.hidden.md': enc.encode('x'),
      'memories/key.md': enc.encode('AKIAIOSFODNN7EXAMPLE'),
    });
    h.nextImport = { kind: 'zip', name: 'backup.zip', data: zip };
    const { preview } = await h.api['memory.importPreview']({});
    expect(preview).toMatchObject({
      added: ['/memories/new/added.md'],
      changed: ['/memories/differs.md'],
      unchanged: ['/memories/same.md'],
      conflicts: [],
    });
    expect(preview?.refused.map((r) => r.path).sort()).toEqual(['.hidden.md', 'key.md']);
    expect(preview?.refused.find((r) => r.path === 'key.md')?.reason).toContain('AWS access key');
    expect(await onDisk('differs.md')).toBe('here\n');
    const applied = await h.api['memory.importApply']({ token: preview?.token ?? '' });
    expect(applied).toEqual({ added: 1, changed: 1, skipped: 0 });
    expect(await onDisk('differs.md')).toBe('from the archive\n');
    expect(await onDisk('new/added.md')).toBe('new\n');
    expect(
      h.changes
        .filter((e) => e.actor === 'import')
        .map((e) => e.path)
        .sort(),
    ).toEqual(['/memories/differs.md', '/memories/new/added.md']);
    const again = await failure(h.api['memory.importApply']({ token: preview?.token ?? '' }));
    expect(again.code).toBe('not_found');
    expect(again.message).toContain('Preview the import again');
  });

  test('a hostile archive is refused whole with a clear message; nothing is written', async () => {
    h.nextImport = {
      kind: 'zip',
      name: 'evil.zip',
      data: zipSync({ 'ok.md': enc.encode('fine'), '../../escape.md': enc.encode('evil') }),
    };
    const error = await failure(h.api['memory.importPreview']({}));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain('could write outside the memory folder');
    expect((await h.api['memory.list']({})).entries).toEqual([]);
  });

  test('no pick means no preview', async () => {
    expect(await h.api['memory.importPreview']({})).toEqual({ preview: null });
  });
});
