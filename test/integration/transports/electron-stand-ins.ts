// Stand-ins for Electron's ipcMain, webContents, frames and ipcRenderer (the Electron binary cannot run
// here). They copy every message with structuredClone, as Electron's IPC does, and deliver asynchronously.
// The real bundled preload is evaluated against them in a vm sandbox whose require('electron') returns
// these objects, so what the page gets is exactly what dist/electron/preload.cjs exposes.
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import vm from 'node:vm';
import type {
  FrameLike,
  InvokeEventLike,
  IpcMainLike,
  WebContentsLike,
} from '../../../electron/core/transports/ipc-server.js';

type Handler = (event: InvokeEventLike, ...args: unknown[]) => unknown;

export class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, listener: Handler): void {
    // Electron throws on a second handler for the same channel.
    if (this.handlers.has(channel))
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
}

export class FakeFrame implements FrameLike {
  constructor(
    readonly url: string,
    readonly parent: FrameLike | null = null,
  ) {}
}

let nextId = 1;

export class FakeWebContents extends EventEmitter implements WebContentsLike {
  readonly id = nextId++;
  private destroyed = false;
  page: FakeIpcRenderer | null = null;

  send(channel: string, ...args: unknown[]): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
    const copy = structuredClone(args);
    const page = this.page;
    setImmediate(() => page?.deliver(channel, copy));
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  destroy(): void {
    this.destroyed = true;
    this.page = null;
    this.emit('destroyed');
  }
}

/** One page's ipcRenderer: bound to a webContents and to the frame that sends. */
export class FakeIpcRenderer {
  private readonly listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  constructor(
    private readonly ipcMain: FakeIpcMain,
    private readonly contents: FakeWebContents,
    private readonly frame: FrameLike | null,
  ) {}

  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = this.ipcMain.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    const event: InvokeEventLike = { sender: this.contents, senderFrame: this.frame };
    await Promise.resolve();
    return structuredClone(await handler(event, ...structuredClone(args)));
  }
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): this {
    let set = this.listeners.get(channel);
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    return this;
  }
  deliver(channel: string, args: unknown[]): void {
    for (const listener of this.listeners.get(channel) ?? []) listener({ sender: 'ipc-event' }, ...args);
  }
}

export interface LoadedPage {
  /** What the preload exposed, by key (only 'mnemo' is expected). */
  exposed: Record<string, unknown>;
  /** The modules the preload asked for. */
  required: string[];
  ipcRenderer: FakeIpcRenderer;
}

/**
 * Loads a page into a webContents: a main-frame navigation (so the main side resets readiness), a new
 * ipcRenderer, and the preload evaluated in a fresh vm context.
 */
export async function loadPage(options: {
  preloadFile: string;
  ipcMain: FakeIpcMain;
  contents: FakeWebContents;
  frame: FrameLike | null;
}): Promise<LoadedPage> {
  const { contents, frame } = options;
  contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false, url: frame?.url ?? '' });
  const ipcRenderer = new FakeIpcRenderer(options.ipcMain, contents, frame);
  contents.page = ipcRenderer;
  const exposed: Record<string, unknown> = {};
  const required: string[] = [];
  const electron = {
    contextBridge: {
      exposeInMainWorld: (key: string, api: unknown) => {
        exposed[key] = api;
      },
    },
    ipcRenderer,
  };
  const module = { exports: {} };
  const sandbox = {
    module,
    exports: module.exports,
    console,
    require: (name: string) => {
      required.push(name);
      if (name === 'electron') return electron;
      throw new Error(`A sandboxed preload cannot require '${name}'.`);
    },
  };
  vm.runInNewContext(await readFile(options.preloadFile, 'utf8'), sandbox, { filename: 'preload.cjs' });
  return { exposed, required, ipcRenderer };
}
