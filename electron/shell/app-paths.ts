// Where the main process finds its preload and its renderer: next to the compiled main.js. Taken through
// fileURLToPath, never `new URL(...).pathname`, which keeps `%20` for a space, percent-encodes non-ASCII
// and gives `/C:/...` on Windows (eslint.config.js forbids it).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface AppPaths {
  /** dist/electron: the folder of the compiled main process. */
  here: string;
  /** dist/renderer: what app:// serves. */
  rendererDir: string;
  /** dist/electron/preload.cjs: the bundled, sandboxed preload. */
  preloadPath: string;
}

export function appPaths(mainModuleUrl: string): AppPaths {
  const here = path.dirname(fileURLToPath(mainModuleUrl));
  return {
    here,
    rendererDir: path.resolve(here, '../renderer'),
    preloadPath: path.join(here, 'preload.cjs'),
  };
}
