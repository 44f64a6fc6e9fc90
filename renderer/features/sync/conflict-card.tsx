// The memory panel's sync-conflict cards (issue 16): a file changed in the same place here and on another
// device. This device's file stays as it is until the person chooses: keep mine, keep theirs, or edit the
// merged draft (its conflict markers are a starting point only; the backend refuses to save them).
import { useEffect, useId, useState, type ReactElement } from 'react';
import type { SyncConflictDetail, SyncConflictView } from '../../../shared/channels/sync';
import { Button, DiffView, Spinner } from '../../components';
import { useSpaces } from '../../store/spaces';
import { useSync } from '../../store/sync';
import './sync.css';

export function SyncConflictCards(): ReactElement | null {
  const conflicts = useSync((s) => s.conflicts);
  const space = useSpaces((s) => s.current);
  const load = useSync((s) => s.load);
  useEffect(() => void load(), [load, space]);
  if (conflicts.length === 0) return null;
  return (
    <>
      {conflicts.map((c) => (
        <ConflictCard key={c.id} conflict={c} />
      ))}
    </>
  );
}

export function ConflictCard({ conflict }: { conflict: SyncConflictView }): ReactElement {
  const fetchDetail = useSync((s) => s.conflict);
  const resolve = useSync((s) => s.resolve);
  const [open, setOpen] = useState(false);
  const [detail, setDetail] = useState<SyncConflictDetail | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  useEffect(() => {
    if (!open || detail) return;
    let live = true;
    void fetchDetail(conflict.id).then((d) => live && setDetail(d));
    return () => {
      live = false;
    };
  }, [open, detail, fetchDetail, conflict.id]);

  const choose = async (how: { keep: 'mine' | 'theirs' } | { text: string }): Promise<void> => {
    setBusy(true);
    const done = await resolve(conflict.id, how);
    setBusy(false);
    if (!done) return;
    setEditing(null);
  };

  return (
    <section className="sync-conflict mp-stale" aria-label={`Sync conflict: ${conflict.path}`}>
      <p>
        <strong>{conflict.path}</strong> was changed in the same place here and on {conflict.device}. This
        device’s version stays until you choose.
      </p>
      {!open ? (
        <div className="sync-conflict-actions">
          <Button size="sm" onClick={() => setOpen(true)}>
            Show both versions
          </Button>
        </div>
      ) : !detail ? (
        <Spinner label="Loading the conflict" />
      ) : (
        <>
          <div className="sync-conflict-versions">
            <div>
              <h4 id={`${id}-mine`}>This device</h4>
              <pre aria-labelledby={`${id}-mine`}>{detail.mine ?? '(deleted here)'}</pre>
            </div>
            <div>
              <h4 id={`${id}-theirs`}>{conflict.device}</h4>
              <pre aria-labelledby={`${id}-theirs`}>{detail.theirs}</pre>
            </div>
          </div>
          <DiffView
            before={detail.mine}
            after={detail.theirs}
            label={`Differences between this device and ${conflict.device}`}
          />
          {editing === null ? (
            <div className="sync-conflict-actions">
              <Button size="sm" disabled={busy} onClick={() => void choose({ keep: 'mine' })}>
                Keep mine
              </Button>
              <Button size="sm" disabled={busy} onClick={() => void choose({ keep: 'theirs' })}>
                Keep theirs
              </Button>
              <Button size="sm" disabled={busy} onClick={() => setEditing(detail.draft)}>
                Edit
              </Button>
            </div>
          ) : (
            <>
              <label htmlFor={`${id}-draft`}>Merged text</label>
              <textarea
                id={`${id}-draft`}
                className="input"
                value={editing}
                onChange={(e) => setEditing(e.target.value)}
              />
              <div className="sync-conflict-actions">
                <Button
                  size="sm"
                  variant="primary"
                  disabled={busy}
                  onClick={() => void choose({ text: editing })}
                >
                  Save
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setEditing(null)}>
                  Cancel
                </Button>
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}
