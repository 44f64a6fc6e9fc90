// "Recently deleted" at the foot of the switcher: the spaces in the trash, newest first, each with when it
// was deleted, until when it is kept, and Restore. The Undo toast after a delete lasts seconds; this lasts
// as long as the trash keeps the space (TRASH_KEEP_DAYS). Collapsed by default, so the switcher stays the
// list of spaces; it shows only when something is in the trash.
import { useEffect, useState, type ReactElement } from 'react';
import { Button, Icon } from '../../components';
import { formatTime } from '../../lib/format';
import { loadTrashed, restoreTrashed, useTrashed } from './use-spaces';

export function RecentlyDeleted(): ReactElement | null {
  const trashed = useTrashed();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => {
    void loadTrashed();
  }, []);
  if (trashed.length === 0) return null;
  return (
    <div className="sp-trash">
      <button
        type="button"
        className="sp-trash-toggle"
        aria-expanded={open}
        aria-controls="sp-trash-list"
        onClick={() => setOpen(!open)}
      >
        <Icon name={open ? 'chevronDown' : 'chevronRight'} size={14} />
        Recently deleted ({trashed.length})
      </button>
      {open && (
        <ul id="sp-trash-list" className="sp-trash-list" aria-label="Recently deleted">
          {trashed.map((s) => (
            <li key={`${s.id}-${s.deletedAt}`} className="sp-trash-row">
              <span className="sp-dot" style={{ background: s.colour }} aria-hidden="true" />
              <span className="sp-option-text">
                <span className="sp-option-name">{s.name}</span>
                <span className="sp-option-counts">
                  Deleted {formatTime(s.deletedAt)} · kept until {formatTime(s.keptUntil)}
                </span>
              </span>
              <Button
                size="sm"
                aria-label={`Restore ${s.name}`}
                disabled={busy !== null}
                onClick={() => {
                  setBusy(s.id);
                  void restoreTrashed(s.id, s.name).finally(() => setBusy(null));
                }}
              >
                {busy === s.id ? 'Restoring…' : 'Restore'}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
