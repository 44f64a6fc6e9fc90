// The Electron main process: window, security, menu, lifecycle. Everything else is the plain-Node core
// (electron/core), bound to this window through IPC (electron/ipc.ts).
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
} from 'electron';
import type { MenuItemConstructorOptions, WebContents } from 'electron';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ElectronStore from 'electron-store';
import { createCore, type Core } from './core/create-core.js';
import { resolveDataDir } from './core/data-dir.js';
import { CONFIG_FILE_OPTIONS, CONFIG_NAME } from './core/settings-store.js';
import { bindIpc, type IpcBinding } from './ipc.js';
import { signalWindowReady } from './launch-signal.js';
import { mimeType, resolveAppAsset } from './shell/app-protocol.js';
import { contentSecurityPolicy } from './shell/csp.js';
import { createElectronHost } from './shell/host-electron.js';
import { menuTemplate, type MenuItem } from './shell/menu.js';
import {
  denyPermissionCheck,
  denyPermissionRequest,
  handleWindowOpen,
  isAllowedNavigation,
  isTrustedSenderUrl,
} from './shell/navigation.js';
import { safeStorageCipher } from './shell/safe-storage-cipher.js';
import { APP_SCHEME, APP_URL, createAppWindow } from './shell/window-options.js';
import { fitToScreens, loadWindowState, saveWindowState } from './shell/window-state.js';

const here = path.dirname(new URL(import.meta.url).pathname);
const rendererDir = path.resolve(here, '../renderer');
const preloadPath = path.join(here, 'preload.cjs');

// Must run before `ready`: app:// behaves like https (secure context, fetch, relative URLs).
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

// The data dir follows the same rule as the other faces; Electron's userData is the default.
const dataDir = resolveDataDir({ flag: flagValue('--data-dir') });
app.setPath('userData', dataDir);

let core: Core | undefined;
let ipc: IpcBinding | undefined;
let window: BrowserWindow | undefined;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
  app.whenReady().then(start, (error: unknown) => fail(error));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (core && BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  let closed = false;
  app.on('before-quit', (event) => {
    if (closed || !core) return;
    // Graceful quit: abort the run, flush the conversation and memory writes, then really quit.
    event.preventDefault();
    void core.close().finally(() => {
      closed = true;
      app.quit();
    });
  });
}

async function start(): Promise<void> {
  // A factory: createCore sets a corrupt config.json aside before electron-store reads it.
  const store = () => new ElectronStore({ cwd: dataDir, name: CONFIG_NAME, ...CONFIG_FILE_OPTIONS });
  core = await createCore({
    dataDir,
    conf: store,
    keyCipher: safeStorageCipher(safeStorage, process.platform),
    host: createElectronHost({ dialog, shell, window: () => window, downloadsDir: app.getPath('downloads') }),
  });
  session.defaultSession.setPermissionRequestHandler(denyPermissionRequest);
  session.defaultSession.setPermissionCheckHandler(denyPermissionCheck);
  protocol.handle(APP_SCHEME, serveAppAsset);
  ipc = bindIpc({
    ipcMain,
    handlers: core.handlers,
    bus: core.bus,
    log: core.log,
    isAllowedSender: (frameUrl: string | undefined) => isTrustedSenderUrl(frameUrl),
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(toElectronMenu(menuTemplate(process.platform))));
  createWindow();
}

function createWindow(): void {
  const state = loadWindowState(dataDir);
  const bounds = fitToScreens(
    state,
    screen.getAllDisplays().map((d) => d.workArea),
  );
  window = createAppWindow(BrowserWindow, preloadPath, bounds);
  // Registered before the page loads, so events emitted meanwhile are queued until it says it is ready.
  ipc?.addWindow(window.webContents);
  if (state.maximized) window.maximize();
  window.once('ready-to-show', () => {
    window?.show();
    // Tells `npm start` (launch.ts) that Electron loaded, so it does not fall back to browser mode.
    signalWindowReady();
  });
  const remember = () => {
    if (!window || window.isDestroyed()) return;
    saveWindowState(dataDir, { ...window.getNormalBounds(), maximized: window.isMaximized() });
  };
  window.on('close', remember);
  window.on('closed', () => (window = undefined));
  void window.loadURL(APP_URL);
}

async function serveAppAsset(request: Request): Promise<Response> {
  const file = resolveAppAsset(rendererDir, request.url);
  if (!file) return new Response('Not found', { status: 404 });
  try {
    const body = await readFile(file);
    return new Response(body, {
      headers: {
        'content-type': mimeType(file),
        'content-security-policy': contentSecurityPolicy(),
        'x-content-type-options': 'nosniff',
      },
    });
  } catch {
    return new Response('Not found', { status: 404 });
  }
}

/** Every webContents: no navigation away, no new windows, no webviews. */
function hardenContents(contents: WebContents): void {
  const blockForeign = (event: { preventDefault(): void }, url: string) => {
    if (!isAllowedNavigation(url)) event.preventDefault();
  };
  contents.on('will-navigate', blockForeign);
  contents.on('will-redirect', blockForeign);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler((details) =>
    // Reviewed use of openExternal: handleWindowOpen passes only URLs that safeExternalUrl accepted.
    handleWindowOpen(details, (url) => void shell.openExternal(url)),
  );
}

function toElectronMenu(items: MenuItem[]): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    const options: MenuItemConstructorOptions = {};
    if (item.type) options.type = item.type;
    if (item.label) options.label = item.label;
    if (item.role) options.role = item.role as MenuItemConstructorOptions['role'];
    if (item.accelerator) options.accelerator = item.accelerator;
    if (item.submenu) options.submenu = toElectronMenu(item.submenu);
    const { command, action } = item;
    if (command) options.click = () => core?.bus.emit('app.command', { command });
    if (action) {
      options.click = () =>
        void shell.openPath(action === 'open-memory-folder' ? path.join(dataDir, 'memories') : dataDir);
    }
    return options;
  });
}

function flagValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function fail(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  dialog.showErrorBox('Mnemo could not start', message);
  app.exit(1);
}
