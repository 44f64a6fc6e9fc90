// After the remote's history was rewritten elsewhere (a force-push; the sync stopped and overwrote
// nothing): what happened, and the two ways on, each confirmed and each backed up first. Settings → Sync
// and the sidebar's sync line both show it; the backend does the work (sync.resolveRewritten), the toast
// says where the backup went.
import { useState, type ReactElement } from 'react';
import { TABLE } from '../../../shared/confirmations.js';
import { Button, ConfirmBody, ConfirmDialog } from '../../components';
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
  const ask = (how: How) => TABLE['sync.resolveRewritten'].dialog({ how, spaceName, spaceId });
  const push = ask('push-mine');
  const take = ask('take-theirs');
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
        title={push.title}
        confirmLabel={push.confirmLabel}
        danger
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          setAsking(null);
          void resolve('push-mine');
        }}
      >
        <ConfirmBody ask={push} />
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'take-theirs'}
        title={take.title}
        confirmLabel={take.confirmLabel}
        danger
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          setAsking(null);
          void resolve('take-theirs');
        }}
      >
        <ConfirmBody ask={take} />
      </ConfirmDialog>
    </div>
  );
}
