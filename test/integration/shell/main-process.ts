// Runs the BUILT main process (dist/electron/main.js and its imports) under plain Node, with `electron`
// resolved to the recording stand-in (electron-stand-in/), from a copy of the build in a folder whose
// path has a space and non-ASCII characters. The test drives the stand-in over Node's IPC channel.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { childEnv, ROOT } from '../faces/processes.js';
import type { Command, EventReport, Report } from './electron-stand-in/protocol.js';

const STAND_IN = path.join(ROOT, 'dist/test/integration/shell/electron-stand-in');

/** dist/{electron,memory,shared,renderer} and package.json, copied under ".../Mnemo Tést ü/". */
export function copyBuild(): string {
  for (const part of ['electron/main.js', 'electron/preload.cjs', 'renderer/index.html']) {
    if (!existsSync(path.join(ROOT, 'dist', part)))
      throw new Error(`dist/${part} is missing: run \`npm run build\`.`);
  }
  const app = path.join(mkdtempSync(path.join(tmpdir(), 'mnemo-smoke-')), 'Mnemo Tést ü');
  for (const part of ['electron', 'memory', 'shared', 'renderer']) {
    cpSync(path.join(ROOT, 'dist', part), path.join(app, 'dist', part), {
      recursive: true,
      filter: (src) => !src.endsWith('.map') && !src.endsWith('.d.ts') && !src.endsWith('.tsbuildinfo'),
    });
  }
  cpSync(path.join(ROOT, 'package.json'), path.join(app, 'package.json'));
  // The app's dependencies (electron-store, zod, the SDK, ...): `electron` itself goes to the stand-in.
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(app, 'node_modules'), 'junction');
  return app;
}

export interface MainProcess {
  child: ChildProcess;
  send<T = unknown>(command: Command): Promise<T>;
  /** Resolves with the first report of one of these events (already received or still to come). */
  event(name: string | string[]): Promise<EventReport>;
  events(): EventReport[];
  exited: Promise<number | null>;
  output(): string;
}

export function startMain(app: string, args: string[], env: NodeJS.ProcessEnv = {}): MainProcess {
  const child = spawn(
    process.execPath,
    [
      '--import',
      pathToFileURL(path.join(STAND_IN, 'register.js')).href,
      path.join(app, 'dist/electron/main.js'),
      ...args,
    ],
    { cwd: app, env: childEnv({ MNEMO_LAUNCHER: '1', ...env }), stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
  );
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const events: EventReport[] = [];
  const waiters: { name: string; resolve: (r: EventReport) => void }[] = [];
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  child.on('message', (message: Report) => {
    if ('event' in message) {
      events.push(message);
      for (const w of waiters.filter((w) => w.name === message.event)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(message);
      }
      return;
    }
    const call = pending.get(message.id);
    pending.delete(message.id);
    if (message.ok) call?.resolve(message.value);
    else call?.reject(new Error(message.error));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(() => {
    for (const call of pending.values()) call.reject(new Error(`the main process exited:\n${output}`));
  });
  return {
    child,
    send: <T>(command: Command) =>
      new Promise<T>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ id, command });
      }),
    event: (name) => {
      const names = typeof name === 'string' ? [name] : name;
      const seen = events.find((e) => names.includes(e.event));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        for (const n of names) waiters.push({ name: n, resolve });
        void exited.then(() =>
          reject(
            new Error(`the main process exited before "${names}": ${JSON.stringify(events)}\n${output}`),
          ),
        );
      });
    },
    events: () => events,
    exited,
    output: () => output,
  };
}
