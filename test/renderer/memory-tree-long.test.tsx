// A long listing (a space switch mounts the tree with 1,000 files) is first committed with a screenful of
// rows and then the whole list, deferred: the first commit must already show the rows the whole list puts
// there, say how many rows there are (aria-setsize), and span the whole list's height, so nothing moves
// when the rest arrives; and every file is still reachable by scrolling the list.
import { Profiler } from 'react';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../shared/channels/memory';
import { MemoryTree } from '../../renderer/features/memory/memory-tree';
import { buildTree } from '../../renderer/features/memory/tree';

const entries: MemoryEntry[] = Array.from({ length: 1_000 }, (_, i) => ({
  path: `/memories/topic-${String(Math.floor(i / 50)).padStart(3, '0')}/note-${String(i).padStart(5, '0')}.md`,
  kind: 'file',
  size: 10,
  modifiedAt: '2026-01-01T00:00:00Z',
  lastReadAt: null,
  stale: false,
}));

const noop = (): void => undefined;

describe('a long memory listing', () => {
  it('commits the first screen as the whole list shows it, then the rest', () => {
    const rows = buildTree(entries);
    const commits: { labels: string[]; setsize: string[]; height: string }[] = [];
    const container = document.createElement('div');
    document.body.append(container);
    render(
      <Profiler
        id="tree"
        onRender={() => {
          const items = [...container.querySelectorAll('li')];
          commits.push({
            labels: items.map((li) => li.getAttribute('aria-label')!),
            setsize: items.map((li) => li.getAttribute('aria-setsize')!),
            height: (container.querySelector('ul') as HTMLElement).style.height,
          });
        }}
      >
        <MemoryTree
          entries={entries}
          collapsed={new Set()}
          selected={null}
          onToggle={noop}
          onOpen={noop}
          onDelete={noop}
        />
      </Profiler>,
      { container },
    );
    const first = commits[0]!;
    const last = commits.at(-1)!;
    expect(first.labels.length).toBeGreaterThan(0);
    expect(first.labels).toEqual(rows.slice(0, first.labels.length).map((r) => r.path));
    expect(last.labels.slice(0, first.labels.length)).toEqual(first.labels);
    for (const commit of [first, last]) {
      expect(new Set(commit.setsize)).toEqual(new Set([String(rows.length)]));
      expect(commit.height).toBe(`${rows.length * 52}px`);
    }
    const list = screen.getByRole('list', { name: 'Memory files' });
    expect(within(list).getByRole('listitem', { name: rows[0]!.path })).toBeTruthy();
  });
});
