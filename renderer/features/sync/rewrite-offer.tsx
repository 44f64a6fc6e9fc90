// After "Forget permanently" in a synced space: the file is gone here and its tombstone tells the other
// devices, but the remote's git history still holds its old versions. This offers to rewrite that
// history without them (sync.rewriteHistory): the previous history is kept on this device first, and
// the other devices re-join the new one by themselves, keeping their own unsynced changes.
import type { ReactElement } from 'react';
import { ConfirmDialog } from '../../components';
import { useSync } from '../../store/sync';

export function RewriteOffer({
  path,
  spaceName,
  onDone,
}: {
  path: string;
  spaceName: string;
  onDone: () => void;
}): ReactElement {
  const rewrite = useSync((s) => s.rewriteHistory);
  return (
    <ConfirmDialog
      open
      title="Remove the old versions from the remote too?"
      confirmLabel="Rewrite the remote’s history"
      cancelLabel="Not now"
      danger
      onCancel={onDone}
      onConfirm={() => {
        onDone();
        void rewrite();
      }}
    >
      <p>
        {path} is forgotten on this device, and {spaceName}’s other devices forget it at their next sync. The
        remote’s history still holds its old versions (and those of conversations that quoted it).
      </p>
      <p>
        Rewriting the history removes them from the remote. The previous history is kept on this device as a
        backup first. The other devices re-join the new history at their next sync and keep their own unsynced
        changes.
      </p>
    </ConfirmDialog>
  );
}

/** The current space syncs (the forget dialogs say more there). */
export function useSpaceSyncs(spaceId: string): boolean {
  return useSync((s) => Boolean(s.views[spaceId]?.remote));
}
