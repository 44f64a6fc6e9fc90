// The list of spaces in the switcher: a listbox (one tab stop, arrow keys, Home/End, type-ahead by first
// letter), the current space marked selected. Enter picks; F2 renames and Delete deletes the highlighted
// one. Counts are shown once known, in a slot that is always there, so nothing moves when they arrive.
import { useEffect, useRef, type ReactElement } from 'react';
import type { SpaceView } from './use-spaces';

export interface SpaceListProps {
  spaces: readonly SpaceView[];
  currentId: string;
  activeId: string;
  onActive: (id: string) => void;
  onPick: (id: string) => void;
  onRename: (id: string) => void;
  onDelete: (id: string) => void;
  /** The pointer rests on a space (the switcher opens it in the backend ahead of a click). */
  onHover?: (id: string) => void;
}

export function countsText(space: SpaceView): string {
  if (space.conversations === undefined || space.memoryFiles === undefined) return 'Counting…';
  const c = space.conversations;
  const m = space.memoryFiles;
  return `${c} ${c === 1 ? 'conversation' : 'conversations'} · ${m} ${m === 1 ? 'memory file' : 'memory files'}`;
}

export function SpaceList({
  spaces,
  currentId,
  activeId,
  onActive,
  onPick,
  onRename,
  onDelete,
  onHover,
}: SpaceListProps): ReactElement {
  const ref = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const options = ref.current?.querySelectorAll<HTMLElement>('[role="option"]') ?? [];
    [...options].find((o) => o.dataset.space === activeId)?.focus();
    // Also once the list arrives (a window that has not loaded it yet shows it empty first).
  }, [activeId, spaces.length]);

  const onKeyDown = (e: React.KeyboardEvent): void => {
    const at = spaces.findIndex((s) => s.id === activeId);
    let next = -1;
    if (e.key === 'ArrowDown') next = Math.min(spaces.length - 1, at + 1);
    else if (e.key === 'ArrowUp') next = Math.max(0, at - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = spaces.length - 1;
    else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (at >= 0) onPick(activeId);
      return;
    } else if (e.key === 'F2') {
      e.preventDefault();
      onRename(activeId);
      return;
    } else if (e.key === 'Delete') {
      e.preventDefault();
      onDelete(activeId);
      return;
    } else if (e.key.length === 1 && /\S/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
      const key = e.key.toLowerCase();
      const order = [...spaces.slice(at + 1), ...spaces.slice(0, at + 1)];
      const hit = order.find((s) => s.name.toLowerCase().startsWith(key));
      if (hit) next = spaces.indexOf(hit);
    }
    if (next < 0) return;
    e.preventDefault();
    onActive(spaces[next]!.id);
  };

  return (
    <ul ref={ref} className="sp-list" role="listbox" aria-label="Spaces" onKeyDown={onKeyDown}>
      {spaces.map((s) => (
        <li
          key={s.id}
          role="option"
          data-space={s.id}
          aria-selected={s.id === currentId}
          tabIndex={s.id === activeId ? 0 : -1}
          className={`sp-option${s.id === activeId ? ' is-active' : ''}`}
          onClick={() => onPick(s.id)}
          onFocus={() => s.id !== activeId && onActive(s.id)}
          onMouseEnter={() => onHover?.(s.id)}
        >
          <span className="sp-dot" style={{ background: s.colour }} aria-hidden="true" />
          <span className="sp-option-text">
            <span className="sp-option-name">{s.name}</span>
            <span className="sp-option-counts">{countsText(s)}</span>
          </span>
          <span className="sp-check" aria-hidden="true">
            {s.id === currentId ? '✓' : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}
