// WAI-ARIA tabs: a tablist with roving focus (arrow keys, Home, End) and one tabpanel per tab. Panels of
// inactive tabs stay mounted but hidden when `keepMounted` is set (so a panel keeps its scroll and state).
// The tabpanel is labelled by its tab: panels inside should not add a second region with the same name.
import { useId, useRef, type ReactElement, type ReactNode } from 'react';
import './components.css';

export interface TabItem<K extends string> {
  key: K;
  label: string;
  /** Optional small count or badge after the label. */
  badge?: ReactNode;
  content: ReactNode;
}

export function Tabs<K extends string>({
  items,
  active,
  onChange,
  label,
  keepMounted = true,
  className,
}: {
  items: TabItem<K>[];
  active: K;
  onChange: (key: K) => void;
  /** Accessible name of the tablist. */
  label: string;
  keepMounted?: boolean;
  className?: string;
}): ReactElement {
  const base = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: React.KeyboardEvent): void => {
    const i = items.findIndex((t) => t.key === active);
    let next = -1;
    if (e.key === 'ArrowRight') next = (i + 1) % items.length;
    else if (e.key === 'ArrowLeft') next = (i - 1 + items.length) % items.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = items.length - 1;
    if (next < 0) return;
    e.preventDefault();
    const key = items[next]!.key;
    onChange(key);
    listRef.current?.querySelector<HTMLElement>(`[data-tab="${key}"]`)?.focus();
  };
  return (
    <div className={`tabs${className ? ` ${className}` : ''}`}>
      <div className="tab-list" role="tablist" aria-label={label} ref={listRef} onKeyDown={onKeyDown}>
        {items.map((t) => {
          const selected = t.key === active;
          return (
            <button
              key={t.key}
              type="button"
              role="tab"
              id={`${base}-tab-${t.key}`}
              data-tab={t.key}
              aria-selected={selected}
              aria-controls={`${base}-panel-${t.key}`}
              tabIndex={selected ? 0 : -1}
              className="tab"
              onClick={() => onChange(t.key)}
            >
              {t.label}
              {t.badge !== undefined && <span className="tab-badge">{t.badge}</span>}
            </button>
          );
        })}
      </div>
      {items.map((t) => {
        const selected = t.key === active;
        if (!selected && !keepMounted) return null;
        return (
          <div
            key={t.key}
            role="tabpanel"
            id={`${base}-panel-${t.key}`}
            aria-labelledby={`${base}-tab-${t.key}`}
            hidden={!selected}
            className="tab-panel"
          >
            {t.content}
          </div>
        );
      })}
    </div>
  );
}
