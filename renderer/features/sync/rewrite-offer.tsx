// After "Forget permanently" in a synced space: the file is gone here and its tombstone tells the other
// devices, but the remote's git history still holds its old versions. This offers to rewrite that
// history without them (sync.rewriteHistory): the previous history is kept on this device first, and
// the other devices re-join the new one by themselves, keeping their own unsynced changes.
import type { ReactElement } from 'react';
import { TABLE } from '../../../shared/confirmations.js';
import { ConfirmBody, ConfirmDialog } from '../../components';
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
  const ask = TABLE['sync.rewriteHistory'].dialog({ path, spaceName });
  return (
    <ConfirmDialog
      open
      title={ask.title}
      confirmLabel={ask.confirmLabel}
      {...(ask.cancelLabel !== undefined ? { cancelLabel: ask.cancelLabel } : {})}
      danger
      onCancel={onDone}
      onConfirm={() => {
        onDone();
        void rewrite();
      }}
    >
      <ConfirmBody ask={ask} />
    </ConfirmDialog>
  );
}

/** The current space syncs (the forget dialogs say more there). */
export function useSpaceSyncs(spaceId: string): boolean {
  return useSync((s) => Boolean(s.views[spaceId]?.remote));
}
