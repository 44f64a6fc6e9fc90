// The Electron main process, as a bootstrap: what must happen before `ready` (the app:// scheme, the data
// folder as userData, the single-instance lock) and the lifecycle (shell/lifecycle.ts). Everything else,
// with its heavy imports, is shell/desktop.ts, loaded after `ready` inside the guarded start: any failure
// from there on shows the app's own message and quits.
import * as electron from 'electron';
import { ensureDataDir, resolveDataDir } from './core/data-dir.js';
import { followLauncher, signalLauncher } from './launch-signal.js';
import { appPaths } from './shell/app-paths.js';
import { runApp } from './shell/lifecycle.js';
import type * as DesktopModule from './shell/desktop.js';
import { APP_SCHEME } from './shell/window-options.js';

const { app, dialog, protocol } = electron;
const { rendererDir, preloadPath } = appPaths(import.meta.url);

// Must run before `ready`: app:// behaves like https (secure context, fetch, relative URLs).
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

let dataDir = '';
let desktop: DesktopModule.Desktop | undefined;

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
  async start(started) {
    const { startDesktop } = await loadDesktop();
    desktop = await startDesktop({ electron, dataDir, rendererDir, preloadPath, started });
  },
  focus: () => desktop?.focus(),
  activate: () => desktop?.activate(),
});
// `npm start` asks for a graceful quit this way (Ctrl+C in its terminal), so before-quit flushes.
followLauncher(() => app.quit());

async function loadDesktop(): Promise<typeof DesktopModule> {
  try {
    return await import('./shell/desktop.js');
  } catch (error) {
    // The module error names absolute paths; the person needs what to do.
    throw new Error(
      'Mnemo could not load its own files (a part is missing or damaged). In a clone, run `npm install` and ' +
        '`npm start` again; reinstall an installed app.',
      { cause: error },
    );
  }
}

function flagValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
