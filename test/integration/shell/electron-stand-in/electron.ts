// A recording stand-in for the `electron` module, for the main-process smoke test: the built main process
// runs under plain Node (the Electron binary cannot be downloaded here) and sees Electron's API shape and
// documented behaviour where the app depends on it: setPath throws on a missing folder, the lock is per
// process, quit runs before-quit (preventable) → windows close → will-quit → exit, exit skips all that.
// A loaded window fetches its page through the registered app:// handler and runs the real bundled preload
// against the IPC stand-ins of ../transports. The test drives it through driver.ts.
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  FakeFrame,
  FakeIpcMain,
  FakeWebContents,
  loadPage,
  type LoadedPage,
} from '../../transports/electron-stand-ins.js';
import type { Report, StandInState, WindowRecord } from './protocol.js';

type Handler = (request: Request) => Promise<Response>;
type PermissionRequestHandler = (
  contents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details: { requestingUrl: string },
) => void;

export const report = (message: Report): void => void process.send?.(message);

function finish(code: number): void {
  report({ event: 'exit', code });
  // Let the report reach the test before the process goes.
  setImmediate(() => process.exit(code));
}

export const preventable = () => {
  const event = { prevented: false, preventDefault: () => void (event.prevented = true) };
  return event;
};

const scratch = mkdtempSync(path.join(tmpdir(), 'mnemo-stand-in-'));
const paths: Record<string, string> = {
  userData: scratch,
  downloads: scratch,
  temp: tmpdir(),
  home: scratch,
};
const protocols = new Map<string, Handler>();
const privilegedSchemes: unknown[] = [];
const clipboardTexts: string[] = [];
const popups: StandInState['popups'] = [];
let readyResolve!: () => void;
const readyPromise = new Promise<void>((resolve) => (readyResolve = resolve));

/** What the stand-in saw and holds, for the driver (driver.ts). */
export const recorded = {
  paths,
  protocols,
  privilegedSchemes,
  clipboardTexts,
  popups,
  calls: [] as string[],
  windows: [] as StandInWindow[],
  applicationMenu: false,
  quits: 0,
  isReady: false,
  permissionRequest: undefined as PermissionRequestHandler | undefined,
  ready(): void {
    recorded.isReady = true;
    app.emit('ready', {}, {});
    readyResolve();
  },
};
const { calls, windows } = recorded;

class StandInIpcMain extends FakeIpcMain {
  on(): this {
    return this; // electron-store listens for its renderer-side helper; the app has no renderer-side store.
  }
}
export const ipcMain = new StandInIpcMain();

class StandInWebContents extends FakeWebContents {
  loadedPage: LoadedPage | null = null;
  url = '';
  readonly session = {
    addWordToSpellCheckerDictionary: (word: string) => (calls.push(`dictionary ${word}`), true),
  };
  setWindowOpenHandler(): void {}
  replaceMisspelling(word: string): void {
    calls.push(`replace ${word}`);
  }
  getURL(): string {
    return this.url;
  }
}

class StandInApp extends EventEmitter {
  setPath(name: string, value: string): void {
    if (!path.isAbsolute(value)) throw new Error('Path must be absolute');
    // Electron: "If the path specifies a directory that does not exist, an Error is thrown."
    if (!existsSync(value)) throw new Error(`Failed to set path`);
    paths[name] = value;
  }
  getPath(name: string): string {
    const value = paths[name];
    if (!value) throw new Error(`Failed to get '${name}' path`);
    return value;
  }
  getVersion(): string {
    return '0.1.0';
  }
  getName(): string {
    return 'Mnemo';
  }
  isReady(): boolean {
    return recorded.isReady;
  }
  whenReady(): Promise<void> {
    return readyPromise;
  }
  requestSingleInstanceLock(): boolean {
    return process.env.MNEMO_STAND_IN_LOCK !== 'held';
  }
  quit(): void {
    recorded.quits += 1;
    const beforeQuit = preventable();
    this.emit('before-quit', beforeQuit);
    if (beforeQuit.prevented) return;
    for (const window of [...windows]) window.close(true);
    const willQuit = preventable();
    this.emit('will-quit', willQuit);
    if (willQuit.prevented) return;
    this.emit('quit', {}, 0);
    finish(0);
  }
  exit(code = 0): void {
    finish(code);
  }
}
export const app = new StandInApp();

class StandInWindow extends EventEmitter {
  readonly webContents = new StandInWebContents();
  readonly record: WindowRecord;
  private minimized = false;
  private destroyed = false;
  constructor(readonly options: WindowRecord['options']) {
    super();
    this.record = { options, loadedUrl: null, calls: [] };
    windows.push(this);
    app.emit('web-contents-created', {}, this.webContents);
  }
  static getAllWindows(): StandInWindow[] {
    return [...windows];
  }
  async loadURL(url: string): Promise<void> {
    this.record.loadedUrl = url;
    this.webContents.url = url;
    const handler = protocols.get(new URL(url).protocol.replace(/:$/, ''));
    const response = handler ? await handler(new Request(url)) : null;
    if (!response || response.status !== 200) {
      report({ event: 'load-failed', url, status: response?.status ?? null });
      return;
    }
    const preload = this.options.webPreferences.preload;
    if (!existsSync(preload)) {
      report({ event: 'preload-missing', preload });
      return;
    }
    this.webContents.loadedPage = await loadPage({
      preloadFile: preload,
      ipcMain,
      contents: this.webContents,
      frame: new FakeFrame(url),
    });
    this.emit('ready-to-show');
  }
  show(): void {
    this.record.calls.push('show');
    report({ event: 'window-shown' });
  }
  focus(): void {
    this.record.calls.push('focus');
  }
  minimize(): void {
    this.minimized = true;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.minimized = false;
    this.record.calls.push('restore');
  }
  maximize(): void {
    this.record.calls.push('maximize');
  }
  isMaximized(): boolean {
    return false;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  getNormalBounds() {
    const { x = 0, y = 0, width, height } = this.options;
    return { x, y, width, height };
  }
  close(quitting = false): void {
    const event = preventable();
    this.emit('close', event);
    if (event.prevented) return;
    this.destroyed = true;
    windows.splice(windows.indexOf(this), 1);
    this.webContents.destroy();
    this.emit('closed');
    if (!quitting && windows.length === 0) app.emit('window-all-closed');
  }
}
export const BrowserWindow = StandInWindow;

export const protocol = {
  registerSchemesAsPrivileged: (schemes: unknown[]) => void privilegedSchemes.push(...schemes),
  handle: (scheme: string, handler: Handler) => void protocols.set(scheme, handler),
};

export const session = {
  defaultSession: {
    setPermissionRequestHandler: (handler: PermissionRequestHandler) =>
      void (recorded.permissionRequest = handler),
    setPermissionCheckHandler: () => undefined,
  },
};

export const dialog = {
  showErrorBox: (title: string, content: string) => report({ event: 'error-box', title, content }),
  showMessageBox: async () => ({ response: 0 }),
  showSaveDialog: async () => ({ canceled: true }),
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
};

export const safeStorage = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (plain: string) => Buffer.from(`stand-in:${plain}`),
  decryptString: (data: Buffer) => data.toString().replace(/^stand-in:/, ''),
};

interface TemplateItem {
  label?: string;
  role?: string;
  type?: string;
  click?: () => void;
}
export const Menu = {
  buildFromTemplate: (template: TemplateItem[]) => ({
    template,
    popup: () =>
      void popups.push({ template: template.map(({ label, role, type }) => ({ label, role, type })) }),
  }),
  setApplicationMenu: (menu: unknown) => void (recorded.applicationMenu = menu !== null),
};

export const clipboard = { writeText: (text: string) => void clipboardTexts.push(text) };

// The primary display is deliberately not the first one listed.
const left = { x: -1920, y: 0, width: 1920, height: 1080 };
const primary = { x: 0, y: 0, width: 2560, height: 1440 };
export const screen = {
  getAllDisplays: () => [{ workArea: left }, { workArea: primary }],
  getPrimaryDisplay: () => ({ workArea: primary }),
};

export const shell = {
  openExternal: async () => undefined,
  openPath: async () => '',
};

export default {
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
};
