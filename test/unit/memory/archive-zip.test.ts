import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ArchiveError,
  defaultArchiveLimits,
  readSource,
  readZip,
  type ArchiveLimits,
} from '../../../memory/archive/index.js';
import { overlappingZip, rawZip, unixMode, zip64Zip } from './archive-raw-zip.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mnemo-zip-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every archive goes to disk and is read back, as the import does with a real file. */
async function onDisk(name: string, data: Uint8Array): Promise<Uint8Array> {
  const file = path.join(dir, name.replace(/[^a-z0-9-]/gi, '_') + '.zip');
  await writeFile(file, data);
  return new Uint8Array(await readFile(file));
}

function readAll(data: Uint8Array, limits: ArchiveLimits = defaultArchiveLimits): string[] {
  return readZip(data, limits).map((e) => {
    if (!e.isDir) e.read();
    return e.name;
  });
}

const small: ArchiveLimits = {
  ...defaultArchiveLimits,
  maxEntryBytes: 64 * 1024,
  maxTotalBytes: 256 * 1024,
  maxEntries: 50,
};
const enc = new TextEncoder();
const zeros = new Uint8Array(8 * 1024 * 1024);

// [label, archive, message fragment]
const hostile: [string, () => Uint8Array, string][] = [
  ['parent traversal', () => rawZip([{ name: '../evil.md', content: 'x' }]), 'climbs out of the folder'],
  ['nested traversal', () => rawZip([{ name: 'memories/../../evil.md', content: 'x' }]), 'climbs out'],
  ['traversal at the end', () => rawZip([{ name: 'a/..', content: 'x' }]), 'climbs out'],
  ['absolute path', () => rawZip([{ name: '/etc/cron.d/evil', content: 'x' }]), 'is an absolute path'],
  ['drive letter with slash', () => rawZip([{ name: 'C:/Windows/evil.md', content: 'x' }]), 'drive letter'],
  ['drive-relative name', () => rawZip([{ name: 'c:evil.md', content: 'x' }]), 'drive letter'],
  ['backslash traversal', () => rawZip([{ name: 'notes\\..\\..\\evil.md', content: 'x' }]), 'backslashes'],
  ['backslash separator', () => rawZip([{ name: 'a\\b.md', content: 'x' }]), 'backslashes'],
  ['control character', () => rawZip([{ name: 'a\u0001b.md', content: 'x' }]), 'control characters'],
  ['NUL in name', () => rawZip([{ name: 'a.md\u0000.txt', content: 'x' }]), 'control characters'],
  [
    'symlink (fflate attrs)',
    () => zipSync({ 'link.md': [enc.encode('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }] }),
    'is a symbolic link',
  ],
  [
    'symlink named like a note',
    () => rawZip([{ name: 'notes.md', content: '../../.ssh/id_rsa', ...unixMode(0o120644) }]),
    'symbolic link',
  ],
  ['symlink folder', () => rawZip([{ name: 'docs/', content: '', ...unixMode(0o120755) }]), 'symbolic link'],
  [
    'character device',
    () => rawZip([{ name: 'tty.md', content: '', ...unixMode(0o020644) }]),
    'special file',
  ],
  ['fifo', () => rawZip([{ name: 'pipe.md', content: '', ...unixMode(0o010644) }]), 'special file'],
  [
    'duplicate names',
    () =>
      rawZip([
        { name: 'a.md', content: 'one' },
        { name: 'a.md', content: 'two' },
      ]),
    'holds "a.md" twice',
  ],
  [
    'duplicate folder and file',
    () =>
      rawZip([
        { name: 'a/', content: '' },
        { name: 'a', content: 'two' },
      ]),
    'twice',
  ],
  [
    'non-UTF-8 name without flag',
    () => rawZip([{ name: new Uint8Array([0x6e, 0xe9, 0x2e, 0x6d, 0x64]), flags: 0, content: 'x' }]),
    'not valid UTF-8',
  ],
  [
    'non-UTF-8 name with UTF-8 flag',
    () => rawZip([{ name: new Uint8Array([0xff, 0xfe, 0x61]), content: 'x' }]),
    'not valid UTF-8',
  ],
  [
    'honest bomb above the entry limit',
    () => zipSync({ 'big.md': zeros.subarray(0, 1024 * 1024) }),
    'above the 65536-byte limit per entry',
  ],
  ['bomb lying about its size', () => rawZip([{ name: 'bomb.md', content: zeros, size: 100 }]), 'zip bomb'],
  ['bomb lying, declared zero', () => rawZip([{ name: 'bomb.md', content: zeros, size: 0 }]), 'zip bomb'],
  [
    'stored entry longer than declared',
    () => rawZip([{ name: 's.md', content: 'abcdef', stored: true, size: 3 }]),
    'zip bomb',
  ],
  [
    'total size above the limit',
    () =>
      rawZip(
        Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.md`, content: zeros.subarray(0, 60 * 1024) })),
      ),
    'unpack to more than 262144 bytes',
  ],
  [
    'too many entries',
    () => rawZip(Array.from({ length: 51 }, (_, i) => ({ name: `f${i}.md`, content: 'x' }))),
    '51 entries, above the limit of 50',
  ],
  ['overlapping entries', overlappingZip, 'overlap'],
  [
    'local name differs from directory name',
    () => rawZip([{ name: 'ok.md', localName: '../x.md', content: 'x' }]),
    'different name',
  ],
  ['zip64', zip64Zip, 'ZIP64'],
  ['multi-disk', () => rawZip([{ name: 'a.md', content: 'x' }], { disk: 1 }), 'multi-part'],
  ['not a zip', () => enc.encode('just some text, no archive here at all'), 'not a ZIP archive'],
  ['too short', () => new Uint8Array([0x50, 0x4b]), 'too short'],
  [
    'truncated',
    () => rawZip([{ name: 'a.md', content: 'hello world '.repeat(50) }]).subarray(0, 80),
    'not a ZIP archive',
  ],
  ['checksum mismatch', () => rawZip([{ name: 'a.md', content: 'hello', crc: 1234 }]), 'checksum'],
  [
    'corrupt deflate data',
    () => rawZip([{ name: 'a.md', raw: new Uint8Array([0xff, 0xff, 0xff, 0xff]), size: 5 }]),
    'cannot be decompressed',
  ],
  [
    'data cut off before the directory',
    () => rawZip([{ name: 'a.md', content: 'hello', compressedSize: 5000 }]),
    'cut off',
  ],
];

describe('readZip refuses hostile archives', () => {
  test.each(hostile)('%s', async (label, make, fragment) => {
    const data = await onDisk(label, make());
    let error: unknown;
    try {
      readAll(data, small);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as Error).message).toContain(fragment);
    expect((error as Error).message).not.toContain(dir);
  });

  test('at least 30 hostile cases', () => {
    expect(hostile.length).toBeGreaterThanOrEqual(30);
  });
});

describe('readZip reads good archives', () => {
  test('fflate zips with folders, unicode names and stored entries', async () => {
    const data = await onDisk(
      'good',
      zipSync({
        memories: {},
        'memories/notes/a.md': enc.encode('# A\n'),
        'memories/café.md': [enc.encode('ok'), { level: 0 }],
      }),
    );
    const entries = readZip(data, defaultArchiveLimits);
    expect(entries.map((e) => [e.name, e.isDir])).toEqual([
      ['memories/', true],
      ['memories/notes/a.md', false],
      ['memories/café.md', false],
    ]);
    expect(new TextDecoder().decode(entries[1]?.read())).toBe('# A\n');
    expect(new TextDecoder().decode(entries[2]?.read())).toBe('ok');
  });

  test('a highly compressible but honest entry within the limits inflates', async () => {
    const data = await onDisk('honest', zipSync({ 'z.md': zeros.subarray(0, 60 * 1024) }));
    expect(readZip(data, small)[0]?.read().length).toBe(60 * 1024);
  });

  test('encrypted and unknown-method entries are flagged for per-entry refusal', async () => {
    const data = await onDisk(
      'flags',
      rawZip([
        { name: 'secret.md', content: 'x', flags: 0x0801 },
        { name: 'bz.md', content: 'x', stored: true, method: 12 },
      ]),
    );
    const entries = await readSource({ kind: 'zip', name: 'flags.zip', data }, defaultArchiveLimits);
    expect(entries.map((e) => [e.name, e.refusal])).toEqual([
      ['secret.md', 'The entry is encrypted; encrypted entries cannot be imported.'],
      ['bz.md', 'The entry uses an unsupported compression method (12).'],
    ]);
  });
});

describe('readSource', () => {
  test('strips the export top folder, keeps the journal and litter visible for the preview', async () => {
    const data = zipSync({
      'memories/a.md': enc.encode('a'),
      'memories/sub/b.md': enc.encode('b'),
      '.mnemo-journal/log.jsonl': enc.encode('{}'),
      '__MACOSX/._a.md': enc.encode('x'),
    });
    const entries = await readSource({ kind: 'zip', name: 'x.zip', data }, defaultArchiveLimits);
    expect(entries.map((e) => e.name).sort()).toEqual([
      '.mnemo-journal/log.jsonl',
      '__MACOSX/._a.md',
      'a.md',
      'sub/b.md',
    ]);
  });

  test('a folder: files and folders, links refused per entry, never followed', async () => {
    const src = path.join(dir, 'folder-src');
    const outside = path.join(dir, 'outside.md');
    await writeFile(outside, 'outside secret');
    await mkdir(path.join(src, 'memories', 'sub'), { recursive: true });
    await writeFile(path.join(src, 'memories', 'a.md'), 'A');
    await writeFile(path.join(src, 'memories', 'sub', 'b.md'), 'B');
    await symlink(outside, path.join(src, 'memories', 'link.md'));
    await symlink(dir, path.join(src, 'memories', 'linkdir'));
    const entries = await readSource({ kind: 'folder', path: src }, defaultArchiveLimits);
    const summary = entries.map((e) => [e.name, e.isDir, e.refusal !== undefined]);
    expect(summary).toEqual([
      ['a.md', false, false],
      ['link.md', false, true],
      ['linkdir', false, true],
      ['sub', true, false],
      ['sub/b.md', false, false],
    ]);
    const b = entries.find((e) => e.name === 'sub/b.md');
    expect(new TextDecoder().decode(await b?.read())).toBe('B');
  });

  test('a folder that is not there, or too deep, or too big, is refused whole', async () => {
    await expect(
      readSource({ kind: 'folder', path: path.join(dir, 'missing') }, defaultArchiveLimits),
    ).rejects.toThrow('cannot be read');
    const deep = path.join(dir, 'deep');
    await mkdir(path.join(deep, 'a', 'b', 'c', 'd'), { recursive: true });
    await expect(
      readSource({ kind: 'folder', path: deep }, { ...defaultArchiveLimits, maxDepth: 2 }),
    ).rejects.toThrow('deeper than 2 levels');
    await expect(
      readSource({ kind: 'folder', path: deep }, { ...defaultArchiveLimits, maxEntries: 2 }),
    ).rejects.toThrow('more than 2 entries');
  });
});
