// How `npm start` (launch.ts) and the Electron main process it starts talk to each other.
//
// Main → launcher: marker lines on stdout, printed only when the launcher started it (MNEMO_LAUNCHER=1):
// the main process runs (Electron loaded: a slow start from here on is progress, not a hang), the window
// is ready, another instance already has this data folder, or the start failed (with the message the
// user was shown).
//
// Launcher → main: a quit request over a local socket (a named pipe on Windows). Forwarding a signal is not
// enough: on Windows, killing a process with any signal terminates it without `before-quit`, so unsaved
// conversation and memory writes would be lost; and Electron on Windows has no usable stdin.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const LAUNCHER_ENV = 'MNEMO_LAUNCHER';
export const CONTROL_ENV = 'MNEMO_LAUNCHER_CONTROL';

export const MARKERS = {
  started: 'MNEMO_MAIN_STARTED',
  ready: 'MNEMO_WINDOW_READY',
  secondInstance: 'MNEMO_SECOND_INSTANCE',
  startFailed: 'MNEMO_START_FAILED',
} as const;
export type LauncherSignal = keyof typeof MARKERS;
/** Kept for the first marker's old name. */
export const WINDOW_READY_MARKER = MARKERS.ready;

export const QUIT_REQUEST = 'quit';

export function signalLauncher(
  signal: LauncherSignal,
  detail?: string,
  env: NodeJS.ProcessEnv = process.env,
  write: (text: string) => void = (text) => void process.stdout.write(text),
): void {
  if (env[LAUNCHER_ENV] !== '1') return;
  const oneLine = detail?.replace(/\s+/g, ' ').trim();
  write(`${MARKERS[signal]}${oneLine ? ` ${oneLine}` : ''}\n`);
}

/** A fresh local socket address: a named pipe on Windows, a socket file in the temp folder elsewhere. */
export function controlAddress(platform: NodeJS.Platform = process.platform): string {
  const id = `mnemo-launch-${process.pid}-${randomBytes(6).toString('hex')}`;
  return platform === 'win32' ? `\\\\.\\pipe\\${id}` : path.join(tmpdir(), `${id}.sock`);
}

export interface ControlServer {
  address: string;
  /** Asks every connected main process to quit gracefully; false when none is connected. */
  requestQuit(): boolean;
  close(): void;
}

export async function openControlServer(address = controlAddress()): Promise<ControlServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => resolve());
  });
  server.unref();
  return {
    address,
    requestQuit() {
      for (const socket of sockets) socket.write(`${QUIT_REQUEST}\n`);
      return sockets.size > 0;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** Main side: when started by the launcher, quit gracefully on its request. Never keeps the app alive. */
export function followLauncher(onQuit: () => void, env: NodeJS.ProcessEnv = process.env): void {
  const address = env[CONTROL_ENV];
  if (env[LAUNCHER_ENV] !== '1' || !address) return;
  const socket = net.connect(address);
  socket.unref();
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    const lines = (buffered + chunk).split('\n');
    buffered = lines.pop() ?? '';
    if (lines.includes(QUIT_REQUEST)) onQuit();
  });
  // No launcher listening (it was killed, or an old one): the app runs on; Ctrl+C cannot reach it anyway.
  socket.on('error', () => undefined);
}
