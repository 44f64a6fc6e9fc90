// Deleting a space: says what goes (its conversations and memory files), offers "Export first" (the
// memory export, a zip named after the space), and deletes only once the space's name is typed. The space
// goes to the trash: the toast after it can undo (restore) for a while, and "Recently deleted" in the
// switcher restores it for as long as the trash keeps it.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { TABLE } from '../../../shared/confirmations.js';
import { Button, ConfirmBody, Dialog, TypedNameField, typedMatches } from '../../components';
import { countsText } from './space-list';
import { deleteSpace, exportSpace, refreshCounts, useSpaceList } from './use-spaces';

export function DeleteSpaceDialog({
  spaceId,
  onClose,
}: {
  spaceId: string;
  onClose: () => void;
}): ReactElement | null {
  const space = useSpaceList().find((s) => s.id === spaceId);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState<null | 'export' | 'delete'>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  // What will go is shown as counted now, not as of the last time the list was opened.
  useEffect(() => {
    void refreshCounts(true);
  }, []);
  if (!space) return null;
  const ask = TABLE['spaces.delete'].dialog({ name: space.name, counts: countsText(space) });
  const typeToConfirm = ask.typeToConfirm ?? space.name;
  const ready = typedMatches(typed, typeToConfirm);

  const onDelete = async (): Promise<void> => {
    setBusy('delete');
    if (await deleteSpace(space.id)) onClose();
    else setBusy(null);
  };

  return (
    <Dialog
      open
      alert
      size="sm"
      title={ask.title}
      initialFocus={inputRef}
      onClose={onClose}
      footer={
        <>
          <Button
            icon="download"
            disabled={busy !== null}
            onClick={() => {
              setBusy('export');
              void exportSpace(space.id).finally(() => setBusy(null));
            }}
          >
            {busy === 'export' ? 'Exporting…' : 'Export first'}
          </Button>
          <span className="sp-footer-gap" />
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" disabled={!ready || busy !== null} onClick={() => void onDelete()}>
            {busy === 'delete' ? 'Deleting…' : ask.confirmLabel}
          </Button>
        </>
      }
    >
      <ConfirmBody ask={ask} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (ready && busy === null) void onDelete();
        }}
      >
        <TypedNameField name={typeToConfirm} value={typed} onChange={setTyped} inputRef={inputRef} />
      </form>
    </Dialog>
  );
}
