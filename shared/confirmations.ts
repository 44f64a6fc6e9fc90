// The destructive actions and how each is confirmed: the one place that decides it. Which channels are
// destructive is the contract's (`destructive: true` on the channel); the compiler then wants an entry
// here. An entry's `native` says when the host asks with a native message box before running the channel
// (the main side, where `host.confirm` exists: Electron); everywhere else, and for what `native` leaves
// out, the page shows `dialog` first; the terminal asks `terminal`'s question (electron/cli-confirm.ts). So
// a new destructive action is one entry here, and the faces never both ask or both skip.
import { TRASH_KEEP_DAYS } from './channels/spaces.js';
import type { Invoke, InvokeName } from './contract.js';

/** A memory path about to be destroyed. */
export interface DestructiveTarget {
  path: string;
  /** The number of files inside, when the path is a folder. */
  folderFiles?: number | undefined;
  /** The space syncs: a permanent forget reaches its other devices and the remote's history too. */
  synced?: boolean | undefined;
}

const FORGET_SYNCED =
  'This space syncs: the other devices erase it at their next sync, and this device’s next sync removes its old versions from the remote’s history too.';

/** What each destructive action destroys, as its confirmation names it. */
export interface Targets {
  'memory.delete': DestructiveTarget;
  'memory.forget': DestructiveTarget;
  'conversations.delete': { title: string };
  /** `counts`: what goes with it, as the page shows it ("3 conversations · 2 memory files"). */
  'spaces.delete': { name: string; counts: string };
  'settings.reset': Record<string, never>;
  'sync.disconnect': { spaceName: string };
  'sync.resolveRewritten': { how: 'push-mine' | 'take-theirs'; spaceName: string; spaceId: string };
  /** The import's preview, counted; `overwrite`: the conflicting files are replaced too. */
  'memory.importApply': ImportCounts;
}

export interface ImportCounts {
  added: number;
  changed: number;
  unchanged: number;
  conflicts: number;
  refused: number;
  overwrite: boolean;
}

/** The channels that destroy something the user may want back (or can never get back): the contract says. */
export type DestructiveAction = {
  [K in InvokeName]: Invoke[K] extends { destructive: true } ? K : never;
}[InvokeName];

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
  /** Further paragraphs, after `body`. */
  more?: string[];
  confirmLabel: string;
  cancelLabel?: string;
  /** Irreversible: the confirm button waits until this is typed. */
  typeToConfirm?: string;
}

/** The terminal's question (the CLI asks y/N on a terminal; a script gives --yes instead). */
export interface TerminalConfirm {
  /** Asked before " [y/N] ". */
  question: string;
  /** Printed when the answer is not yes (nothing happened). */
  declined: string;
  /** Printed (exit 2) when there is no terminal to ask on and no --yes. */
  noTerminal: string;
}

export interface Confirmation<T> {
  /**
   * null (the function's result, or the whole field): the host does not ask natively, the page's dialog
   * is enough. A null field means it never does, so the main side needs no target to know.
   */
  native: ((target: T) => NativeConfirm | null) | null;
  dialog(target: T): PageConfirm;
  /** The error when the native box is cancelled (nothing happened). */
  cancelled: string;
  /** How the terminal asks; null: the CLI offers no such command (so it never needs to). */
  terminal: ((target: T) => TerminalConfirm) | null;
}

export type ConfirmationTable = { readonly [A in DestructiveAction]: Confirmation<Targets[A]> };

function baseName(path: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

export const CONFIRMATIONS = {
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
    // `--forget PATH`: the panel's Forget, undoable from the file's history.
    terminal: ({ path }) => ({
      question: `Forget ${path}? It leaves memory; its history keeps it, so it can be restored.`,
      declined: 'Nothing was forgotten.',
      noTerminal: `Forgetting ${path} needs a confirmation: run it on a terminal, or add --yes.`,
    }),
  },
  'memory.forget': {
    // The one change that cannot be undone: the host always asks where it can.
    native: ({ path, synced }) => ({
      message: `Forget ${path} permanently?`,
      detail: `The file, every earlier version in the history and every copy in your conversations are erased. This cannot be undone.${synced ? `\n\n${FORGET_SYNCED}` : ''}`,
      confirmLabel: 'Forget',
    }),
    dialog: ({ path, synced }) => ({
      title: 'Forget permanently?',
      body: [
        'This erases ',
        { code: path },
        ', every earlier version of it from the history, and every copy of it in your conversations (they show “[forgotten by the user]” instead). It cannot be undone.',
      ],
      ...(synced ? { more: [FORGET_SYNCED] } : {}),
      confirmLabel: 'Forget permanently',
      typeToConfirm: baseName(path),
    }),
    cancelled: 'Nothing was forgotten: it was cancelled.',
    // `--forget-permanently PATH`.
    terminal: ({ path }) => ({
      question: `Forget ${path} permanently? The file, every earlier version and every copy in your conversations are erased, here and on every device this space syncs with. This cannot be undone.`,
      declined: 'Nothing was forgotten.',
      noTerminal: `Forgetting ${path} permanently needs a confirmation: run it on a terminal, or add --yes.`,
    }),
  },
  // The rest can be undone (a toast, the trash) or keep a backup first: the page's dialog is enough.
  'conversations.delete': {
    native: null,
    dialog: ({ title }) => ({
      title: 'Delete this conversation?',
      body: [
        `“${title || 'Untitled'}” will be deleted. Memory it wrote stays. You can undo for a few seconds.`,
      ],
      confirmLabel: 'Delete',
    }),
    cancelled: 'Nothing was deleted: the deletion was cancelled.',
    terminal: null,
  },
  'spaces.delete': {
    native: null,
    dialog: ({ name, counts }) => ({
      title: `Delete space “${name}”?`,
      body: [
        `Its memory and its conversations (${counts}) go to the trash. You can undo right after, and restore it from “Recently deleted” in this list for ${TRASH_KEEP_DAYS} days; then it is erased.`,
      ],
      confirmLabel: 'Delete space',
      typeToConfirm: name,
    }),
    cancelled: 'Nothing was deleted: the deletion was cancelled.',
    // `--delete-space NAME`; counts as the terminal lists them ("2 conversations, 1 memory file").
    terminal: ({ name, counts }) => ({
      question: `Delete the space ${name} (${counts})? It stays in the trash for ${TRASH_KEEP_DAYS} days.`,
      declined: 'Nothing was deleted.',
      noTerminal: `Deleting the space ${name} needs a confirmation: run it on a terminal, or add --yes.`,
    }),
  },
  'settings.reset': {
    native: null,
    dialog: () => ({
      title: 'Reset all settings?',
      body: ['Every setting goes back to its default. Your API key, conversations and memory stay.'],
      confirmLabel: 'Reset',
    }),
    cancelled: 'Nothing was reset: it was cancelled.',
    terminal: null,
  },
  'sync.disconnect': {
    native: null,
    dialog: ({ spaceName }) => ({
      title: 'Disconnect sync?',
      body: [
        `This device stops syncing ${spaceName}. Its memory and conversations stay here, and the remote keeps its copy. To reconnect, join again with the same address and the token.`,
      ],
      confirmLabel: 'Disconnect',
    }),
    cancelled: 'Nothing was disconnected: it was cancelled.',
    terminal: null,
  },
  'sync.resolveRewritten': {
    native: null,
    dialog: ({ how, spaceName, spaceId }) =>
      how === 'push-mine'
        ? {
            title: 'Push this device’s copy?',
            body: [
              `The remote’s copy of ${spaceName} is replaced by this device’s. First, the remote’s copy is kept on this device as a backup (in the app’s data folder, under sync/${spaceId}.git). The other devices merge with this copy at their next sync.`,
            ],
            confirmLabel: 'Push my copy',
          }
        : {
            title: 'Take the remote’s copy?',
            body: [
              `${spaceName} becomes what the remote holds: what only this device has goes away here. First, its memory and conversations are copied to a backup (in the app’s data folder, under sync/${spaceId}.backups).`,
            ],
            confirmLabel: 'Take the remote’s',
          },
    cancelled: 'Nothing was changed: it was cancelled.',
    terminal: null,
  },
  // The preview dialog is the confirmation, in every face: it lists each file the import writes.
  'memory.importApply': {
    native: null,
    dialog: ({ added, changed, unchanged, conflicts, refused, overwrite }) => {
      const writes = added + changed + (overwrite ? conflicts : 0);
      return {
        title: 'Import memory',
        body: [
          `${added} new, ${changed} changed, ${unchanged} unchanged, ${conflicts} in conflict, ${refused} refused.`,
        ],
        confirmLabel: `Import ${writes} ${writes === 1 ? 'file' : 'files'}`,
      };
    },
    cancelled: 'Nothing was imported: the import was cancelled.',
    terminal: null,
  },
} satisfies ConfirmationTable;

/** The table, seen through its one type (generic code indexes this). */
export const TABLE: ConfirmationTable = CONFIRMATIONS;

/** The actions the host may ask natively for (the main side then needs their target). */
export type HostAsks = {
  [A in DestructiveAction]: (typeof CONFIRMATIONS)[A]['native'] extends null ? never : A;
}[DestructiveAction];

/**
 * Who asks before `action` on `target`: the host natively ('host'), or the page with its dialog ('page').
 * `hostConfirms`: the host has native confirmations (the main side: `host.confirm` exists; the page: it
 * runs in Electron).
 */
export function whoConfirms<A extends DestructiveAction>(
  action: A,
  target: Targets[A],
  hostConfirms: boolean,
): 'host' | 'page' {
  const native = TABLE[action].native;
  return hostConfirms && native !== null && native(target) !== null ? 'host' : 'page';
}

/** Is `name` a destructive channel (the contract says so)? */
export function isDestructive(name: string): name is DestructiveAction {
  return Object.hasOwn(CONFIRMATIONS, name);
}
