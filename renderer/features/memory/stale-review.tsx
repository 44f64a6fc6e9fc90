// Stale files (not read in a long time, per the staleAfterDays setting) listed for review: open to check,
// delete (undoable) or forget permanently.
import { Button } from '../../components/button';
import { useState } from 'react';
import { openFile, useMemoryStore } from '../../store/memory';
import { formatRelative } from './format';

export function StaleReview({ onDelete }: { onDelete: (path: string) => void }) {
  const stale = useMemoryStore((s) => s.stale);
  const [open, setOpen] = useState(false);
  if (stale.length === 0) return null;
  return (
    <section className="mp-stale" aria-label="Stale files">
      <button type="button" className="mp-stale__toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="mp-badge mp-badge--warning">{stale.length}</span>{' '}
        {stale.length === 1 ? 'file has' : 'files have'} not been read in a long time.{' '}
        {open ? 'Hide' : 'Review'}
      </button>
      {open && (
        <ul className="mp-stale__list">
          {stale.map((entry) => (
            <li key={entry.path} className="mp-stale__item" aria-label={`Stale: ${entry.path}`}>
              <span className="mp-row__name">{entry.path}</span>
              <span className="mp-row__meta">
                {entry.lastReadAt ? `read ${formatRelative(entry.lastReadAt)}` : 'never read'}
              </span>
              <span className="mp-row__actions">
                <Button size="sm" onClick={() => void openFile(entry.path)}>
                  Review
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  className="mp-danger-text"
                  onClick={() => onDelete(entry.path)}
                >
                  Delete
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
