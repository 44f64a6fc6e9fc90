// Binds the backend to Electron's ipcMain. The logic lives in core/transports/ipc-server.ts (plain Node,
// tested with stand-ins for ipcMain and webContents); this file only adapts Electron's types, and imports
// nothing from electron at run time.
import type { IpcMain, WebContents } from 'electron';
import type { Handlers } from '../shared/contract.js';
import type { Logger } from './core/context.js';
import type { EventSource, SpaceSource } from './core/rpc/server.js';
import {
  createIpcServer,
  type IpcMainLike,
  type IpcServer,
  type WebContentsLike,
} from './core/transports/ipc-server.js';

export interface BindIpcOptions {
  ipcMain: IpcMain;
  handlers: Handlers;
  bus: EventSource;
  /** core.spaces: calls run in the space they name, events go out tagged with theirs. */
  spaces?: SpaceSource;
  log: Logger;
  /** The URL of the sending top frame: allow only the app's own page (e.g. app://mnemo/...). */
  isAllowedSender: (frameUrl: string | undefined) => boolean;
}

export interface IpcBinding {
  /** Call right after creating a window, so that events emitted while its page loads are queued for it. */
  addWindow(contents: WebContents): void;
  /** The window's current space, as its last call named it (the menu's "Open Memory Folder"). */
  spaceOf(contents: WebContents): string;
  dispose(): void;
  readonly server: IpcServer;
}

export function bindIpc(options: BindIpcOptions): IpcBinding {
  const server = createIpcServer({ ...options, ipcMain: options.ipcMain as unknown as IpcMainLike });
  return {
    addWindow: (contents) => server.addWindow(contents as unknown as WebContentsLike),
    spaceOf: (contents) => server.spaceOf(contents as unknown as WebContentsLike),
    dispose: () => server.dispose(),
    server,
  };
}
