// The Electron IPC transport, preload side, without Electron: builds the object the preload exposes as
// `window.mnemo`. One function per invoke channel and `on` for known events, nothing else: never
// ipcRenderer itself. Bundled into dist/electron/preload.cjs, so it imports names only (no zod).
import {
  eventChannelNames,
  IPC_EVENT,
  IPC_INVOKE,
  invokeChannelNames,
} from '../../../shared/channel-names.js';

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

type Listener = (payload: unknown) => void;

export function createBridge(ipcRenderer: IpcRendererLike): Record<string, unknown> {
  const listeners = new Map<string, Set<Listener>>();
  const known = new Set<string>(eventChannelNames);

  // One ipcRenderer listener for all events; page listeners never see the IPC event object (it exposes
  // ipcRenderer-like powers through event.sender).
  ipcRenderer.on(IPC_EVENT, (_event, message) => {
    const { name, payload } = (message ?? {}) as { name?: unknown; payload?: unknown };
    if (typeof name !== 'string') return;
    for (const listener of [...(listeners.get(name) ?? [])]) {
      try {
        listener(payload);
      } catch (error) {
        console.error(`A listener for ${name} failed:`, error);
      }
    }
  });

  const bridge: Record<string, unknown> = {};
  for (const channel of invokeChannelNames) {
    bridge[channel] = (payload: unknown) => ipcRenderer.invoke(IPC_INVOKE, { channel, payload });
  }
  bridge.on = (name: unknown, listener: unknown): (() => void) => {
    if (typeof name !== 'string' || !known.has(name))
      throw new TypeError(`There is no event named "${String(name)}".`);
    if (typeof listener !== 'function') throw new TypeError('The listener must be a function.');
    let set = listeners.get(name);
    if (!set) listeners.set(name, (set = new Set()));
    const entry: Listener = (payload) => (listener as Listener)(payload);
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  };
  return bridge;
}
