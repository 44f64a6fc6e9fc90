// Names as they are on disk: a file named in NFD (macOS, some editors) is reachable by its NFC path and by
// its NFD path, and every change lands on the file that is there (no NFC twin appears); names that cannot
// be used (not UTF-8, two names equal in NFC, hard links, links) are reported, and an export says what it
// left out and why. Real files on disk, real zips read back.
import { link, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { unzipSync } from 'fflate';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { exportMemory } from '../../../memory/archive/index.js';
import { createMemory, type Memory } from '../../../memory/index.js';
import { agent, sandbox, user, type Sandbox } from './helpers.js';

const NFC = 'café.md';
const NFD = 'cafe\u0301.md';
const DIR_NFC = 'résumé';
const DIR_NFD = 're\u0301sume\u0301';
const NOT_UTF8 = Buffer.from([0x66, 0xff, 0xfe, 0x2e, 0x6d, 0x64]); // "f", two stray bytes, ".md"

let s: Sandbox;
let root: string;
let memory: Memory;

/** Plant files on disk with another program's names, then open the memory on them. */
async function reopen(options: { watch?: boolean } = {}): Promise<void> {
  await s.memory.close();
  memory = s.memory = await createMemory({ dataDir: s.dataDir, watch: options.watch ?? false });
}

beforeEach(async () => {
  s = await sandbox();
  root = path.join(s.dataDir, 'memories');
  memory = s.memory;
});
afterEach(async () => {
  await s.cleanup();
});

const names = async (dir = root): Promise<string[]> => (await readdir(dir)).sort();

describe('a file named in NFD on disk', () => {
  beforeEach(async () => {
    await writeFile(path.join(root, NFD), 'coffee notes\n');
    await mkdir(path.join(root, DIR_NFD));
    await writeFile(path.join(root, DIR_NFD, 'a.md'), 'job\n');
    await reopen();
  });

  test('is listed by its NFC path and read by the NFC or the NFD form', async () => {
    const paths = (await memory.list()).map((e) => e.path);
    expect(paths).toEqual([`/memories/${NFC}`, `/memories/${DIR_NFC}`, `/memories/${DIR_NFC}/a.md`]);
    for (const p of [`/memories/${NFC}`, `/memories/${NFD}`])
      expect((await memory.read(p)).content).toBe('coffee notes\n');
    expect((await memory.read(`/memories/${DIR_NFD}/a.md`)).content).toBe('job\n');
    expect(await memory.unreachable()).toEqual([]);
  });

  test('the model can view and edit it; the change lands in the NFD file, with no twin', async () => {
    const run = (input: unknown) => memory.tool.execute(input, agent);
    const view = await run({ command: 'view', path: `/memories/${NFC}` });
    expect(view.isError).toBe(false);
    expect(view.content).toContain('coffee notes');
    const edit = await run({
      command: 'str_replace',
      path: `/memories/${NFD}`,
      old_str: 'coffee',
      new_str: 'espresso',
    });
    expect(edit.isError).toBe(false);
    expect(await names()).toEqual([NFD, DIR_NFD].sort());
    expect(await readFile(path.join(root, NFD), 'utf8')).toBe('espresso notes\n');
    const created = await run({ command: 'create', path: `/memories/${DIR_NFC}/b.md`, file_text: 'b\n' });
    expect(created.isError).toBe(false);
    expect(await names(path.join(root, DIR_NFD))).toEqual(['a.md', 'b.md']);
    expect(await names()).toEqual([NFD, DIR_NFD].sort());
  });

  test('the user can save, rename and delete it, and history follows the NFC path', async () => {
    const file = await memory.read(`/memories/${NFC}`);
    await memory.write(`/memories/${NFC}`, 'tea now\n', file.version, user);
    expect(await readFile(path.join(root, NFD), 'utf8')).toBe('tea now\n');
    expect((await memory.history(`/memories/${NFD}`)).length).toBeGreaterThan(0);
    await memory.rename(`/memories/${NFC}`, '/memories/plain.md', user);
    expect(await names()).toEqual([DIR_NFD, 'plain.md'].sort());
    await memory.rename(`/memories/${DIR_NFC}/a.md`, `/memories/${DIR_NFC}/c.md`, user);
    expect(await names(path.join(root, DIR_NFD))).toEqual(['c.md']);
    await memory.delete(`/memories/${DIR_NFC}`, user);
    expect(await names()).toEqual(['plain.md']);
    const restored = (await memory.deleted()).find((e) => e.path === `/memories/${DIR_NFC}/c.md`);
    expect(restored).toBeDefined();
  });

  test('a new file whose name differs only in Unicode form is the existing one, not a second file', async () => {
    await expect(memory.create(`/memories/${NFC}`, 'other\n', user)).rejects.toMatchObject({
      code: 'exists',
    });
    expect(await names()).toEqual([NFD, DIR_NFD].sort());
  });

  test('a copy made by another program later is picked up by the watcher under its NFC path', async () => {
    await reopen({ watch: true });
    await writeFile(path.join(root, DIR_NFD, 'late\u0301.md'), 'late\n');
    await vi.waitFor(
      async () => expect((await memory.list()).map((e) => e.path)).toContain(`/memories/${DIR_NFC}/laté.md`),
      { timeout: 8000, interval: 100 },
    );
    expect((await memory.read(`/memories/${DIR_NFC}/laté.md`)).content).toBe('late\n');
    const external = (await memory.journal()).find((e) => e.path === `/memories/${DIR_NFC}/laté.md`);
    expect(external?.actor).toBe('external');
  });
});

describe('names that cannot be used are reported, never silently merged or dropped', () => {
  beforeEach(async () => {
    await writeFile(path.join(root, NFC), 'composed\n');
    await writeFile(path.join(root, NFD), 'decomposed\n');
    await writeFile(Buffer.concat([Buffer.from(root + path.sep), NOT_UTF8]), 'bytes\n');
    await mkdir(Buffer.concat([Buffer.from(root + path.sep), Buffer.from([0x64, 0xff])]));
    await link(path.join(s.outside, 'secret.txt'), path.join(root, 'hard.md'));
    await symlink(path.join(s.outside, 'secret.txt'), path.join(root, 'sym.md'));
    await writeFile(path.join(root, 'binary.md'), Buffer.from([0xc3, 0x28, 0x00]));
    await writeFile(path.join(root, 'ok.md'), 'fine\n');
    await writeFile(path.join(root, '50%.md'), 'percent\n');
    await mkdir(path.join(root, 'CON'));
    await writeFile(path.join(root, 'CON', 'inside.md'), 'device\n');
    await reopen();
  });

  test('the NFC-named twin is the file; the other and every unusable name are reported with a reason', async () => {
    expect((await memory.read(`/memories/${NFC}`)).content).toBe('composed\n');
    expect((await memory.list()).map((e) => e.path)).toEqual([
      '/memories/binary.md',
      `/memories/${NFC}`,
      '/memories/ok.md',
    ]);
    const report = await memory.unreachable();
    const byPath = Object.fromEntries(report.map((u) => [u.path, u.reason]));
    expect(Object.keys(byPath).sort()).toEqual(
      [
        `/memories/${NFD}`,
        '/memories/f\ufffd\ufffd.md',
        '/memories/d\ufffd/',
        '/memories/hard.md',
        '/memories/sym.md',
        '/memories/50%.md',
        '/memories/CON/',
      ].sort(),
    );
    expect(byPath['/memories/50%.md']).toMatch(/cannot be a memory path.*"%" is not allowed/);
    expect(byPath['/memories/CON/']).toMatch(/reserved device name.*Nothing in this folder/);
    expect(byPath[`/memories/${NFD}`]).toMatch(/same once both are in Unicode NFC/);
    expect(byPath['/memories/f\ufffd\ufffd.md']).toMatch(/not valid UTF-8/);
    expect(byPath['/memories/d\ufffd/']).toMatch(/Nothing in this folder is included/);
    expect(byPath['/memories/hard.md']).toMatch(/more than one hard link/);
    expect(byPath['/memories/sym.md']).toMatch(/symbolic link/);
    for (const reason of Object.values(byPath)) expect(reason).not.toContain(s.base);
  });

  test('the export zip holds every listed file or names it in skipped, with why', async () => {
    const archive = await exportMemory(memory, { includeJournal: false });
    const zip = unzipSync(archive.data);
    expect(Object.keys(zip).sort()).toEqual([`memories/${NFC}`, 'memories/ok.md']);
    expect(new TextDecoder().decode(zip[`memories/${NFC}`])).toBe('composed\n');
    const skipped = Object.fromEntries(archive.skipped.map((e) => [e.path, e.reason]));
    expect(Object.keys(skipped).sort()).toEqual(
      [
        'memories/binary.md',
        `memories/${NFD}`,
        'memories/f\ufffd\ufffd.md',
        'memories/d\ufffd/',
        'memories/hard.md',
        'memories/sym.md',
        'memories/50%.md',
        'memories/CON/',
      ].sort(),
    );
    expect(skipped['memories/binary.md']).toMatch(/UTF-8/);
    // Nothing the panel shows is missing without a word.
    for (const entry of await memory.list()) {
      const name = `memories/${entry.path.slice('/memories/'.length)}`;
      if (entry.kind === 'file') expect(name in zip || name in skipped).toBe(true);
    }
  });
});

test('names planted while the app runs are reported by the watcher too', async () => {
  await reopen({ watch: true });
  await mkdir(path.join(root, 'sub'));
  await vi.waitFor(async () => expect((await memory.list()).map((e) => e.path)).toContain('/memories/sub'), {
    timeout: 8000,
    interval: 100,
  });
  await writeFile(Buffer.concat([Buffer.from(path.join(root, 'sub') + path.sep), NOT_UTF8]), 'bytes\n');
  await writeFile(path.join(root, 'sub', '50%.md'), 'percent\n');
  await vi.waitFor(
    async () =>
      expect((await memory.unreachable()).map((u) => u.path).sort()).toEqual([
        '/memories/sub/50%.md',
        '/memories/sub/f\ufffd\ufffd.md',
      ]),
    { timeout: 8000, interval: 100 },
  );
  expect((await memory.list()).map((e) => e.path)).toEqual(['/memories/sub']);
});

test('an NFD file exports under its NFC name and its content', async () => {
  await writeFile(path.join(root, NFD), 'coffee\n');
  await reopen();
  const archive = await exportMemory(memory, { includeJournal: true });
  const zip = unzipSync(archive.data);
  expect(new TextDecoder().decode(zip[`memories/${NFC}`])).toBe('coffee\n');
  expect(archive.skipped).toEqual([]);
  expect(archive.files).toBe(1);
});

describe('property: every name on disk is reachable by its NFC path or reported, never both, never lost', () => {
  // Pieces with several Unicode forms: composed and decomposed é, Hangul syllable and jamo, Å and the
  // Angstrom sign (which NFC turns into Å).
  const pieces = ['a', 'b', 'é', 'e\u0301', '가', '\u1100\u1161', 'Å', 'A\u030a', '\u212b'];
  const nameArb = fc
    .array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 3 })
    .map((p) => `${p.join('')}.md`);

  test('planted names, then read, list, unreachable and a write through the NFC path', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(nameArb, { minLength: 1, maxLength: 6 }), async (planted) => {
        const dir = path.join(root, `p${Math.random().toString(36).slice(2, 8)}`);
        await mkdir(dir);
        for (const [i, name] of planted.entries()) await writeFile(path.join(dir, name), `file ${i}\n`);
        await reopen();
        const folder = `/memories/${path.basename(dir)}`;
        const groups = new Map<string, string[]>();
        for (const name of planted) {
          const key = name.normalize('NFC');
          groups.set(key, [...(groups.get(key) ?? []), name]);
        }
        const listed = (await memory.list()).map((e) => e.path).filter((p) => p.startsWith(`${folder}/`));
        expect(listed.sort()).toEqual([...groups.keys()].map((k) => `${folder}/${k}`).sort());
        const reported = (await memory.unreachable()).map((u) => u.path);
        for (const [key, names] of groups) {
          const sorted = [...names].sort();
          const winner = names.includes(key) ? key : sorted[0]!;
          const content = `file ${planted.indexOf(winner)}\n`;
          for (const form of [key, key.normalize('NFD')])
            expect((await memory.read(`${folder}/${form}`)).content).toBe(content);
          for (const loser of names.filter((n) => n !== winner))
            expect(reported).toContain(`${folder}/${loser}`);
          expect(reported).not.toContain(`${folder}/${winner}`);
        }
        const [key, names] = [...groups][0]!;
        const winner = names.includes(key) ? key : [...names].sort()[0]!;
        const before = (await readdir(dir)).sort();
        const file = await memory.read(`${folder}/${key}`);
        await memory.write(`${folder}/${key}`, 'rewritten\n', file.version, user);
        expect((await readdir(dir)).sort()).toEqual(before);
        expect(await readFile(path.join(dir, winner), 'utf8')).toBe('rewritten\n');
      }),
      { numRuns: 25 },
    );
  });
});
