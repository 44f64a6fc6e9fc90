// "Move to space…" for a conversation: its later turns use the new space's memory (the chat says so).
import type { ReactElement } from 'react';
import { moveConversation } from './use-spaces';
import { SpacePickerDialog } from './space-picker-dialog';

export function MoveConversationDialog({
  id,
  title,
  onClose,
}: {
  id: string;
  title: string;
  onClose: () => void;
}): ReactElement {
  return (
    <SpacePickerDialog
      title="Move to space"
      mode="move"
      what={<>“{title}”</>}
      moveNote="Its next answers use that space’s memory, not this one’s."
      onPick={(target) => moveConversation(id, target)}
      onClose={onClose}
    />
  );
}
