// The sidebar's sync line (under the space switcher): "Synced 2 min ago", "3 changes waiting",
// "Syncing…" or "Sync failed: REASON" with Retry; an open conflict is named too. Nothing at all when the
// space has no remote.
import { useEffect, useState, type ReactElement } from 'react';
import { Button, Icon } from '../../components';
import { useCurrentSpace } from '../spaces/use-spaces';
import { useSync, useSyncView } from '../../store/sync';
import { statusLine } from './format';
import { RewrittenChoice } from './rewritten-choice';
import './sync.css';

const TICK_MS = 30_000;

export function SyncStatusLine(): ReactElement | null {
  const { id: space, name: spaceName } = useCurrentSpace();
  const view = useSyncView(space);
  const load = useSync((s) => s.load);
  const syncNow = useSync((s) => s.syncNow);
  const retrying = useSync((s) => s.retrying);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => void load(), [load, space]);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  // A status newer than the last tick reads "just now" (agoText never counts backwards).

  const line = statusLine(view, now);
  if (!line || !view) return null;
  const conflicts = view.conflicts;
  return (
    <>
      <div className={`sync-status sync-status-${line.tone}`} role="status" aria-label="Sync status">
        <Icon name={line.tone === 'error' ? 'alert' : line.tone === 'ok' ? 'check' : 'refresh'} size={12} />
        <span className="sync-status-text" title={line.text}>
          {line.text}
          {conflicts > 0 && ` · ${conflicts === 1 ? '1 conflict' : `${conflicts} conflicts`} to resolve`}
        </span>
        {line.retry && (
          <Button size="sm" variant="ghost" disabled={retrying} onClick={() => void syncNow()}>
            Retry
          </Button>
        )}
      </div>
      {line.rewritten && <RewrittenChoice spaceId={space} spaceName={spaceName} compact />}
    </>
  );
}
