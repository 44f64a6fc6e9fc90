// App-level channels: what the host is (Electron or browser), where data lives, and host services whose
// Electron side is native (dialogs, the file manager) and whose browser side is a download or an upload.
import { z } from 'zod';
import { ok } from './common.js';

export const appInfo = z.object({
  version: z.string(),
  host: z.enum(['electron', 'browser', 'test']),
  /** Shown to the user (it is their own folder); never sent to the model. */
  dataDir: z.string(),
  platform: z.string(),
});
export type AppInfo = z.infer<typeof appInfo>;

export const appInvoke = {
  'app.info': { req: z.object({}), res: appInfo },
  /** Open a link from rendered content: the main side allows only parsed https: URLs. */
  'app.openExternal': {
    req: z.object({ url: z.string().max(4096) }),
    res: z.object({ opened: z.boolean() }),
  },
  /** Reveal the memory (or data) folder in the file manager; a no-op with `opened:false` in browser mode. */
  'app.openDataFolder': {
    req: z.object({ which: z.enum(['data', 'memories']) }),
    res: z.object({ opened: z.boolean() }),
    // The memory folder it reveals is the space's: answered in the call's space, unlike the rest of app.*.
    spaced: true as const,
  },
  /** Tell the main side this window is ready for events (queued ones are flushed then). */
  'app.ready': { req: z.object({}), res: ok },
};

/** Commands the native menu (Electron) sends to the window; the renderer maps them to its shortcuts. */
export const appCommand = z.enum([
  'new-chat',
  'new-chat-without-memory',
  'focus-input',
  'stop',
  'toggle-panel',
  'search-memory',
  'open-settings',
  'export-memory',
  'import-memory',
  'show-shortcuts',
]);
export type AppCommand = z.infer<typeof appCommand>;

export const appEvents = {
  'app.command': z.object({ command: appCommand }),
  /** A message for a toast: e.g. a memory change made by another program. */
  'app.notice': z.object({ level: z.enum(['info', 'warning', 'error']), message: z.string() }),
};
