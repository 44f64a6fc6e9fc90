// "Copy to space…" / "Move to space…": pick the space a memory file or a conversation goes to (a radio
// list of the other spaces). A move asks once more, in the same dialog, before anything leaves.
import { useRef, useState, type ReactElement, type ReactNode } from 'react';
import { Button, Dialog } from '../../components';
import { useCurrentSpace, useSpaceList, type SpaceView } from './use-spaces';

export interface SpacePickerProps {
  /** "Copy to space" or "Move to space". */
  title: string;
  /** What is copied or moved, as the user knows it (a path, a conversation title). */
  what: ReactNode;
  mode: 'copy' | 'move';
  /** Shown on the move's confirmation step. */
  moveNote?: ReactNode;
  onPick: (target: SpaceView) => Promise<boolean>;
  onClose: () => void;
}

export function SpacePickerDialog({
  title,
  what,
  mode,
  moveNote,
  onPick,
  onClose,
}: SpacePickerProps): ReactElement {
  const current = useCurrentSpace();
  const others = useSpaceList().filter((s) => s.id !== current.id);
  const [targetId, setTargetId] = useState(others[0]?.id ?? '');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const firstRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const target = others.find((s) => s.id === targetId);
  const verb = mode === 'copy' ? 'Copy' : 'Move';

  const run = async (): Promise<void> => {
    if (!target) return;
    if (mode === 'move' && !confirming) {
      setConfirming(true);
      return;
    }
    setBusy(true);
    if (await onPick(target)) onClose();
    else setBusy(false);
  };

  let body: ReactNode;
  if (others.length === 0) {
    body = <p>There is no other space yet. Create one from the space switcher first.</p>;
  } else if (confirming && target) {
    body = (
      <p>
        {what} leaves “{current.name}” and goes to “{target.name}”. {moveNote}
      </p>
    );
  } else {
    body = (
      <fieldset className="sp-pick">
        <legend className="field-label">
          {verb} {what} to
        </legend>
        {others.map((s, i) => (
          <label key={s.id} className="sp-pick-row">
            <input
              ref={i === 0 ? firstRef : undefined}
              type="radio"
              name="sp-target"
              value={s.id}
              checked={s.id === targetId}
              onChange={() => setTargetId(s.id)}
            />
            <span className="sp-dot" style={{ background: s.colour }} aria-hidden="true" />
            {s.name}
          </label>
        ))}
      </fieldset>
    );
  }

  return (
    <Dialog
      open
      size="sm"
      title={title}
      alert={confirming}
      initialFocus={confirming ? confirmRef : firstRef}
      onClose={onClose}
      footer={
        <>
          <Button onClick={confirming ? () => setConfirming(false) : onClose}>
            {confirming ? 'Back' : 'Cancel'}
          </Button>
          {target && (
            <Button ref={confirmRef} variant="primary" disabled={busy} onClick={() => void run()}>
              {busy ? `${verb === 'Copy' ? 'Copying' : 'Moving'}…` : `${verb} to ${target.name}`}
            </Button>
          )}
        </>
      }
    >
      {body}
    </Dialog>
  );
}
