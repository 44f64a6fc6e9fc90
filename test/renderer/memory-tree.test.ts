// The tree's pure parts: folders before files, natural order, collapsed folders hide their rows, sizes and
// counts roll up; and the search snippet highlighter's handling of hostile ranges.
import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../shared/channels/memory';
import { buildTree, sortKey } from '../../renderer/features/memory/tree';
import { highlightSegments } from '../../renderer/features/memory/highlight';

const file = (path: string, size = 10): MemoryEntry => ({
  path,
  kind: 'file',
  size,
  modifiedAt: '2026-01-01T00:00:00Z',
  lastReadAt: null,
  stale: false,
});

describe('buildTree', () => {
  it('orders folders first, then files, naturally and case-insensitively', () => {
    const rows = buildTree([
      file('/memories/note-10.md'),
      file('/memories/Note-2.md'),
      file('/memories/b/x.md', 5),
      file('/memories/a/y.md', 7),
      file('/memories/a/deep/z.md', 1),
    ]);
    expect(rows.map((r) => `${'  '.repeat(r.depth)}${r.name}`)).toEqual([
      'a',
      '  deep',
      '    z.md',
      '  y.md',
      'b',
      '  x.md',
      'Note-2.md',
      'note-10.md',
    ]);
    const a = rows.find((r) => r.path === '/memories/a')!;
    expect([a.fileCount, a.size]).toEqual([2, 8]);
  });

  it('hides the rows of collapsed folders', () => {
    const rows = buildTree([file('/memories/a/y.md'), file('/memories/top.md')], new Set(['/memories/a']));
    expect(rows.map((r) => r.path)).toEqual(['/memories/a', '/memories/top.md']);
    expect(rows[0]!.expanded).toBe(false);
  });

  it('sort keys order digits by value', () => {
    expect(['x-10', 'x-9', 'X-100'].sort((p, q) => (sortKey(p) < sortKey(q) ? -1 : 1))).toEqual([
      'x-9',
      'x-10',
      'X-100',
    ]);
  });
});

describe('highlightSegments', () => {
  it('merges overlapping, unsorted and out-of-range ranges; every character appears once', () => {
    const snippet = 'green tea and black tea';
    const segments = highlightSegments(snippet, [
      [20, 99],
      [6, 9],
      [7, 8],
      [-5, 0],
    ]);
    expect(segments.map((s) => s.text).join('')).toBe(snippet);
    expect(segments.filter((s) => s.hit).map((s) => s.text)).toEqual(['tea', 'tea']);
  });

  it('returns the plain snippet without ranges', () => {
    expect(highlightSegments('abc', [])).toEqual([{ text: 'abc', hit: false }]);
  });
});
