// `npm start`'s decisions over a recorded child process: display or not, binary found or not, what
// Electron is given, early exit, no sign of life, a slow start that is working, a second instance and a
// failed start. Fake timers stand in for the deadline; no test measures time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { launchElectron, STILL_STARTING, type LaunchOutcome } from '../../../electron/launch-electron.js';
import { CONTROL_ENV, LAUNCHER_ENV, MARKERS } from '../../../electron/launch-signal.js';
import { flush, recorder, type Recorder } from './recorded-child.js';

const ROOT = '/home/ana/My Projects/mnemo';
const FLAGS = ['--data-dir', '/home/ana/data'];

beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
afterEach(() => void vi.useRealTimers());

/** Starts a launch and tracks whether it has decided yet. */
function launch(rec: Recorder) {
  let outcome: LaunchOutcome | undefined;
  const done = launchElectron(ROOT, FLAGS, rec.deps).then((o) => (outcome = o));
  return { done, decided: () => outcome };
}

describe('the launcher, before Electron runs', () => {
  it('on Linux without a display: unavailable, and nothing is started', async () => {
    const rec = recorder({ env: { MNEMO_ELECTRON_PATH: '/opt/electron/electron' } });
    expect(await launchElectron(ROOT, FLAGS, rec.deps)).toEqual({
      kind: 'unavailable',
      reason: 'there is no graphical display',
    });
    expect(rec.children).toEqual([]);
  });

  it.each([{ DISPLAY: ':1' }, { WAYLAND_DISPLAY: 'wayland-0' }])(
    'on Linux with %o: starts Electron',
    async (env) => {
      const rec = recorder({ env: { ...env, MNEMO_ELECTRON_PATH: '/opt/e' } });
      launch(rec);
      expect((await rec.next()).command).toBe('/opt/e');
    },
  );

  it('on macOS and Windows no DISPLAY is needed', async () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const rec = recorder({ platform, env: { MNEMO_ELECTRON_PATH: '/opt/e' } });
      launch(rec);
      expect((await rec.next()).command).toBe('/opt/e');
    }
  });

  it('finds the binary through require("electron") in a child, then runs it', async () => {
    const rec = recorder({ env: { DISPLAY: ':0' }, exists: (f) => f === '/nm/electron/dist/electron' });
    launch(rec);
    const lookup = await rec.next();
    expect(lookup.command).toBe('/usr/bin/node');
    expect(lookup.args.join(' ')).toContain("require('electron')");
    await lookup.say('Downloading...\n/nm/electron/dist/electron');
    lookup.exit(0);
    expect((await rec.next()).command).toBe('/nm/electron/dist/electron');
  });

  it.each([
    ['the lookup fails', 1, '/nm/electron/dist/electron'],
    ['the path it gives does not exist', 0, '/nm/electron/dist/missing'],
  ])('binary not found (%s): unavailable', async (_case, code, printed) => {
    const rec = recorder({ env: { DISPLAY: ':0' }, exists: (f) => f === '/nm/electron/dist/electron' });
    const run = launch(rec);
    const lookup = await rec.next();
    await lookup.say(printed);
    lookup.exit(code);
    await run.done;
    expect(run.decided()).toEqual({
      kind: 'unavailable',
      reason: 'the Electron runtime is not installed and could not be downloaded',
    });
    expect(rec.children).toHaveLength(1);
  });

  it('a lookup that hangs (a blocking download) is killed at the deadline', async () => {
    const rec = recorder({ env: { DISPLAY: ':0' } });
    const run = launch(rec);
    const lookup = await rec.next();
    await vi.advanceTimersByTimeAsync(10_000);
    await run.done;
    expect(run.decided()).toEqual({
      kind: 'unavailable',
      reason: 'the Electron runtime was still being fetched after 10 s',
    });
    expect(lookup.killedGroup).toBe(true);
  });
});

describe('what Electron is given', () => {
  it('the project and the flags, its own process group, and the launcher link', async () => {
    const rec = recorder();
    launch(rec);
    const electron = await rec.next();
    expect(electron.args).toEqual([ROOT, ...FLAGS]);
    expect(electron.options).toMatchObject({ cwd: ROOT, detached: true });
    expect(electron.options.env).toMatchObject({
      [LAUNCHER_ENV]: '1',
      [CONTROL_ENV]: '/tmp/mnemo-launch-test.sock',
      PATH: '/usr/bin',
    });
  });

  it('never an inherited ELECTRON_RUN_AS_NODE (Electron would run as plain Node)', async () => {
    const rec = recorder({
      env: { DISPLAY: ':0', MNEMO_ELECTRON_PATH: '/opt/e', ELECTRON_RUN_AS_NODE: '1' },
    });
    launch(rec);
    const electron = await rec.next();
    expect(electron.options.env).not.toHaveProperty('ELECTRON_RUN_AS_NODE');
    expect(rec.deps.env.ELECTRON_RUN_AS_NODE).toBe('1');
  });
});

describe('the launcher, while Electron starts', () => {
  it('the window is ready: hand over, with what the app printed before it and without the markers', async () => {
    const rec = recorder();
    const run = launch(rec);
    const electron = await rec.next();
    await electron.say(`${MARKERS.started}\nhello from main\n${MARKERS.ready}\nafter`);
    await run.done;
    expect(run.decided()).toEqual({ kind: 'window', child: electron });
    expect(rec.out.join('')).toBe('hello from main\nafter');
    expect(electron.killedGroup).toBe(false);
  });

  it('an early exit before the main process runs: unavailable', async () => {
    const rec = recorder();
    const run = launch(rec);
    (await rec.next()).exit(1);
    await run.done;
    expect(run.decided()).toEqual({ kind: 'unavailable', reason: 'it exited early (code 1)' });
  });

  it('a binary that cannot be executed: unavailable, with no host path in the reason', async () => {
    const rec = recorder();
    const run = launch(rec);
    (await rec.next()).emit('error', Object.assign(new Error('spawn /opt/e EACCES'), { code: 'EACCES' }));
    await run.done;
    expect(run.decided()).toEqual({ kind: 'unavailable', reason: 'the Electron binary could not be run' });
  });

  it('no sign of life within the deadline: given up and killed', async () => {
    const rec = recorder();
    const run = launch(rec);
    const electron = await rec.next();
    await vi.advanceTimersByTimeAsync(10_000);
    await run.done;
    expect(run.decided()).toEqual({ kind: 'unavailable', reason: 'the window did not open within 10 s' });
    expect(electron.killedGroup).toBe(true);
  });

  it('a slow start that is working is waited for, never killed, and said once', async () => {
    const rec = recorder();
    const run = launch(rec);
    const electron = await rec.next();
    await electron.say(`${MARKERS.started}\n`);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(run.decided()).toBeUndefined();
    expect(electron.killedGroup).toBe(false);
    expect(rec.printed).toEqual([STILL_STARTING]);
    await electron.say(`${MARKERS.ready}\n`);
    await run.done;
    expect(run.decided()).toMatchObject({ kind: 'window' });
  });

  it('markers split across chunks and CRLF line ends (Windows) are still read', async () => {
    const rec = recorder();
    const run = launch(rec);
    const electron = await rec.next();
    await electron.say('MNEMO_MAIN_ST');
    await electron.say('ARTED\r\nMNEMO_WIN');
    await electron.say('DOW_READY\r\n');
    await run.done;
    expect(run.decided()).toMatchObject({ kind: 'window' });
  });

  it('a second instance on the same data folder is not a failure', async () => {
    const rec = recorder();
    const run = launch(rec);
    const electron = await rec.next();
    await electron.say(`${MARKERS.secondInstance}\n`);
    electron.exit(0);
    await run.done;
    expect(run.decided()).toEqual({ kind: 'second-instance' });
    expect(electron.killedGroup).toBe(false);
  });

  it('a failed start reports the app’s message (it showed it in a dialog too)', async () => {
    const rec = recorder();
    const run = launch(rec);
    const electron = await rec.next();
    await electron.say(`${MARKERS.started}\n${MARKERS.startFailed} The data folder is not a folder.\n`);
    electron.exit(1);
    await run.done;
    expect(run.decided()).toEqual({ kind: 'start-failed', message: 'The data folder is not a folder.' });
  });

  it('Electron’s stderr before the window is noise; after it, it is the app’s', async () => {
    const rec = recorder();
    const run = launch(rec);
    const electron = await rec.next();
    electron.stderr.write('[123:ERROR:gpu] noise\n');
    await flush();
    await electron.say(`${MARKERS.ready}\n`);
    await run.done;
    electron.stderr.write('the app says\n');
    await flush();
    expect(rec.out.join('')).toBe('the app says\n');
  });
});
