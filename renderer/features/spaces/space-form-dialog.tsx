// New space, and rename/recolour of one: a name (checked by the backend, its message shown under the
// field) and a colour from the palette. Enter saves; Escape cancels; saving changes only what changed.
import { useId, useRef, useState, type ReactElement } from 'react';
import { Button, Dialog } from '../../components';
import { errorMessage } from '../../lib/format';
import { ColourPalette } from './colour-palette';
import { nextColour } from './palette';
import { createSpace, switchSpace, updateSpace, useSpaceList } from './use-spaces';

export type SpaceForm = { kind: 'create' } | { kind: 'edit'; id: string; focus: 'name' | 'colour' };

export function SpaceFormDialog({ form, onClose }: { form: SpaceForm; onClose: () => void }): ReactElement {
  const spaces = useSpaceList();
  const editing = form.kind === 'edit' ? spaces.find((s) => s.id === form.id) : undefined;
  const [name, setName] = useState(editing?.name ?? '');
  const [colour, setColour] = useState(editing?.colour ?? nextColour(spaces.map((s) => s.colour)));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const colourRef = useRef<HTMLButtonElement>(null);
  const id = useId();

  const submit = async (): Promise<void> => {
    if (!name.trim()) {
      setError('A space needs a name.');
      return;
    }
    setBusy(true);
    try {
      if (form.kind === 'create') {
        const space = await createSpace({ name, colour });
        // Closed at once; the new space's (empty) lists load behind it.
        onClose();
        void switchSpace(space.id);
        return;
      } else if (editing) {
        await updateSpace(editing.id, {
          ...(name.trim() !== editing.name ? { name } : {}),
          ...(colour !== editing.colour ? { colour } : {}),
        });
      }
      onClose();
    } catch (err) {
      setBusy(false);
      setError(errorMessage(err));
      nameRef.current?.focus();
    }
  };

  const focusColour = form.kind === 'edit' && form.focus === 'colour';
  return (
    <Dialog
      open
      size="sm"
      title={form.kind === 'create' ? 'New space' : `Edit space “${editing?.name ?? ''}”`}
      description={
        form.kind === 'create'
          ? 'A space has its own memory and conversations; nothing in one shows up in another.'
          : undefined
      }
      initialFocus={focusColour ? colourRef : nameRef}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" form={`${id}-form`} variant="primary" disabled={busy}>
            {busy ? 'Saving…' : form.kind === 'create' ? 'Create space' : 'Save'}
          </Button>
        </>
      }
    >
      <form
        id={`${id}-form`}
        className="sp-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            ref={nameRef}
            className="input"
            value={name}
            maxLength={60}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint`}
            onChange={(e) => {
              setName(e.target.value);
              setError(null);
            }}
          />
          <span
            id={`${id}-hint`}
            className={error ? 'sp-error' : 'field-hint'}
            role={error ? 'alert' : undefined}
          >
            {error ?? 'For example Work, Home or a client’s name.'}
          </span>
        </div>
        <div className="field">
          <span className="field-label" aria-hidden="true">
            Colour
          </span>
          <ColourPalette value={colour} onChange={setColour} checkedRef={colourRef} />
        </div>
      </form>
    </Dialog>
  );
}
