// The right-click menu, built from the `context-menu` event's params by a pure function (tested without
// Electron): spelling suggestions for the misspelled word under the cursor (the window has
// `spellcheck: true`) with "Add to Dictionary", then the edit roles the click allows, and "Copy Link" for a
// link. Nothing to offer means no menu at all. toElectronItems turns the template into Menu items.
import type { MenuItemConstructorOptions } from 'electron';
import { safeExternalUrl } from './navigation.js';

/** The part of Electron's ContextMenuParams the template reads. */
export interface ContextMenuParams {
  isEditable: boolean;
  selectionText: string;
  misspelledWord: string;
  dictionarySuggestions: string[];
  linkURL: string;
  editFlags: { canCut: boolean; canCopy: boolean; canPaste: boolean; canSelectAll: boolean };
}

export type ContextMenuAction =
  | { kind: 'replace-misspelling'; word: string }
  | { kind: 'add-to-dictionary'; word: string }
  | { kind: 'copy-link'; url: string };

export interface ContextMenuItem {
  type?: 'separator';
  label?: string;
  role?: 'cut' | 'copy' | 'paste' | 'selectAll';
  enabled?: boolean;
  action?: ContextMenuAction;
}

/** Spelling menus stay short, as in Chromium's own. */
export const MAX_SUGGESTIONS = 5;

export function contextMenuTemplate(params: ContextMenuParams): ContextMenuItem[] {
  const groups: ContextMenuItem[][] = [];
  const word = params.misspelledWord.trim();
  if (params.isEditable && word) {
    const suggestions = params.dictionarySuggestions.slice(0, MAX_SUGGESTIONS);
    groups.push([
      ...(suggestions.length > 0
        ? suggestions.map((s): ContextMenuItem => ({
            label: s,
            action: { kind: 'replace-misspelling', word: s },
          }))
        : [{ label: 'No Guesses Found', enabled: false }]),
      { label: 'Add to Dictionary', action: { kind: 'add-to-dictionary', word } },
    ]);
  }
  const flags = params.editFlags;
  if (params.isEditable) {
    groups.push([
      { role: 'cut', enabled: flags.canCut },
      { role: 'copy', enabled: flags.canCopy },
      { role: 'paste', enabled: flags.canPaste },
    ]);
    groups.push([{ role: 'selectAll', enabled: flags.canSelectAll }]);
  } else if (params.selectionText.trim()) {
    groups.push([{ role: 'copy', enabled: flags.canCopy }]);
  }
  // Only links the app would open itself (https); anything else is not worth copying from a chat.
  const link = params.linkURL ? safeExternalUrl(params.linkURL) : null;
  if (link) groups.push([{ label: 'Copy Link', action: { kind: 'copy-link', url: link } }]);
  return groups.flatMap((group, i) => (i === 0 ? group : [{ type: 'separator' as const }, ...group]));
}

export interface ContextMenuTargets {
  replaceMisspelling(word: string): void;
  addWordToSpellCheckerDictionary(word: string): void;
  writeClipboardText(text: string): void;
}

export function toElectronItems(
  items: ContextMenuItem[],
  targets: ContextMenuTargets,
): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    const options: MenuItemConstructorOptions = {};
    if (item.type) options.type = item.type;
    if (item.label) options.label = item.label;
    if (item.role) options.role = item.role;
    if (item.enabled !== undefined) options.enabled = item.enabled;
    const action = item.action;
    if (action) options.click = () => runAction(action, targets);
    return options;
  });
}

function runAction(action: ContextMenuAction, targets: ContextMenuTargets): void {
  if (action.kind === 'replace-misspelling') targets.replaceMisspelling(action.word);
  else if (action.kind === 'add-to-dictionary') targets.addWordToSpellCheckerDictionary(action.word);
  else targets.writeClipboardText(action.url);
}
