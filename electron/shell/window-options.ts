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

export function windowOptions(preloadPath: string, bounds: Bounds) {
  return {
    ...bounds,
    minWidth: MIN_WIDTH,
    minHeight: MIN_HEIGHT,
    title: 'Mnemo',
    show: false, // shown on ready-to-show, so the window never flashes white
    backgroundColor: '#1b1d22',
    webPreferences: {
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
      navigateOnDragDrop: false,
      spellcheck: true,
      devTools: true,
      safeDialogs: true,
    },
  } as const;
}
