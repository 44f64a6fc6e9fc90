// The Electron IPC transport, preload side, without Electron: builds the object the preload exposes as
// `window.mnemo`: a generic `invoke(channel, payload)` and `on(name, listener)`, nothing else, never
// ipcRenderer itself (VS Code's preload does the same). No channel names here: the main side checks the
// sending frame, the channel (against the contract) and the payload of every call
// (electron/core/transports/ipc-server.ts). Bundled into dist/electron/preload.cjs (no zod).
import { IPC_EVENT, IPC_INVOKE } from '../../../shared/channel-names.js';

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

type Listener = (payload: unknown, meta: { space?: string }) => void;

export function createBridge(ipcRenderer: IpcRendererLike): Record<string, unknown> {
  // A Map, so no name (`__proto__`, `constructor`) reaches an object's prototype.
  const listeners = new Map<string, Set<Listener>>();

  // One ipcRenderer listener for all events; page listeners never see the IPC event object (it exposes
  // ipcRenderer-like powers through event.sender).
  ipcRenderer.on(IPC_EVENT, (_event, message) => {
    const { name, payload, space } = (message ?? {}) as {
      name?: unknown;
      payload?: unknown;
      space?: unknown;
    };
    if (typeof name !== 'string') return;
    const meta = typeof space === 'string' ? { space } : {};
    for (const listener of [...(listeners.get(name) ?? [])]) {
      try {
        listener(payload, meta);
      } catch (error) {
        console.error(`A listener for ${name} failed:`, error);
      }
    }
  });

  return {
    invoke: (channel: unknown, payload: unknown, space?: unknown): Promise<unknown> => {
      if (typeof channel !== 'string') return Promise.reject(new TypeError('A channel name is a string.'));
      // The space is checked on the main side, like everything else about the call.
      return ipcRenderer.invoke(
        IPC_INVOKE,
        space === undefined ? { channel, payload } : { channel, payload, space },
      );
    },
    on: (name: unknown, listener: unknown): (() => void) => {
      if (typeof name !== 'string') throw new TypeError('An event name is a string.');
      if (typeof listener !== 'function') throw new TypeError('The listener must be a function.');
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      const entry: Listener = (payload, meta) => (listener as Listener)(payload, meta);
      set.add(entry);
      return () => {
        set.delete(entry);
      };
    },
  };
}
