// The BrowserWindow options as plain data, so they can be unit-tested without the Electron binary.
// Every security-relevant switch is spelled out even where it is Electron's default: a future default
// change or a careless edit must show up in review and fail the tests.
export interface Bounds {
  x?: number | undefined;
  y?: number | undefined;
  width: number;
  height: number;
}

export const APP_SCHEME = 'app';
export const APP_HOST = 'mnemo';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

export const MIN_WIDTH = 720;
export const MIN_HEIGHT = 480;

/**
 * Creates the app's one window. The constructor is passed in (main.ts owns the only `electron` import),
 * which keeps this testable and keeps the options a literal at the `new BrowserWindow` call, where
 * static checkers (Electronegativity) can read them.
 */
export function createAppWindow<W>(
  BrowserWindow: new (options: WindowOptions) => W,
  preloadPath: string,
  bounds: Bounds,
): W {
  return new BrowserWindow({
    ...bounds,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    title: 'Mnemo',
    show: false, // shown on ready-to-show, so the window never flashes white
    backgroundColor: '#1b1d22',
    webPreferences: {
      // Reviewed use of preload: a sandboxed bundle exposing one named function per contract channel, no ipcRenderer.
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      enableBlinkFeatures: '',
      // A middle click must not open a link in a new window (auxclick); links go through openExternal.
      disableBlinkFeatures: 'Auxclick',
      navigateOnDragDrop: false,
      spellcheck: true,
      safeDialogs: true,
    },
  });
}

/** The options createAppWindow passes, for tests and for the type of the constructor. */
export function windowOptions(preloadPath: string, bounds: Bounds) {
  let captured: unknown;
  createAppWindow(
    class {
      constructor(options: unknown) {
        captured = options;
      }
    } as never,
    preloadPath,
    bounds,
  );
  return captured as WindowOptions;
}

export interface WindowOptions extends Bounds {
  minWidth: number;
  minHeight: number;
  title: string;
  show: boolean;
  backgroundColor: string;
  webPreferences: {
    preload: string;
    contextIsolation: true;
    sandbox: true;
    nodeIntegration: false;
    nodeIntegrationInWorker: false;
    nodeIntegrationInSubFrames: false;
    webviewTag: false;
    webSecurity: true;
    allowRunningInsecureContent: false;
    experimentalFeatures: false;
    enableBlinkFeatures: string;
    disableBlinkFeatures: string;
    navigateOnDragDrop: false;
    spellcheck: boolean;
    safeDialogs: boolean;
  };
}
