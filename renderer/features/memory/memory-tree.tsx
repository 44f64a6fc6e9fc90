// The memory folder as a tree: one row per folder and file, with size and last-read/last-written times,
// stale files flagged. Each file row is a list item named by its path with "Open" and "Delete" buttons.
// Long listings are virtualized (only the visible rows are in the DOM), so 5,000 files stay fast, and a
// long listing's first render (a space switch mounts the tree with the whole list) lays out the first
// screen of rows at once and the full list in a render React may interrupt, so the page thread is free
// for the conversation list and for typing meanwhile.
import { Button } from '../../components/button';
import { memo, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import type { MemoryEntry } from '../../../shared/channels/memory';
import { buildTree, type TreeRow } from './tree';
import { formatAbsolute, formatBytes, formatRelative } from './format';

/** Below this many rows everything is rendered (no measuring needed, e.g. in jsdom). */
export const VIRTUALIZE_ABOVE = 150;
const ROW_HEIGHT = 52;
/** Rows in the first render of a long listing: more than a tall window shows (ROW_HEIGHT each). */
const FIRST_SCREEN = 40;
const FALLBACK_RECT = { width: 320, height: 600 };

export interface MemoryTreeProps {
  entries: readonly MemoryEntry[];
  collapsed: ReadonlySet<string>;
  selected: string | null;
  onToggle: (path: string) => void;
  onOpen: (path: string) => void;
  onDelete: (path: string) => void;
}

export function MemoryTree({ entries, collapsed, selected, onToggle, onOpen, onDelete }: MemoryTreeProps) {
  const rows = useMemo(() => buildTree(entries, collapsed), [entries, collapsed]);
  const now = useNow();
  const props = { selected, onToggle, onOpen, onDelete, now };
  const long = rows.length > VIRTUALIZE_ABOVE;
  // On mount: the first screen's rows (the same rows, in the same places), then all of them, deferred
  // (a later change, such as a folder closed, also shows in a render React may interrupt). The count
  // covers every row drawn, the old ones too while the new ones are on their way.
  const shown = useDeferredValue(rows, long ? rows.slice(0, FIRST_SCREEN) : rows);
  const total = Math.max(shown.length, rows.length);
  if (long) return <VirtualRows rows={shown} total={total} {...props} />;
  return (
    <ul className="mp-tree" aria-label="Memory files">
      {rows.map((row, index) => (
        <Row key={row.path} row={row} index={index} total={rows.length} {...props} />
      ))}
    </ul>
  );
}

interface RowProps {
  row: TreeRow;
  index: number;
  total: number;
  selected: string | null;
  now: number;
  onToggle: (path: string) => void;
  onOpen: (path: string) => void;
  onDelete: (path: string) => void;
  style?: React.CSSProperties;
}

const Row = memo(function Row({
  row,
  index,
  total,
  selected,
  now,
  onToggle,
  onOpen,
  onDelete,
  style,
}: RowProps) {
  const indent = { paddingInlineStart: `${8 + row.depth * 16}px` };
  if (row.kind === 'dir') {
    return (
      <li
        className="mp-row mp-row--dir"
        aria-label={row.path}
        aria-posinset={index + 1}
        aria-setsize={total}
        style={{ ...style, ...indent }}
      >
        <button
          type="button"
          className="mp-row__toggle"
          aria-expanded={row.expanded}
          onClick={() => onToggle(row.path)}
        >
          <span className="mp-row__chevron" aria-hidden="true">
            {row.expanded ? '▾' : '▸'}
          </span>
          <span className="mp-row__name">{row.name}/</span>
        </button>
        <span className="mp-row__meta">
          {row.fileCount} {row.fileCount === 1 ? 'file' : 'files'} · {formatBytes(row.size)}
        </span>
        <span className="mp-row__actions">
          <Button size="sm" variant="ghost" className="mp-danger-text" onClick={() => onDelete(row.path)}>
            Delete
          </Button>
        </span>
      </li>
    );
  }
  const entry = row.entry!;
  const isSelected = selected === row.path;
  return (
    <li
      className={isSelected ? 'mp-row mp-row--file mp-row--selected' : 'mp-row mp-row--file'}
      aria-label={row.path}
      aria-current={isSelected ? 'true' : undefined}
      aria-posinset={index + 1}
      aria-setsize={total}
      style={{ ...style, ...indent }}
      onDoubleClick={() => onOpen(row.path)}
    >
      <div className="mp-row__main">
        {/* Clicking the name opens the file, as people expect; the row's Open button stays the keyboard
            path, so the name is not a second tab stop. */}
        <button
          type="button"
          className="mp-row__name mp-row__name--link"
          title={row.path}
          tabIndex={-1}
          onClick={() => onOpen(row.path)}
        >
          {row.name}
        </button>
        {entry.stale && (
          <span className="mp-badge mp-badge--warning" title="Not read in a long time: review it">
            Stale
          </span>
        )}
        <span className="mp-row__meta">
          {formatBytes(entry.size)} ·{' '}
          <span title={`Last written ${formatAbsolute(entry.modifiedAt)}`}>
            written {formatRelative(entry.modifiedAt, now)}
          </span>{' '}
          ·{' '}
          <span title={`Last read ${formatAbsolute(entry.lastReadAt)}`}>
            {entry.lastReadAt ? `read ${formatRelative(entry.lastReadAt, now)}` : 'never read'}
          </span>
        </span>
      </div>
      <div className="mp-row__actions">
        <Button size="sm" onClick={() => onOpen(row.path)}>
          Open
        </Button>
        <Button size="sm" variant="ghost" className="mp-danger-text" onClick={() => onDelete(row.path)}>
          Delete
        </Button>
      </div>
    </li>
  );
});

function VirtualRows({
  rows,
  total,
  ...props
}: { rows: TreeRow[]; total: number } & Omit<RowProps, 'row' | 'index' | 'total'>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The virtualizer hands back functions React Compiler cannot memoize; it is used the documented way.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    initialRect: FALLBACK_RECT,
    // A hidden tab (display: none) or a DOM without layout measures 0×0: keep a screenful of rows
    // rendered rather than none, so the list never flashes empty when the tab is shown.
    observeElementRect: (instance, cb) =>
      observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : FALLBACK_RECT)),
  });
  return (
    <div ref={scrollRef} className="mp-tree-scroll">
      <ul
        className="mp-tree mp-tree--virtual"
        aria-label="Memory files"
        // Every row's height is known, so the scroll range is the whole list's from the first render.
        style={{ height: Math.max(virtualizer.getTotalSize(), total * ROW_HEIGHT) }}
      >
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <Row
              key={row.path}
              row={row}
              index={item.index}
              total={total}
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
              {...props}
            />
          );
        })}
      </ul>
    </div>
  );
}

/** The current time, refreshed each minute so "written 3 min ago" stays true without re-rendering rows. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
