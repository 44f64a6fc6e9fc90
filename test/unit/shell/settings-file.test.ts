// Settings in the desktop app and in the other faces are one file (issue 2, point 3): electron-store,
// given what electron/main.ts gives it ({ cwd: dataDir, name: CONFIG_NAME, ...CONFIG_FILE_OPTIONS }), and the faces' `conf`
// (createSettingsStore's default) resolve to DATA_DIR/config.json, and each reads what the other wrote.
// `electron` cannot load under plain Node, so electron-store gets a stand-in for the two things it asks
// of it: app.getPath('userData') and app.getVersion(); electron-store and conf themselves are real.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createFileLogger } from '../../../electron/core/log.js';
import {
  CONFIG_FILE_OPTIONS,
  CONFIG_NAME,
  createSettingsStore,
} from '../../../electron/core/settings-store.js';

const userData = mkdtempSync(path.join(tmpdir(), 'mnemo-userdata-'));
vi.mock('electron', () => {
  const app = { getPath: () => userData, getVersion: () => '0.0.0-test' };
  const ipcMain = { on: () => undefined };
  return { default: { app, ipcMain, shell: {} } };
});
const { default: ElectronStore } = await import('electron-store');

describe('one settings file for every face', () => {
  it('electron-store (as main.ts makes it) and conf use DATA_DIR/config.json and read each other', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'mnemo-settings-file-'));
    const log = createFileLogger({ dataDir });
    const desktop = createSettingsStore({
      dataDir,
      env: {},
      log,
      conf: () => new ElectronStore({ cwd: dataDir, name: CONFIG_NAME, ...CONFIG_FILE_OPTIONS }),
    });
    const other = createSettingsStore({ dataDir, env: {}, log });
    expect(desktop.path).toBe(path.join(dataDir, 'config.json'));
    expect(other.path).toBe(desktop.path);

    desktop.set({ theme: 'dark', maxTurns: 12 });
    // Owner-only, like every file in the data folder.
    expect(statSync(desktop.path).mode & 0o777).toBe(0o600);
    expect(createSettingsStore({ dataDir, env: {}, log }).get()).toMatchObject({
      theme: 'dark',
      maxTurns: 12,
    });
    other.set({ memoryWriteMode: 'ask' });
    const desktopAgain = createSettingsStore({
      dataDir,
      env: {},
      log,
      conf: () => new ElectronStore({ cwd: dataDir, name: CONFIG_NAME, ...CONFIG_FILE_OPTIONS }),
    });
    expect(desktopAgain.get()).toMatchObject({ theme: 'dark', maxTurns: 12, memoryWriteMode: 'ask' });
  });
});
