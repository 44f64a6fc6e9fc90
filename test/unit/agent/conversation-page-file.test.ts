// The page sidecar (electron/core/conversations/page-file.ts): a first line of JSON and the turn table as
// bytes. One cut, grown, of another version or describing another file is not used (the file is replayed
// instead), a well-formed one reads back as written, and a turn whose numbers are out of shape (offsets
// not increasing or outside the file, a turn of no entry) is refused where a page would use it.
import { mkdtempSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type PageFile,
  TurnTable,
  pageFileOf,
  readPageFile,
  writePageFile,
} from '../../../electron/core/conversations/page-file.js';

const stamp = { size: 1_000, ino: 7, mtimeMs: 1_700_000_000_000 };
const rows = [
  { offset: 0, entries: 2, items: 2 },
  { offset: 120, entries: 1, items: 2 },
  { offset: 300, entries: 3, items: 4 },
];
const file: PageFile = { stamp, pinned: ['m2'], turns: TurnTable.of(rows), context: { n: 1 } };

const turnsOf = (f: PageFile | null) =>
  f &&
  Array.from({ length: f.turns.length }, (_, t) => ({
    offset: f.turns.offset(t),
    entries: f.turns.entries(t),
    items: f.turns.items(t),
  }));

describe('a page sidecar read back', () => {
  it('is used as written, and not used cut, grown, of another version or for another file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-page-file-'));
    await writePageFile(dir, 'c1', file);
    const read = await readPageFile(dir, 'c1', stamp);
    expect(turnsOf(read)).toEqual(rows);
    expect(read).toMatchObject({ stamp, pinned: ['m2'], context: { n: 1 } });
    expect(read!.turns.sound(0, 3, stamp.size)).toBe(true);
    const saved = await readFile(pageFileOf(dir, 'c1'));
    const newline = saved.indexOf(0x0a);
    const head = JSON.parse(saved.toString('utf8', 0, newline)) as Record<string, unknown>;
    const withHead = (h: Record<string, unknown>) =>
      Buffer.concat([Buffer.from(`${JSON.stringify(h)}\n`), saved.subarray(newline + 1)]);
    const faults: [string, Buffer][] = [
      ['cut', saved.subarray(0, saved.length - 5)],
      ['grown', Buffer.concat([saved, Buffer.alloc(16)])],
      ['no first line', saved.subarray(0, newline)],
      ['version 2', withHead({ ...head, v: 2 })],
      ['another id', withHead({ ...head, id: 'c2' })],
      ['more turns said', withHead({ ...head, turns: 4 })],
      ['a count that is not one', withHead({ ...head, turns: 1.5 })],
    ];
    for (const [what, bytes] of faults) {
      await writeFile(pageFileOf(dir, 'c1'), bytes);
      expect(await readPageFile(dir, 'c1', stamp), what).toBeNull();
    }
    await writeFile(pageFileOf(dir, 'c1'), saved);
    expect(await readPageFile(dir, 'c1', { ...stamp, size: 1_001 })).toBeNull();
  });

  it('refuses turns out of shape where a page would use them', () => {
    const table = (changed: Partial<(typeof rows)[number]>, at: number) =>
      TurnTable.of(rows.map((r, i) => (i === at ? { ...r, ...changed } : r)));
    expect(table({ offset: 120 }, 2).sound(0, 3, stamp.size)).toBe(false);
    expect(table({ offset: 100 }, 2).sound(0, 3, stamp.size)).toBe(false);
    expect(table({ offset: 1_000 }, 2).sound(0, 3, stamp.size)).toBe(false);
    expect(table({ offset: 10.5 }, 1).sound(0, 3, stamp.size)).toBe(false);
    expect(table({ entries: 0 }, 1).sound(0, 3, stamp.size)).toBe(false);
    // Only the turns asked about count.
    expect(table({ entries: 0 }, 0).sound(1, 3, stamp.size)).toBe(true);
  });
});
