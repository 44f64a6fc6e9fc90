// The application menu as plain data: the standard roles (so copy/paste, undo, zoom and window handling
// behave natively on every platform) plus the app's own commands with their accelerators. main.ts turns
// it into a Menu; `send` delivers a command to the window as an `app.command` event.
import type { MenuItemConstructorOptions } from 'electron';
import type { AppCommand } from '../../shared/channels/app.js';

export interface MenuItem {
  label?: string;
  role?: string;
  type?: 'separator';
  accelerator?: string;
  command?: AppCommand;
  action?: 'open-memory-folder' | 'open-data-folder';
  submenu?: MenuItem[];
}

/** The app's shortcuts; the renderer's help dialog lists the same accelerators. */
export const appShortcuts: { command: AppCommand; label: string; accelerator: string }[] = [
  { command: 'new-chat', label: 'New Chat', accelerator: 'CmdOrCtrl+N' },
  { command: 'new-chat-without-memory', label: 'New Chat Without Memory', accelerator: 'CmdOrCtrl+Shift+N' },
  { command: 'focus-input', label: 'Focus Message Box', accelerator: 'CmdOrCtrl+L' },
  { command: 'stop', label: 'Stop Answer', accelerator: 'CmdOrCtrl+.' },
  { command: 'toggle-panel', label: 'Toggle Side Panel', accelerator: 'CmdOrCtrl+B' },
  { command: 'search-memory', label: 'Search Memory', accelerator: 'CmdOrCtrl+Shift+F' },
  { command: 'open-settings', label: 'Settings…', accelerator: 'CmdOrCtrl+,' },
  { command: 'show-shortcuts', label: 'Keyboard Shortcuts', accelerator: 'CmdOrCtrl+/' },
];

const item = (command: AppCommand): MenuItem => {
  const shortcut = appShortcuts.find((s) => s.command === command)!;
  return { label: shortcut.label, accelerator: shortcut.accelerator, command };
};

export function menuTemplate(platform: NodeJS.Platform): MenuItem[] {
  const mac = platform === 'darwin';
  const template: MenuItem[] = [];
  if (mac) {
    template.push({
      label: 'Mnemo',
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        item('open-settings'),
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push(
    {
      label: 'File',
      submenu: [
        item('new-chat'),
        item('new-chat-without-memory'),
        { type: 'separator' },
        { label: 'Export Memory…', command: 'export-memory' },
        { label: 'Import Memory…', command: 'import-memory' },
        { label: 'Open Memory Folder', action: 'open-memory-folder' },
        { type: 'separator' },
        ...(mac ? [] : [item('open-settings'), { type: 'separator' as const }]),
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        item('focus-input'),
        item('toggle-panel'),
        item('search-memory'),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        { role: 'toggleDevTools' },
      ],
    },
    { label: 'Chat', submenu: [item('stop')] },
    { role: 'windowMenu' },
    { role: 'help', submenu: [item('show-shortcuts')] },
  );
  return template;
}

export interface MenuHandlers {
  command(command: AppCommand): void;
  action(action: NonNullable<MenuItem['action']>): void;
}

export function toElectronMenu(items: MenuItem[], handlers: MenuHandlers): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    const options: MenuItemConstructorOptions = {};
    if (item.type) options.type = item.type;
    if (item.label) options.label = item.label;
    if (item.role) options.role = item.role as MenuItemConstructorOptions['role'];
    if (item.accelerator) options.accelerator = item.accelerator;
    if (item.submenu) options.submenu = toElectronMenu(item.submenu, handlers);
    const { command, action } = item;
    if (command) options.click = () => handlers.command(command);
    if (action) options.click = () => handlers.action(action);
    return options;
  });
}
