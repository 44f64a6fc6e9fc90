// The keyboard shortcuts: one table that both the key handler and the help dialog read, so the list the
// user sees is the list that works. Browser-reserved combinations (Ctrl+N, Ctrl+T, Ctrl+L) are avoided
// so the same keys work in Electron and in browser mode.
import { useEffect } from 'react';
import { useChat } from '../../store/chat';
import { useUi } from '../../store/ui';

export interface Shortcut {
  id: string;
  keys: string[];
  description: string;
  /** Also fires while typing in a text field. */
  inFields: boolean;
  match: (e: KeyboardEvent) => boolean;
  run: () => void;
}

const mod = (e: KeyboardEvent): boolean => e.ctrlKey || e.metaKey;
const isMac = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);
export const modKey = isMac ? '⌘' : 'Ctrl';

export const shortcuts: Shortcut[] = [
  {
    id: 'new-chat',
    keys: [modKey, 'Shift', 'O'],
    description: 'New chat',
    inFields: true,
    match: (e) => mod(e) && e.shiftKey && e.key.toLowerCase() === 'o',
    run: () => {
      void useChat.getState().open(null);
      useUi.getState().requestComposerFocus();
    },
  },
  {
    id: 'focus-input',
    keys: ['/'],
    description: 'Focus the message box',
    inFields: false,
    match: (e) => e.key === '/' && !mod(e) && !e.altKey,
    run: () => useUi.getState().requestComposerFocus(),
  },
  {
    id: 'send',
    keys: ['Enter'],
    description: 'Send the message',
    inFields: false,
    match: () => false,
    run: () => undefined,
  },
  {
    id: 'newline',
    keys: ['Shift', 'Enter'],
    description: 'New line in the message',
    inFields: false,
    match: () => false,
    run: () => undefined,
  },
  {
    id: 'stop',
    keys: ['Esc'],
    description: 'Stop the answer',
    inFields: true,
    match: (e) => e.key === 'Escape' && useChat.getState().activeRunId !== null,
    run: () => void useChat.getState().stop(),
  },
  {
    id: 'toggle-panel',
    keys: [modKey, '.'],
    description: 'Show or hide the side panel',
    inFields: true,
    match: (e) => mod(e) && !e.shiftKey && e.key === '.',
    run: () => useUi.getState().togglePanel(),
  },
  {
    id: 'toggle-sidebar',
    keys: [modKey, 'B'],
    description: 'Show or hide the conversations',
    inFields: true,
    match: (e) => mod(e) && !e.shiftKey && e.key.toLowerCase() === 'b',
    run: () => useUi.getState().toggleSidebar(),
  },
  {
    id: 'search-conversations',
    keys: [modKey, 'K'],
    description: 'Search conversations',
    inFields: true,
    match: (e) => mod(e) && !e.shiftKey && e.key.toLowerCase() === 'k',
    run: () => useUi.getState().requestConversationSearch(),
  },
  {
    id: 'switch-space',
    keys: [modKey, 'Shift', 'S'],
    description: 'Switch space',
    inFields: true,
    match: (e) => mod(e) && e.shiftKey && !e.altKey && e.key.toLowerCase() === 's',
    run: () => useUi.getState().requestSpaceSwitcher(),
  },
  {
    id: 'search-memory',
    keys: [modKey, 'Shift', 'F'],
    description: 'Search memory',
    inFields: true,
    match: (e) => mod(e) && e.shiftKey && e.key.toLowerCase() === 'f',
    run: () => useUi.getState().requestMemorySearch(),
  },
  {
    id: 'settings',
    keys: [modKey, ','],
    description: 'Open settings',
    inFields: true,
    match: (e) => mod(e) && e.key === ',',
    run: () => useUi.getState().openSettings(true),
  },
  {
    id: 'help',
    keys: ['?'],
    description: `Show these shortcuts (also ${modKey}+/)`,
    inFields: true,
    match: (e) => (mod(e) && e.key === '/') || (e.key === '?' && !mod(e) && !e.altKey && !isTyping(e.target)),
    run: () => useUi.getState().openHelp(true),
  },
];

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

/** Installs the global key handler (once, in the layout). Dialogs handle their own Escape first. */
export function useShortcuts(): void {
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent): void => {
      if (e.defaultPrevented) return;
      const ui = useUi.getState();
      // While a dialog is open only its own keys apply.
      if (ui.settingsOpen || ui.helpOpen || document.querySelector('[aria-modal="true"]')) return;
      const typing = isTyping(e.target);
      for (const s of shortcuts) {
        if (typing && !s.inFields) continue;
        if (!s.match(e)) continue;
        e.preventDefault();
        s.run();
        return;
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
