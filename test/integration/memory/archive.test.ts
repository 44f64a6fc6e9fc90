// Export and import against the real memory store on disk: round trips, the preview's categories, and
// what apply does when the memory moved on after the preview.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  exportMemory,
  ImportSessions,
  ImportTokenError,
  ArchiveError,
} from '../../../memory/archive/index.js';
import { createMemory, type Memory } from '../../../memory/index.js';

let dir: string;
const open: Memory[] = [];

async function memoryAt(
  name: string,
  limits?: Parameters<typeof createMemory>[0]['limits'],
): Promise<Memory> {
  const m = await createMemory({
    dataDir: path.join(dir, name),
    watch: false,
    ...(limits ? { limits } : {}),
  });
  open.push(m);
  return m;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mnemo-archive-'));
});
afterEach(async () => {
  for (const m of open.splice(0)) await m.close();
  await rm(dir, { recursive: true, force: true });
});

async function snapshot(m: Memory): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await m.list()) out[e.path] = e.kind === 'dir' ? '<dir>' : (await m.read(e.path)).content;
  return out;
}

describe('round trip', () => {
  test('an export imports into an empty memory as the same files and folders', async () => {
    const a = await memoryAt('a');
    await a.create('/memories/prefs.md', '# Prefs\n\n- tea\n');
    await a.create('/memories/people/anna/notes.md', 'Anna: café owner ☕\n');
    await a.create('/memories/projects/x.md', 'x\n');
    const archive = await exportMemory(a, { includeJournal: true });
    expect([archive.files, archive.folders]).toEqual([3, 3]);
    expect(archive.journalFiles).toBeGreaterThan(0);
    const file = path.join(dir, archive.fileName);
    await writeFile(file, archive.data);

    const b = await memoryAt('b');
    const sessions = new ImportSessions(b);
    const preview = await sessions.preview({
      kind: 'zip',
      name: 'x.zip',
      data: new Uint8Array(await readFile(file)),
    });
    expect(preview.added).toEqual([
      '/memories/people/anna/notes.md',
      '/memories/prefs.md',
      '/memories/projects/x.md',
    ]);
    expect(preview.refused).toEqual([
      { path: '.mnemo-journal/', reason: expect.stringContaining('import restores files, not history') },
    ]);
    expect(await b.list()).toEqual([]);
    expect(await sessions.apply(preview.token, false)).toEqual({ added: 3, changed: 0, skipped: 0 });
    expect(await snapshot(b)).toEqual(await snapshot(a));
    // Imports are journaled and revertible like any change.
    const [entry] = await b.history('/memories/prefs.md');
    expect(entry?.actor).toBe('import');
    await b.revert(entry?.id ?? '');
    await expect(b.read('/memories/prefs.md')).rejects.toMatchObject({ code: 'not_found' });
  });

  test('a folder (an unzipped export) imports too', async () => {
    const src = path.join(dir, 'unzipped', 'memories');
    await mkdir(path.join(src, 'sub'), { recursive: true });
    await writeFile(path.join(src, 'a.md'), 'A\n');
    await writeFile(path.join(src, 'sub', 'b.md'), 'B\n');
    await writeFile(path.join(src, 'image.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff]));
    await mkdir(path.join(src, '.git', 'objects'), { recursive: true });
    await writeFile(path.join(src, '.git', 'objects', 'x'), 'blob');
    const m = await memoryAt('m');
    const sessions = new ImportSessions(m);
    const preview = await sessions.preview({ kind: 'folder', path: path.join(dir, 'unzipped') });
    expect(preview.added).toEqual(['/memories/a.md', '/memories/sub/b.md']);
    expect(preview.refused).toEqual([
      { path: 'image.md', reason: expect.stringContaining('not UTF-8 text') },
      { path: '.git/', reason: 'A hidden folder: tool settings, not memory. Not imported.' },
    ]);
    await sessions.apply(preview.token, false);
    expect(await snapshot(m)).toEqual({
      '/memories/a.md': 'A\n',
      '/memories/sub': '<dir>',
      '/memories/sub/b.md': 'B\n',
    });
  });
});

test('a picked folder holding a name that is not UTF-8 refuses that entry, says why, and imports the rest', async () => {
  const src = path.join(dir, 'picked');
  await mkdir(src, { recursive: true });
  await writeFile(path.join(src, 'a.md'), 'A\n');
  await writeFile(
    Buffer.concat([Buffer.from(src + path.sep), Buffer.from([0x66, 0xff, 0x2e, 0x6d, 0x64])]),
    'x',
  );
  const badDir = Buffer.concat([Buffer.from(src + path.sep), Buffer.from([0x64, 0xff])]);
  await mkdir(badDir);
  await writeFile(Buffer.concat([badDir, Buffer.from('/inside.md')]), 'y');
  const m = await memoryAt('m');
  const preview = await new ImportSessions(m).preview({ kind: 'folder', path: src });
  expect(preview.added).toEqual(['/memories/a.md']);
  expect(preview.refused).toEqual([
    { path: 'd\ufffd', reason: expect.stringContaining('name is not valid UTF-8') },
    { path: 'f\ufffd.md', reason: expect.stringContaining('name is not valid UTF-8') },
  ]);
  expect(JSON.stringify(preview)).not.toContain(dir);
});

describe('preview categories', () => {
  test('conflicts: an earlier version, a folder in the way, a file in the way, a case twin', async () => {
    const m = await memoryAt('m');
    const first = await m.create('/memories/diary.md', 'v1\n');
    await m.write('/memories/diary.md', 'v2\n', first.version);
    await m.create('/memories/folder/inside.md', 'x\n');
    await m.create('/memories/file.md', 'f\n');
    await m.create('/memories/Notes.md', 'n\n');
    const data = zipSync({
      'diary.md': strToU8('v1\n'),
      folder: strToU8('a file where a folder is'),
      'file.md/child.md': strToU8('under a file'),
      'notes.md': strToU8('lower case'),
    });
    const sessions = new ImportSessions(m);
    const preview = await sessions.preview({ kind: 'zip', name: 'x.zip', data });
    expect(preview.added).toEqual([]);
    expect(preview.changed).toEqual([]);
    expect(preview.conflicts).toEqual([
      { path: '/memories/diary.md', reason: expect.stringContaining('earlier version') },
      { path: '/memories/file.md/child.md', reason: '/memories/file.md is a file here, not a folder.' },
      { path: '/memories/folder', reason: expect.stringContaining('A folder with this name exists here') },
      {
        path: '/memories/notes.md',
        reason: 'Differs only in case from /memories/Notes.md, which exists here.',
      },
    ]);
    const before = await snapshot(m);
    expect(await sessions.apply(preview.token, false)).toEqual({ added: 0, changed: 0, skipped: 4 });
    expect(await snapshot(m)).toEqual(before);
    // With overwrite, only the content conflict is applied; the structural ones never are.
    const again = await sessions.preview({ kind: 'zip', name: 'x.zip', data });
    expect(await sessions.apply(again.token, true)).toEqual({ added: 0, changed: 1, skipped: 3 });
    expect((await m.read('/memories/diary.md')).content).toBe('v1\n');
  });

  test('entries the memory refuses are listed with the reason and never written', async () => {
    const m = await memoryAt('m', { fileCapBytes: 1024 });
    const data = zipSync({
      'ok.md': strToU8('fine\n'),
      'big.md': strToU8('x'.repeat(2000)),
      'CON.md': strToU8('device name'),
      'trailing-dot.': strToU8('alias'),
      'A.md': strToU8('one'),
      'a.md': strToU8('two'),
      'pem.md': strToU8('-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n'),
      'zero-byte.md': new Uint8Array([0x61, 0x00, 0x62]),
      '__MACOSX/._ok.md': strToU8('junk'),
      '.git/config': strToU8('[core]'),
      '.git/objects/ab/cdef': strToU8('blob'),
      'sub/.obsidian/app.json': strToU8('{}'),
      clash: strToU8('a file named like a folder'),
      'clash/inside.md': strToU8('inside'),
      '.DS_Store': strToU8('junk'),
    });
    const sessions = new ImportSessions(m);
    const preview = await sessions.preview({ kind: 'zip', name: 'x.zip', data });
    expect(preview.added).toEqual(['/memories/A.md', '/memories/clash/inside.md', '/memories/ok.md']);
    const reasons = Object.fromEntries(preview.refused.map((r) => [r.path, r.reason]));
    expect(reasons['big.md']).toContain('above the 1024-byte limit');
    expect(reasons['CON.md']).toContain('reserved device name');
    expect(reasons['trailing-dot.']).toContain('end with a space or a dot');
    expect(reasons['a.md']).toContain('Differs only in case or accents from /memories/A.md');
    expect(reasons['pem.md']).toContain('private key');
    expect(reasons['pem.md']).not.toContain('MIIB');
    expect(reasons['zero-byte.md']).toContain('NUL');
    expect(reasons['__MACOSX/, .DS_Store']).toContain('2 entries');
    expect(reasons['.git/']).toBe('A hidden folder (2 files): tool settings, not memory. Not imported.');
    expect(reasons['sub/.obsidian/']).toContain('(1 files)');
    expect(reasons.clash).toBe('The import also has a folder with this name.');
    await sessions.apply(preview.token, false);
    expect(Object.keys(await snapshot(m))).toEqual([
      '/memories/A.md',
      '/memories/clash',
      '/memories/clash/inside.md',
      '/memories/ok.md',
    ]);
  });

  test('an import that would pass the quota is refused before anything is written', async () => {
    const m = await memoryAt('m', { quotaBytes: 100 * 1024 });
    await m.create('/memories/existing.md', 'e'.repeat(60 * 1024));
    const data = zipSync({ 'a.md': strToU8('a'.repeat(30 * 1024)), 'b.md': strToU8('b'.repeat(30 * 1024)) });
    const sessions = new ImportSessions(m);
    await expect(sessions.preview({ kind: 'zip', name: 'x.zip', data })).rejects.toThrow(ArchiveError);
    await expect(sessions.preview({ kind: 'zip', name: 'x.zip', data })).rejects.toThrow(
      'above its 102400-byte quota',
    );
    expect(Object.keys(await snapshot(m))).toEqual(['/memories/existing.md']);
  });
});

describe('apply', () => {
  test('a file changed after the preview is skipped, not overwritten', async () => {
    const m = await memoryAt('m');
    const v = await m.create('/memories/a.md', 'here\n');
    const sessions = new ImportSessions(m);
    const preview = await sessions.preview({
      kind: 'zip',
      name: 'x.zip',
      data: zipSync({ 'a.md': strToU8('archive\n'), 'late.md': strToU8('archive late\n') }),
    });
    expect(preview.changed).toEqual(['/memories/a.md']);
    await m.write('/memories/a.md', 'edited meanwhile\n', v.version);
    await m.create('/memories/late.md', 'created meanwhile\n');
    expect(await sessions.apply(preview.token, true)).toEqual({ added: 0, changed: 0, skipped: 2 });
    expect(await snapshot(m)).toEqual({
      '/memories/a.md': 'edited meanwhile\n',
      '/memories/late.md': 'created meanwhile\n',
    });
  });

  test('previews expire and unknown tokens are refused', async () => {
    const m = await memoryAt('m');
    let now = 1_000_000;
    const sessions = new ImportSessions(m, { ttlMs: 60_000, clock: () => now });
    const preview = await sessions.preview({
      kind: 'zip',
      name: 'x.zip',
      data: zipSync({ 'a.md': strToU8('a') }),
    });
    now += 60_001;
    await expect(sessions.apply(preview.token, false)).rejects.toThrow(ImportTokenError);
    await expect(sessions.apply('made-up', false)).rejects.toThrow('expired or was already used');
    expect(await m.list()).toEqual([]);
  });
});
