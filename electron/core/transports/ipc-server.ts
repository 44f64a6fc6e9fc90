// The Electron IPC transport, main side, without Electron: everything here takes stand-ins for ipcMain,
// webContents and frames, so it runs (and is tested) under plain Node. electron/ipc.ts only binds it.
//
// One generic invoke channel ('mnemo:invoke' carrying {channel, payload}) rather than one ipcMain channel
// per contract channel: the contract is then checked in exactly one place (the dispatcher refuses unknown
// channels with a clear error instead of Electron's "No handler registered"), the sender check cannot be
// forgotten on a channel, and adding a contract channel needs no IPC registration.
import { IPC_EVENT, IPC_INVOKE } from '../../../shared/channel-names.js';
import { PERSONAL_SPACE_ID, spaceId } from '../../../shared/channels/spaces.js';
import type { Handlers } from '../../../shared/contract.js';
import { MAX_MESSAGE_BYTES, utf8Length, type Outcome } from '../../../shared/wire.js';
import type { RpcLogger as Logger } from '../rpc/logger.js';
import { RpcServer, type EventSource, type RpcSession, type SpaceSource } from '../rpc/server.js';

export interface FrameLike {
  readonly url: string;
  readonly parent: FrameLike | null;
}

export interface WebContentsLike {
  readonly id: number;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  // Electron's own listener types vary per event; `any` is what its declarations use too.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: string, listener: (...args: any[]) => void): unknown;
}

export interface InvokeEventLike {
  readonly sender: WebContentsLike;
  readonly senderFrame: FrameLike | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface IpcServerOptions {
  ipcMain: IpcMainLike;
  handlers: Handlers;
  bus: EventSource;
  /** Route calls by their space and tag events with theirs (rpc/server.ts). */
  spaces?: SpaceSource | undefined;
  log: Logger;
  /** Is this the app's own page? Gets the URL of the sending frame (already known to be a top frame). */
  isAllowedSender: (frameUrl: string | undefined) => boolean;
}

export interface IpcServer {
  readonly rpc: RpcServer;
  /** Starts queueing events for a window before its page has loaded (so nothing emitted meanwhile is lost). */
  addWindow(contents: WebContentsLike): void;
  /**
   * The space the window is in, as its last call named it (the space belongs to the window, and the
   * renderer names it on every call): what the app menu's "Open Memory Folder" opens. Personal until the
   * window has called.
   */
  spaceOf(contents: WebContentsLike): string;
  dispose(): void;
}

interface IpcSender {
  frame: FrameLike | null;
}

/** Navigation params across Electron versions: the details object (new) or positional arguments (old). */
interface NavigationDetails {
  isMainFrame?: boolean;
  isSameDocument?: boolean;
}

export function createIpcServer(options: IpcServerOptions): IpcServer {
  const { log } = options;
  const rpc = new RpcServer({ handlers: options.handlers, bus: options.bus, spaces: options.spaces, log });
  const sessions = new Map<number, RpcSession<IpcSender>>();
  const spaces = new Map<number, string>();

  // Only the top frame of the app's own page: not a subframe (even one on the app's origin), not a page
  // the window was navigated to.
  const isAllowed = (sender: IpcSender): boolean =>
    sender.frame !== null && sender.frame.parent === null && options.isAllowedSender(sender.frame.url);

  const sessionFor = (contents: WebContentsLike): RpcSession<IpcSender> => {
    let session = sessions.get(contents.id);
    if (session) return session;
    session = rpc.openSession<IpcSender>({
      kind: 'ipc',
      isAllowed,
      deliver: (name, payload, meta) => {
        if (contents.isDestroyed()) return;
        contents.send(
          IPC_EVENT,
          meta.space === undefined ? { name, payload } : { name, payload, space: meta.space },
        );
      },
    });
    sessions.set(contents.id, session);
    const current = session;
    // A reload or a crashed renderer: the new page has no listeners yet, so queue until it says ready.
    contents.on(
      'did-start-navigation',
      (details?: NavigationDetails, _url?: string, inPlace?: boolean, mainFrame?: boolean) => {
        const isMainFrame = details?.isMainFrame ?? mainFrame ?? false;
        const isSameDocument = details?.isSameDocument ?? inPlace ?? false;
        if (isMainFrame && !isSameDocument) current.markNotReady();
      },
    );
    contents.on('render-process-gone', () => current.markNotReady());
    contents.on('destroyed', () => {
      current.close();
      sessions.delete(contents.id);
      spaces.delete(contents.id);
    });
    return current;
  };

  const refuse = (code: 'invalid_request', message: string): Outcome => ({
    ok: false,
    error: { code, message },
  });

  options.ipcMain.handle(IPC_INVOKE, async (event, message): Promise<Outcome> => {
    const sender: IpcSender = { frame: event.senderFrame };
    // The sender is checked before anything about the message is looked at.
    if (!isAllowed(sender)) {
      return rpc.dispatch({
        sender,
        isAllowed,
        channel: undefined,
        payload: undefined,
        ctx: { clientId: 'foreign' },
      });
    }
    if (typeof message !== 'object' || message === null)
      return refuse('invalid_request', 'Malformed IPC message.');
    const { channel, payload, space } = message as { channel?: unknown; payload?: unknown; space?: unknown };
    let size: number;
    try {
      size = utf8Length(JSON.stringify(payload) ?? '');
    } catch {
      return refuse('invalid_request', 'The request cannot be serialised (a cycle or an unsupported value).');
    }
    if (size > MAX_MESSAGE_BYTES) {
      return refuse(
        'invalid_request',
        `The request is too large (at most ${MAX_MESSAGE_BYTES / 1024 / 1024} MB).`,
      );
    }
    // A message that arrives as its window is being destroyed must not open a session for it again.
    if (event.sender.isDestroyed()) {
      return { ok: false, error: { code: 'unavailable', message: 'The window is closing.' } };
    }
    const session = sessionFor(event.sender);
    // Only a well-formed id (no space: Personal); whether it still exists is checked where it is used.
    if (space === undefined) spaces.set(event.sender.id, PERSONAL_SPACE_ID);
    else if (spaceId.safeParse(space).success) spaces.set(event.sender.id, space as string);
    return session.invoke(sender, channel, payload, space);
  });

  return {
    rpc,
    addWindow: (contents) => void sessionFor(contents),
    spaceOf: (contents) => spaces.get(contents.id) ?? PERSONAL_SPACE_ID,
    dispose() {
      options.ipcMain.removeHandler(IPC_INVOKE);
      rpc.close();
      sessions.clear();
    },
  };
}
