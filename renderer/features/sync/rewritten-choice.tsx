// After the remote's history was rewritten elsewhere (a force-push; the sync stopped and overwrote
// nothing): what happened, and the two ways on, each confirmed and each backed up first. Settings → Sync
// and the sidebar's sync line both show it; the backend does the work (sync.resolveRewritten), the toast
// says where the backup went.
import { useState, type ReactElement } from 'react';
import { Button, ConfirmDialog } from '../../components';
import { useSync } from '../../store/sync';

type How = 'push-mine' | 'take-theirs';

export function RewrittenChoice({
  spaceId,
  spaceName,
  compact,
}: {
  spaceId: string;
  spaceName: string;
  compact?: boolean;
}): ReactElement {
  const resolve = useSync((s) => s.resolveRewritten);
  const busy = useSync((s) => s.retrying);
  const [asking, setAsking] = useState<How | null>(null);
  return (
    <div className={compact ? 'sync-rewritten sync-rewritten-compact' : 'sync-rewritten'}>
      <p>
        The remote’s history was rewritten from somewhere else (a force-push). Nothing here was overwritten,
        and {spaceName} does not sync until you choose which copy wins.
      </p>
      <div className="sync-conflict-actions">
        <Button size="sm" disabled={busy} onClick={() => setAsking('push-mine')}>
          Push my copy
        </Button>
        <Button size="sm" disabled={busy} onClick={() => setAsking('take-theirs')}>
          Take the remote’s
        </Button>
      </div>
      <ConfirmDialog
        open={asking === 'push-mine'}
        title="Push this device’s copy?"
        confirmLabel="Push my copy"
        danger
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          setAsking(null);
          void resolve('push-mine');
        }}
      >
        <p>
          The remote’s copy of {spaceName} is replaced by this device’s. First, the remote’s copy is kept on
          this device as a backup (in the app’s data folder, under {`sync/${spaceId}.git`}). The other devices
          merge with this copy at their next sync.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'take-theirs'}
        title="Take the remote’s copy?"
        confirmLabel="Take the remote’s"
        danger
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          setAsking(null);
          void resolve('take-theirs');
        }}
      >
        <p>
          {spaceName} becomes what the remote holds: what only this device has goes away here. First, its
          memory and conversations are copied to a backup (in the app’s data folder, under{' '}
          {`sync/${spaceId}.backups`}).
        </p>
      </ConfirmDialog>
    </div>
  );
}
