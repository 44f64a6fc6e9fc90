// The Electron side of HostServices: native save/open dialogs, the file manager and the system browser.
// Electron's modules are passed in (main.ts owns the only import), so this file stays plain and testable.
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { HostServices, ImportSource } from '../core/host.js';

interface DialogLike {
  showSaveDialog(
    window: unknown,
    options: { defaultPath: string; filters?: { name: string; extensions: string[] }[] },
  ): Promise<{ canceled: boolean; filePath?: string | undefined }>;
  showOpenDialog(
    window: unknown,
    options: { properties: string[]; filters?: { name: string; extensions: string[] }[]; title?: string },
  ): Promise<{ canceled: boolean; filePaths: string[] }>;
  showMessageBox(
    window: unknown,
    options: {
      type: string;
      message: string;
      detail?: string;
      buttons: string[];
      defaultId: number;
      cancelId: number;
    },
  ): Promise<{ response: number }>;
}

interface ShellLike {
  openExternal(url: string): Promise<void>;
  openPath(path: string): Promise<string>;
}

export interface ElectronHostDeps {
  dialog: DialogLike;
  shell: ShellLike;
  /** The window dialogs attach to (modal on it). */
  window: () => unknown;
  downloadsDir: string;
}

const MAX_IMPORT_BYTES = 200 * 1024 * 1024;

export function createElectronHost(deps: ElectronHostDeps): HostServices {
  return {
    kind: 'electron',
    async saveFile({ defaultName, data }) {
      const ext = path.extname(defaultName).replace('.', '');
      const result = await deps.dialog.showSaveDialog(deps.window(), {
        defaultPath: path.join(deps.downloadsDir, defaultName),
        ...(ext ? { filters: [{ name: ext.toUpperCase(), extensions: [ext] }] } : {}),
      });
      if (result.canceled || !result.filePath) return { saved: false };
      await writeFile(result.filePath, data, { mode: 0o600 });
      return { saved: true, fileName: path.basename(result.filePath) };
    },
    async pickImport(): Promise<ImportSource | null> {
      // One dialog cannot offer files and folders on Linux and Windows, so ask which first.
      const choice = await deps.dialog.showMessageBox(deps.window(), {
        type: 'question',
        message: 'Import memory from…',
        detail: 'A .zip exported from Mnemo, or a folder of Markdown files.',
        buttons: ['A .zip file', 'A folder', 'Cancel'],
        defaultId: 0,
        cancelId: 2,
      });
      if (choice.response === 2) return null;
      const asFolder = choice.response === 1;
      const picked = await deps.dialog.showOpenDialog(deps.window(), {
        title: 'Import memory',
        properties: [asFolder ? 'openDirectory' : 'openFile'],
        ...(asFolder ? {} : { filters: [{ name: 'Zip archive', extensions: ['zip'] }] }),
      });
      const file = picked.filePaths[0];
      if (picked.canceled || !file) return null;
      if (asFolder) return { kind: 'folder', path: file };
      if ((await stat(file)).size > MAX_IMPORT_BYTES) {
        throw new Error('That archive is larger than 200 MB; Mnemo imports memory archives up to 200 MB.');
      }
      return { kind: 'zip', name: path.basename(file), data: await readFile(file) };
    },
    async openExternal(url) {
      // Reviewed use of openExternal: callers pass only URLs that navigation.ts's safeExternalUrl accepted.
      await deps.shell.openExternal(url);
      return true;
    },
    async openFolder(folder) {
      return (await deps.shell.openPath(folder)) === '';
    },
    async confirm({ message, detail, confirmLabel }) {
      const { response } = await deps.dialog.showMessageBox(deps.window(), {
        type: 'warning',
        message,
        detail,
        buttons: [confirmLabel, 'Cancel'],
        defaultId: 1,
        cancelId: 1,
      });
      return response === 0;
    },
  };
}
