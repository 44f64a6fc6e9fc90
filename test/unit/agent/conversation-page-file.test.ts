// The page sidecar's reader (electron/core/conversations/page-file.ts) checks every turn's numbers in one
// pass: a sidecar whose counts are not counts, whose offsets do not increase or with a turn of no entry is
// not used (the file is replayed instead), while a well-formed one reads back as written.
import { mkdtempSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type PageFile,
  pageFileOf,
  readPageFile,
  writePageFile,
} from '../../../electron/core/conversations/page-file.js';

const stamp = { size: 1_000, ino: 7, mtimeMs: 1_700_000_000_000 };
const file: PageFile = {
  stamp,
  pinned: ['m2'],
  offsets: [0, 120, 300],
  entries: [2, 1, 3],
  items: [2, 2, 4],
};

describe('a page sidecar read back', () => {
  it('is used as written, and not used with a field of any turn out of shape', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-page-file-'));
    await writePageFile(dir, 'c1', file);
    expect(await readPageFile(dir, 'c1', stamp)).toEqual(file);
    const saved = JSON.parse(await readFile(pageFileOf(dir, 'c1'), 'utf8')) as Record<string, number[]>;
    const edits: [string, number, unknown][] = [
      ['items', 2, -1],
      ['items', 1, 1.5],
      ['entries', 2, '3'],
      ['entries', 1, 0],
      ['deltas', 2, 0],
      ['deltas', 1, null],
    ];
    for (const [field, turn, value] of edits) {
      const edited = { ...saved, [field]: saved[field]!.map((n, i) => (i === turn ? value : n)) };
      await writeFile(pageFileOf(dir, 'c1'), JSON.stringify(edited));
      expect(await readPageFile(dir, 'c1', stamp), `${field}[${turn}] = ${String(value)}`).toBeNull();
    }
  });
});
