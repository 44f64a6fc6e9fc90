// The flows that need a dialog: delete (confirm, then an Undo toast), forget permanently (typed
// confirmation, not undoable), create and rename (a path field with a clear message on bad input).
import { useId, useRef, useState, type ReactNode } from 'react';
import { createFile, deleteFile, forgetPermanently, renameFile, restoreFile } from '../../store/memory';
import { errorMessage } from '../../lib/format';
import { baseName } from './format';
import { Dialog } from '../../components/dialog';
import { TypedConfirm } from './ui/typed-confirm';
import { Button } from '../../components/button';
import { toast } from '../../store/toast';
import { undoAction } from './undo';
import { MEMORY_ROOT } from './tree';
import { host } from './host';
import { useMemoryStore } from '../../store/memory';

type Flow =
  | { kind: 'delete'; path: string }
  | { kind: 'forget'; path: string }
  | { kind: 'create' }
  | { kind: 'rename'; path: string }
  | null;

/** Normalises what the user typed into a memory path: "notes/x" → "/memories/notes/x.md". */
export function toMemoryPath(input: string): string | { error: string } {
  let value = input.trim().replace(/\\/g, '/');
  if (!value) return { error: 'Type a file name.' };
  if (value.startsWith('/memories/')) value = value.slice('/memories/'.length);
  else if (value.startsWith('/')) return { error: 'Memory files live under /memories/.' };
  const parts = value.split('/').filter((p) => p.length > 0);
  if (parts.some((p) => p === '..' || p === '.')) return { error: 'Use a plain name without “.” or “..”.' };
  if (parts.length === 0) return { error: 'Type a file name.' };
  let name = parts.join('/');
  if (!/\.[a-z0-9]+$/i.test(name)) name += '.md';
  return `${MEMORY_ROOT}/${name}`;
}

export function useFileDialogs(): { open: (flow: Exclude<Flow, null>) => void; dialogs: ReactNode } {
  const [flow, setFlow] = useState<Flow>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setFlow(null);
    setBusy(false);
  };

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
      close();
    } catch (err) {
      setBusy(false);
      toast(errorMessage(err), { tone: 'error' });
    }
  };

  const doDelete = async (path: string) => {
    const journalId = await deleteFile(path);
    toast(`Deleted ${path}`, {
      action: undoAction(() => restoreFile(journalId), `Restored ${path}`),
    });
  };
  const doForget = async (path: string) => {
    await forgetPermanently(path);
    toast(`${path} and its history are gone.`);
  };

  // In Electron the main side asks natively before deleting a folder or forgetting a file for good
  // (memory.delete / memory.forget): asking here as well would ask twice, so go straight to it there.
  const open = (next: Exclude<Flow, null>) => {
    const folder =
      next.kind === 'delete' &&
      useMemoryStore.getState().entries.some((e) => e.path === next.path && e.kind === 'dir');
    if (next.kind !== 'forget' && !folder) {
      setFlow(next);
      return;
    }
    void host().then((kind) => {
      if (kind !== 'electron') {
        setFlow(next);
        return;
      }
      const work = next.kind === 'forget' ? doForget(next.path) : doDelete(next.path);
      work.catch((err: unknown) => toast(errorMessage(err), { tone: 'error' }));
    });
  };

  let dialogs: ReactNode = null;
  if (flow?.kind === 'delete') {
    const { path } = flow;
    dialogs = (
      <TypedConfirm
        title={`Delete ${baseName(path)}?`}
        confirmLabel="Delete"
        busy={busy}
        onCancel={close}
        onConfirm={() => void run(() => doDelete(path))}
      >
        <p>
          <code>{path}</code> will be removed from memory. You can undo this right after.
        </p>
      </TypedConfirm>
    );
  } else if (flow?.kind === 'forget') {
    const { path } = flow;
    dialogs = (
      <TypedConfirm
        title="Forget permanently?"
        confirmLabel="Forget permanently"
        busy={busy}
        typeToConfirm={baseName(path)}
        onCancel={close}
        onConfirm={() => void run(() => doForget(path))}
      >
        <p>
          This erases <code>{path}</code>, every earlier version of it from the history, and every copy of it
          in your conversations (they show &ldquo;[forgotten by the user]&rdquo; instead). It cannot be
          undone.
        </p>
      </TypedConfirm>
    );
  } else if (flow?.kind === 'create' || flow?.kind === 'rename') {
    const current = flow;
    dialogs = (
      <PathDialog
        title={current.kind === 'create' ? 'New memory file' : 'Rename file'}
        confirmLabel={current.kind === 'create' ? 'Create' : 'Rename'}
        initial={current.kind === 'rename' ? current.path : ''}
        busy={busy}
        onCancel={close}
        onSubmit={(path) =>
          run(async () => {
            if (current.kind === 'create') {
              await createFile(path);
              toast(`Created ${path}`, { tone: 'success' });
            } else {
              await renameFile(current.path, path);
              toast(`Renamed to ${path}`, { tone: 'success' });
            }
          })
        }
      />
    );
  }
  return { open, dialogs };
}

function PathDialog(props: {
  title: string;
  confirmLabel: string;
  initial: string;
  busy: boolean;
  onCancel: () => void;
  onSubmit: (path: string) => Promise<void>;
}) {
  const inputId = useId();
  const hintId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState(props.initial);
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    const path = toMemoryPath(value);
    if (typeof path !== 'string') {
      setError(path.error);
      return;
    }
    void props.onSubmit(path);
  };
  return (
    <Dialog
      open
      title={props.title}
      initialFocus={inputRef}
      onClose={props.onCancel}
      footer={
        <>
          <Button onClick={props.onCancel}>Cancel</Button>
          <Button type="submit" form={`${inputId}-form`} variant="primary" disabled={props.busy}>
            {props.busy ? 'Working…' : props.confirmLabel}
          </Button>
        </>
      }
    >
      <form
        id={`${inputId}-form`}
        className="field"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label htmlFor={inputId}>Path</label>
        <input
          id={inputId}
          className="input"
          value={value}
          placeholder="/memories/notes/recipes.md"
          aria-describedby={hintId}
          aria-invalid={error ? true : undefined}
          spellCheck={false}
          autoComplete="off"
          ref={inputRef}
          onChange={(e) => {
            setValue(e.target.value);
            setError(null);
          }}
        />
        <span id={hintId} className={error ? 'mp-error' : 'field-hint'} role={error ? 'alert' : undefined}>
          {error ?? 'Folders are created as needed; “.md” is added when there is no extension.'}
        </span>
      </form>
    </Dialog>
  );
}
