// The flows that need a dialog: delete (confirm, then an Undo toast), forget permanently (typed
// confirmation, not undoable), create and rename (a path field with a clear message on bad input).
import { useId, useRef, useState, type ReactNode } from 'react';
import { createFile, deleteFile, forgetPermanently, renameFile, restoreFile } from '../../store/memory';
import { errorMessage } from '../../lib/format';
import {
  TABLE,
  whoConfirms,
  type DestructiveAction,
  type DestructiveTarget,
} from '../../../shared/confirmations.js';
import { ConfirmBody } from '../../components/confirm-body';
import { Dialog } from '../../components/dialog';
import { TypedConfirm } from './ui/typed-confirm';
import { Button } from '../../components/button';
import { toast } from '../../store/toast';
import { undoAction } from './undo';
import { MEMORY_ROOT } from './tree';
import { host } from './host';
import { useMemoryStore } from '../../store/memory';
import { useSpaceSyncs } from '../../store/sync';
import { useCurrentSpace } from '../spaces/use-spaces';

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

/** The channel each destructive flow runs (its entry in shared/confirmations.ts). */
const ACTION = { delete: 'memory.delete', forget: 'memory.forget' } as const satisfies Record<
  string,
  DestructiveAction
>;

/** The target as the panel's list shows it (a folder with the number of files inside). */
function targetOf(path: string): DestructiveTarget {
  const { entries } = useMemoryStore.getState();
  if (!entries.some((e) => e.path === path && e.kind === 'dir')) return { path };
  return {
    path,
    folderFiles: entries.filter((e) => e.kind === 'file' && e.path.startsWith(`${path}/`)).length,
  };
}

export function useFileDialogs(): { open: (flow: Exclude<Flow, null>) => void; dialogs: ReactNode } {
  const [flow, setFlow] = useState<Flow>(null);
  const [busy, setBusy] = useState(false);
  const space = useCurrentSpace();
  const synced = useSpaceSyncs(space.id);
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

  // shared/confirmations.ts decides who asks: where the host asks natively (Electron, memory.delete /
  // memory.forget on the main side), asking here as well would ask twice, so go straight to it there.
  const open = (next: Exclude<Flow, null>) => {
    if (next.kind !== 'delete' && next.kind !== 'forget') {
      setFlow(next);
      return;
    }
    const action = ACTION[next.kind];
    const target = targetOf(next.path);
    if (whoConfirms(action, target, true) === 'page') {
      setFlow(next);
      return;
    }
    void host().then((kind) => {
      if (whoConfirms(action, target, kind === 'electron') === 'page') {
        setFlow(next);
        return;
      }
      const work = next.kind === 'forget' ? doForget(next.path) : doDelete(next.path);
      work.catch((err: unknown) => toast(errorMessage(err), { tone: 'error' }));
    });
  };

  let dialogs: ReactNode = null;
  if (flow?.kind === 'delete' || flow?.kind === 'forget') {
    const { kind, path } = flow;
    const ask = TABLE[ACTION[kind]].dialog({ path, synced });
    dialogs = (
      <TypedConfirm
        title={ask.title}
        confirmLabel={ask.confirmLabel}
        busy={busy}
        {...(ask.typeToConfirm !== undefined ? { typeToConfirm: ask.typeToConfirm } : {})}
        onCancel={close}
        onConfirm={() => void run(() => (kind === 'delete' ? doDelete(path) : doForget(path)))}
      >
        <ConfirmBody ask={ask} />
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
