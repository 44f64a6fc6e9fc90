// A recorded child process for the launcher's unit tests: spawn calls are kept with their options, and
// each child is driven by the test (output, exit) instead of running anything.
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import type { LaunchDeps } from '../../../electron/launch-electron.js';

export class RecordedChild extends EventEmitter {
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  readonly signals: string[] = [];
  killedGroup = false;
  constructor(
    readonly command: string,
    readonly args: string[],
    readonly options: SpawnOptions,
  ) {
    super();
  }
  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    this.signals.push(signal);
    return true;
  }
  /** Writes a line on stdout and lets the stream deliver it. */
  async say(text: string): Promise<void> {
    this.stdout.write(text);
    await flush();
  }
  exit(code: number | null, signal: NodeJS.Signals | null = null): void {
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('exit', code, signal);
  }
}

export const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export interface Recorder {
  deps: LaunchDeps;
  children: RecordedChild[];
  printed: string[];
  out: string[];
  /** The next child spawned, once it is. */
  next(): Promise<RecordedChild>;
}

export function recorder(over: Partial<LaunchDeps> = {}): Recorder {
  const children: RecordedChild[] = [];
  const printed: string[] = [];
  const out: string[] = [];
  let taken = 0;
  const deps: LaunchDeps = {
    spawn: (command, args, options) => {
      const child = new RecordedChild(command, args, options);
      children.push(child);
      return child as unknown as ChildProcess;
    },
    platform: 'linux',
    env: { DISPLAY: ':0', MNEMO_ELECTRON_PATH: '/opt/electron/electron', PATH: '/usr/bin' },
    execPath: '/usr/bin/node',
    timeoutMs: 10_000,
    controlAddress: '/tmp/mnemo-launch-test.sock',
    exists: () => true,
    print: (line) => void printed.push(line),
    stdout: (chunk) => void out.push(chunk.toString()),
    stderr: (chunk) => void out.push(chunk.toString()),
    killGroup: (child) => {
      (child as unknown as RecordedChild).killedGroup = true;
    },
    ...over,
  };
  return {
    deps,
    children,
    printed,
    out,
    async next() {
      for (let i = 0; i < 50 && children.length <= taken; i++) await flush();
      const child = children[taken++];
      if (!child) throw new Error('nothing was spawned');
      return child;
    },
  };
}
