// The Electron main process: wiring only. Lifecycle, window, security, menus and the protocol live in
// electron/shell (plain functions over Electron's objects, tested without the binary); the backend is the
// plain-Node core (electron/core), bound to the window through IPC (electron/ipc.ts).
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
} from 'electron';
import type { WebContents } from 'electron';
import path from 'node:path';
import ElectronStore from 'electron-store';
import { createCore, type Core } from './core/create-core.js';
import { ensureDataDir, resolveDataDir } from './core/data-dir.js';
import { CONFIG_FILE_OPTIONS, CONFIG_NAME } from './core/settings-store.js';
import { bindIpc, type IpcBinding } from './ipc.js';
import { followLauncher, signalLauncher } from './launch-signal.js';
import { appAssetHandler } from './shell/app-protocol.js';
import { appPaths } from './shell/app-paths.js';
import { contextMenuTemplate, toElectronItems } from './shell/context-menu.js';
import { createElectronHost } from './shell/host-electron.js';
import { runApp } from './shell/lifecycle.js';
import { menuTemplate, toElectronMenu } from './shell/menu.js';
import { hardenContents, isTrustedSenderUrl } from './shell/navigation.js';
import { handlePermissionCheck, handlePermissionRequest } from './shell/permissions.js';
import { safeStorageCipher } from './shell/safe-storage-cipher.js';
import { APP_SCHEME, APP_URL, createAppWindow } from './shell/window-options.js';
import { fitToScreens, loadWindowState, saveWindowState } from './shell/window-state.js';

const { rendererDir, preloadPath } = appPaths(import.meta.url);

// Must run before `ready`: app:// behaves like https (secure context, fetch, relative URLs).
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

let dataDir = '';
let core: Core | undefined;
let ipc: IpcBinding | undefined;
let window: BrowserWindow | undefined;

runApp({
  app,
  showErrorBox: (title, content) => dialog.showErrorBox(title, content),
  platform: process.platform,
  signal: (signal, detail) => signalLauncher(signal, detail),
  prepare() {
    // The data dir follows the same rule as the other faces. It must exist before setPath (which throws
    // on a missing folder), and it is also the single-instance lock's scope.
    dataDir = ensureDataDir(resolveDataDir({ flag: flagValue('--data-dir') }));
    app.setPath('userData', dataDir);
  },
  start,
  focus() {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  },
  activate() {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  },
});
app.on('web-contents-created', (_event, contents) => {
  // Reviewed use of openExternal: hardenContents passes it only URLs that safeExternalUrl accepted.
  hardenContents(contents, (url) => void shell.openExternal(url));
  contents.on('context-menu', (_e, params) => popupContextMenu(contents, params));
});
// `npm start` asks for a graceful quit this way (Ctrl+C in its terminal), so before-quit flushes.
followLauncher(() => app.quit());

async function start(started: (core: Core) => void): Promise<void> {
  // A factory: createCore sets a corrupt config.json aside before electron-store reads it.
  const store = () => new ElectronStore({ cwd: dataDir, name: CONFIG_NAME, ...CONFIG_FILE_OPTIONS });
  core = await createCore({
    dataDir,
    conf: store,
    keyCipher: safeStorageCipher(safeStorage, process.platform),
    host: createElectronHost({ dialog, shell, window: () => window, downloadsDir: app.getPath('downloads') }),
  });
  started(core);
  session.defaultSession.setPermissionRequestHandler(handlePermissionRequest);
  session.defaultSession.setPermissionCheckHandler(handlePermissionCheck);
  protocol.handle(APP_SCHEME, appAssetHandler(rendererDir));
  ipc = bindIpc({
    ipcMain,
    handlers: core.handlers,
    bus: core.bus,
    log: core.log,
    isAllowedSender: (frameUrl: string | undefined) => isTrustedSenderUrl(frameUrl),
  });
  const menu = toElectronMenu(menuTemplate(process.platform), {
    command: (command) => core?.bus.emit('app.command', { command }),
    action: (action) =>
      void shell.openPath(action === 'open-memory-folder' ? path.join(dataDir, 'memories') : dataDir),
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(menu));
  createWindow();
}

function createWindow(): void {
  const state = loadWindowState(dataDir);
  const areas = screen.getAllDisplays().map((d) => d.workArea);
  const bounds = fitToScreens(state, areas, screen.getPrimaryDisplay().workArea);
  window = createAppWindow(BrowserWindow, preloadPath, bounds);
  // Registered before the page loads, so events emitted meanwhile are queued until it says it is ready.
  ipc?.addWindow(window.webContents);
  if (state.maximized) window.maximize();
  window.once('ready-to-show', () => {
    window?.show();
    // Tells `npm start` (launch.ts) that the window opened, so it does not fall back to browser mode.
    signalLauncher('ready');
  });
  const remember = () => {
    if (!window || window.isDestroyed()) return;
    saveWindowState(dataDir, { ...window.getNormalBounds(), maximized: window.isMaximized() });
  };
  window.on('close', remember);
  window.on('closed', () => (window = undefined));
  void window.loadURL(APP_URL);
}

function popupContextMenu(contents: WebContents, params: Electron.ContextMenuParams): void {
  const items = contextMenuTemplate(params);
  if (items.length === 0) return;
  const menu = toElectronItems(items, {
    replaceMisspelling: (word) => contents.replaceMisspelling(word),
    addWordToSpellCheckerDictionary: (word) => void contents.session.addWordToSpellCheckerDictionary(word),
    writeClipboardText: (text) => clipboard.writeText(text),
  });
  Menu.buildFromTemplate(menu).popup();
}

function flagValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
