// The destructive actions and how each is confirmed: the one place that decides it. An entry's `native`
// says when the host asks with a native message box before running the channel (the main side, where
// `host.confirm` exists: Electron); everywhere else, and for what `native` leaves out, the page shows
// `dialog` first. So a new destructive action is one entry here, and the two sides never both ask or
// both skip.

/** What is about to be destroyed. */
export interface DestructiveTarget {
  path: string;
  /** The number of files inside, when the path is a folder. */
  folderFiles?: number | undefined;
}

/** A native message box (HostServices.confirm). */
export interface NativeConfirm {
  message: string;
  detail: string;
  confirmLabel: string;
}

/** A part of the page dialog's text: plain, or a path shown as code. */
export type ConfirmText = string | { code: string };

/** The page's own dialog. */
export interface PageConfirm {
  title: string;
  body: ConfirmText[];
  confirmLabel: string;
  /** Irreversible: the confirm button waits until this is typed. */
  typeToConfirm?: string;
}

export interface Confirmation {
  /** null: the host does not ask natively for this target, the page's dialog is enough. */
  native(target: DestructiveTarget): NativeConfirm | null;
  dialog(target: DestructiveTarget): PageConfirm;
  /** The error when the native box is cancelled (nothing happened). */
  cancelled: string;
}

function baseName(path: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/** The channels that destroy something the user may want back (or can never get back). */
export type DestructiveAction = 'memory.delete' | 'memory.forget';

export const CONFIRMATIONS: Readonly<Record<DestructiveAction, Confirmation>> = {
  'memory.delete': {
    // A folder's files are not all visible in the page's dialog, so the host asks with their number.
    native: ({ path, folderFiles }) =>
      folderFiles === undefined
        ? null
        : {
            message: `Delete the folder ${path}?`,
            detail: `It holds ${folderFiles} ${folderFiles === 1 ? 'file' : 'files'}. You can undo this from the memory history.`,
            confirmLabel: 'Delete',
          },
    dialog: ({ path }) => ({
      title: `Delete ${baseName(path)}?`,
      body: [{ code: path }, ' will be removed from memory. You can undo this right after.'],
      confirmLabel: 'Delete',
    }),
    cancelled: 'Nothing was deleted: the deletion was cancelled.',
  },
  'memory.forget': {
    // The one change that cannot be undone: the host always asks where it can.
    native: ({ path }) => ({
      message: `Forget ${path} permanently?`,
      detail:
        'The file, every earlier version in the history and every copy in your conversations are erased. This cannot be undone.',
      confirmLabel: 'Forget',
    }),
    dialog: ({ path }) => ({
      title: 'Forget permanently?',
      body: [
        'This erases ',
        { code: path },
        ', every earlier version of it from the history, and every copy of it in your conversations (they show “[forgotten by the user]” instead). It cannot be undone.',
      ],
      confirmLabel: 'Forget permanently',
      typeToConfirm: baseName(path),
    }),
    cancelled: 'Nothing was forgotten: it was cancelled.',
  },
};

/**
 * Who asks before `action` on `target`: the host natively ('host'), or the page with its dialog ('page').
 * `hostConfirms`: the host has native confirmations (the main side: `host.confirm` exists; the page: it
 * runs in Electron).
 */
export function whoConfirms(
  action: DestructiveAction,
  target: DestructiveTarget,
  hostConfirms: boolean,
): 'host' | 'page' {
  return hostConfirms && CONFIRMATIONS[action].native(target) !== null ? 'host' : 'page';
}
