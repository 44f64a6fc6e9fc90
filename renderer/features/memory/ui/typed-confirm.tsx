// A confirmation for irreversible actions: the confirm button stays disabled until the user types the
// name of what will be destroyed (Cancel has focus first, so Enter never destroys by accident).
import { useRef, useState, type ReactElement, type ReactNode } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { TypedNameField, typedMatches } from '../../../components/typed-name-field';

export interface TypedConfirmProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Without it this is a plain confirmation. */
  typeToConfirm?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function TypedConfirm({
  title,
  children,
  confirmLabel,
  typeToConfirm,
  busy,
  onConfirm,
  onCancel,
}: TypedConfirmProps): ReactElement {
  const [typed, setTyped] = useState('');
  const cancelRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const ready = !typeToConfirm || typedMatches(typed, typeToConfirm);
  return (
    <Dialog
      open
      title={title}
      onClose={onCancel}
      size="sm"
      alert
      initialFocus={typeToConfirm ? inputRef : cancelRef}
      footer={
        <>
          <Button ref={cancelRef} onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="danger" disabled={!ready || busy} onClick={onConfirm}>
            {busy ? 'Working…' : confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      {typeToConfirm && (
        <TypedNameField
          name={typeToConfirm}
          value={typed}
          onChange={setTyped}
          inputRef={inputRef}
          className="mp-confirm-field"
        />
      )}
    </Dialog>
  );
}
