// The smoke test's side door into the stand-in: commands over Node's IPC channel (protocol.ts), run
// against what electron.ts recorded. Loaded by register.ts before the main process.
import { app, recorded, report, preventable } from './electron.js';
import type { Command, FetchResult, Request as DriverRequest, StandInState } from './protocol.js';

async function run(command: Command): Promise<unknown> {
  const window = recorded.windows[0];
  switch (command.cmd) {
    case 'ready':
      recorded.ready();
      return null;
    case 'fetch': {
      const handler = recorded.protocols.get(new URL(command.url).protocol.replace(/:$/, ''));
      if (!handler) throw new Error('no handler for this scheme');
      const response = await handler(new Request(command.url));
      const result: FetchResult = {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: await response.text(),
      };
      return result;
    }
    case 'invoke': {
      // The preload's generic bridge: invoke(channel, payload), the name checked on the main side.
      const mnemo = window?.webContents.loadedPage?.exposed.mnemo as
        { invoke: (channel: string, payload: unknown) => Promise<unknown> } | undefined;
      if (!mnemo) throw new Error('no page with the bridge is loaded');
      return await mnemo.invoke(command.channel, command.payload);
    }
    case 'permission':
      return await new Promise((resolve) =>
        recorded.permissionRequest!({ getURL: () => command.url }, command.permission, resolve, {
          requestingUrl: command.url,
        }),
      );
    case 'context-menu':
      window!.webContents.emit('context-menu', preventable(), command.params);
      return null;
    case 'minimize':
      window!.minimize();
      return null;
    case 'second-instance':
      app.emit('second-instance', preventable(), [process.execPath, '.'], process.cwd(), {});
      return null;
    case 'state': {
      const state: StandInState = {
        windows: recorded.windows.map((w) => w.record),
        privilegedSchemes: recorded.privilegedSchemes,
        protocols: [...recorded.protocols.keys()],
        applicationMenu: recorded.applicationMenu,
        popups: recorded.popups,
        clipboard: recorded.clipboardTexts,
        paths: recorded.paths,
        quits: recorded.quits,
      };
      return { ...state, calls: recorded.calls };
    }
    case 'quit':
      app.quit();
      return null;
  }
}

process.on('message', (message: DriverRequest) => {
  run(message.command).then(
    (value) => report({ id: message.id, ok: true, value: value ?? null }),
    (error: unknown) =>
      report({ id: message.id, ok: false, error: String((error as Error).message ?? error) }),
  );
});
