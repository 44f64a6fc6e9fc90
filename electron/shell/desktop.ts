// The desktop app once Electron is ready: the core, the session's security, app://, IPC, the menus and
// the window. main.ts imports this module only after `ready`, inside the guarded start, so a module that
// fails to load (a damaged install, a dependency missing after a pull) is a start failure with the app's
// own message, not Electron's generic error box over a process left with no window.
import type * as ElectronApi from 'electron';
import type { WebContents } from 'electron';
import { PERSONAL_SPACE_ID } from '../../shared/channels/spaces.js';
import ElectronStore from 'electron-store';
import { createCore, type Core } from '../core/create-core.js';
import { CONFIG_FILE_OPTIONS, CONFIG_NAME } from '../core/settings-store.js';
import { bindIpc, type IpcBinding } from '../ipc.js';
import { signalLauncher } from '../launch-signal.js';
import { appAssetHandler } from './app-protocol.js';
import { contextMenuTemplate, toElectronItems } from './context-menu.js';
import { createElectronHost } from './host-electron.js';
import { menuTemplate, toElectronMenu } from './menu.js';
import { openMenuFolder } from './menu-folder.js';
import { hardenContents, isTrustedSenderUrl } from './navigation.js';
import { handlePermissionCheck, handlePermissionRequest } from './permissions.js';
import { safeStorageCipher } from './safe-storage-cipher.js';
import { APP_SCHEME, APP_URL, createAppWindow } from './window-options.js';
import { fitToScreens, loadWindowState, saveWindowState } from './window-state.js';

export interface DesktopOptions {
  electron: typeof ElectronApi;
  dataDir: string;
  rendererDir: string;
  preloadPath: string;
  /** Hands over the core as soon as it exists, so that a failure after it still flushes it. */
  started(core: Core): void;
}

export interface Desktop {
  /** A second launch: bring the window back and forward. */
  focus(): void;
  /** macOS dock click with no window open. */
  activate(): void;
}

export async function startDesktop(options: DesktopOptions): Promise<Desktop> {
  const {
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
  } = options.electron;
  const { dataDir } = options;
  let window: ElectronApi.BrowserWindow | undefined;

  // Before any webContents exists (the window below is the first).
  app.on('web-contents-created', (_event, contents) => {
    // Reviewed use of openExternal: hardenContents passes it only URLs that safeExternalUrl accepted.
    hardenContents(contents, (url) => void shell.openExternal(url));
    contents.on('context-menu', (_e, params) => popupContextMenu(contents, params));
  });

  // A factory: createCore sets a corrupt config.json aside before electron-store reads it.
  const store = () => new ElectronStore({ cwd: dataDir, name: CONFIG_NAME, ...CONFIG_FILE_OPTIONS });
  const cipher = safeStorageCipher(safeStorage, process.platform);
  const core = await createCore({
    dataDir,
    conf: store,
    keyCipher: cipher,
    host: createElectronHost({ dialog, shell, window: () => window, downloadsDir: app.getPath('downloads') }),
  });
  options.started(core);
  // Spaces with a git remote sync in the background (tokens kept with safeStorage, like the API key),
  // check again when the window gets focus, and send what waits before the app quits.
  const sync = core.sync;
  sync.start().catch((error: unknown) => core.log.warn('sync not started', { error }));
  app.on('browser-window-focus', () => sync.focus());
  session.defaultSession.setPermissionRequestHandler(handlePermissionRequest);
  session.defaultSession.setPermissionCheckHandler(handlePermissionCheck);
  protocol.handle(APP_SCHEME, appAssetHandler(options.rendererDir));
  const ipc: IpcBinding = bindIpc({
    ipcMain,
    handlers: core.handlers,
    bus: core.bus,
    spaces: core.spaces,
    log: core.log,
    isAllowedSender: (frameUrl: string | undefined) => isTrustedSenderUrl(frameUrl),
  });
  const menu = toElectronMenu(menuTemplate(process.platform), {
    command: (command) => core.bus.emit('app.command', { command }),
    // The window the menu was used in (the focused one), in its own space.
    action: (action) => {
      const target = BrowserWindow.getFocusedWindow() ?? window;
      const space = target && !target.isDestroyed() ? ipc.spaceOf(target.webContents) : undefined;
      openMenuFolder(action, space ?? PERSONAL_SPACE_ID, core.spaces).catch((error: unknown) =>
        core.log.warn('folder not opened', { error }),
      );
    },
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(menu));

  function createWindow(): void {
    const state = loadWindowState(dataDir);
    const areas = screen.getAllDisplays().map((d) => d.workArea);
    const bounds = fitToScreens(state, areas, screen.getPrimaryDisplay().workArea);
    const created = createAppWindow(BrowserWindow, options.preloadPath, bounds);
    window = created;
    // Registered before the page loads, so events emitted meanwhile are queued until it says it is ready.
    ipc.addWindow(created.webContents);
    if (state.maximized) created.maximize();
    created.once('ready-to-show', () => {
      created.show();
      // Tells `npm start` (launch.ts) that the window opened, so it does not fall back to browser mode.
      signalLauncher('ready');
    });
    created.on('close', () => {
      if (created.isDestroyed()) return;
      saveWindowState(dataDir, { ...created.getNormalBounds(), maximized: created.isMaximized() });
    });
    created.on('closed', () => {
      if (window === created) window = undefined;
    });
    void created.loadURL(APP_URL);
  }

  function popupContextMenu(contents: WebContents, params: ElectronApi.ContextMenuParams): void {
    const items = contextMenuTemplate(params);
    if (items.length === 0) return;
    const template = toElectronItems(items, {
      replaceMisspelling: (word) => contents.replaceMisspelling(word),
      addWordToSpellCheckerDictionary: (word) => void contents.session.addWordToSpellCheckerDictionary(word),
      writeClipboardText: (text) => clipboard.writeText(text),
    });
    Menu.buildFromTemplate(template).popup();
  }

  createWindow();
  return {
    focus() {
      if (!window) return;
      if (window.isMinimized()) window.restore();
      window.focus();
    },
    activate() {
      if (BrowserWindow.getAllWindows().length === 0) createWindow();
    },
  };
}
