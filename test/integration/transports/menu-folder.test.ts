// The app menu's "Open Memory Folder" opens the memory folder of the space of the window it was used in:
// the main side learns each window's space from the space its calls name (Electron IPC stand-ins, the
// real backend, a host that records which folder it was asked to open).
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core/create-core.js';
import type { HostServices } from '../../../electron/core/host.js';
import { createIpcServer, type IpcServer } from '../../../electron/core/transports/ipc-server.js';
import { openMenuFolder } from '../../../electron/shell/menu-folder.js';
import { isTrustedSenderUrl } from '../../../electron/shell/navigation.js';
import { APP_URL } from '../../../electron/shell/window-options.js';
import { IPC_INVOKE } from '../../../shared/channel-names.js';
import { FakeFrame, FakeIpcMain, FakeIpcRenderer, FakeWebContents } from './electron-stand-ins.js';

let core: Core;
let server: IpcServer;
let ipcMain: FakeIpcMain;
let dataDir: string;
const opened: string[] = [];

beforeEach(async () => {
  dataDir = path.join(realpathSync(mkdtempSync(path.join(tmpdir(), 'mnemo-menu-'))), 'data');
  opened.length = 0;
  const host: HostServices = {
    kind: 'test',
    saveFile: () => Promise.resolve({ saved: false }),
    pickImport: () => Promise.resolve(null),
    openExternal: () => Promise.resolve(false),
    openFolder: (folder) => (opened.push(folder), Promise.resolve(true)),
  };
  core = await createCore({ dataDir, host, env: {} });
  ipcMain = new FakeIpcMain();
  server = createIpcServer({
    ipcMain,
    handlers: core.handlers,
    bus: core.bus,
    spaces: core.spaces,
    log: core.log,
    isAllowedSender: isTrustedSenderUrl,
  });
});
afterEach(async () => {
  server.dispose();
  await core.close();
});

/** A window whose page makes calls as the renderer does: the space in the envelope (none: Personal). */
function window(): { contents: FakeWebContents; call: (space?: unknown) => Promise<unknown> } {
  const contents = new FakeWebContents();
  server.addWindow(contents);
  const renderer = new FakeIpcRenderer(ipcMain, contents, new FakeFrame(APP_URL));
  return {
    contents,
    call: (space) =>
      renderer.invoke(
        IPC_INVOKE,
        space === undefined
          ? { channel: 'memory.list', payload: {} }
          : { channel: 'memory.list', payload: {}, space },
      ),
  };
}

const menu = (contents: FakeWebContents, action: 'open-memory-folder' | 'open-data-folder') =>
  openMenuFolder(action, server.spaceOf(contents), core.spaces);

it("opens the memory folder of the window's own space, each window its own", async () => {
  const work = await core.spaces.create({ name: 'Work' });
  const a = window();
  const b = window();
  await a.call(work.id);
  await b.call();
  await menu(a.contents, 'open-memory-folder');
  await menu(b.contents, 'open-memory-folder');
  await menu(a.contents, 'open-data-folder');
  expect(opened).toEqual([
    path.join(dataDir, 'spaces', work.id, 'memories'),
    path.join(dataDir, 'memories'),
    dataDir,
  ]);

  // The window switches back to Personal: its next call says so.
  await a.call('personal');
  await menu(a.contents, 'open-memory-folder');
  expect(opened.at(-1)).toBe(path.join(dataDir, 'memories'));
});

it('a window that has not called yet, or named a malformed space, is in Personal; a deleted space opens Personal', async () => {
  const work = await core.spaces.create({ name: 'Work' });
  const a = window();
  await menu(a.contents, 'open-memory-folder');
  expect(opened.at(-1)).toBe(path.join(dataDir, 'memories'));

  for (const hostile of ['../../etc', '', 'personal/../x', 42, { id: work.id }]) {
    await a.call(hostile).catch(() => undefined);
    await menu(a.contents, 'open-memory-folder');
    expect(opened.at(-1)).toBe(path.join(dataDir, 'memories'));
  }

  await a.call(work.id);
  await core.spaces.delete(work.id);
  await menu(a.contents, 'open-memory-folder');
  expect(opened.at(-1)).toBe(path.join(dataDir, 'memories'));
  expect(opened.some((f) => f.includes('.trash'))).toBe(false);
});
