// `npm start` as a real process, with small real executables standing in for the Electron binary
// (MNEMO_ELECTRON_PATH), each speaking the main process's side of launch-signal.ts: the environment
// Electron gets, a slow start that is working, a second instance, a failed start, and Ctrl+C.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STILL_STARTING } from '../../../electron/launch-electron.js';
import { entry, run, start, tempDir } from './processes.js';

const FALLBACK = /Could not open the Electron window/;
const BROWSER = /Mnemo is ready:/;

function fakeElectron(dir: string, body: string): string {
  const file = path.join(dir, 'fake-electron');
  writeFileSync(file, `#!${process.execPath}\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

const env = (binary: string, more: NodeJS.ProcessEnv = {}) => ({
  MNEMO_ELECTRON_PATH: binary,
  DISPLAY: ':99',
  ...more,
});

describe('npm start, with Electron stand-ins', () => {
  it('never passes an inherited ELECTRON_RUN_AS_NODE on to Electron', async () => {
    const dir = tempDir();
    const envFile = path.join(dir, 'env.json');
    const binary = fakeElectron(
      dir,
      [
        `require('fs').writeFileSync(${JSON.stringify(envFile)}, JSON.stringify(process.env));`,
        `process.stdout.write('MNEMO_MAIN_STARTED\\nMNEMO_WINDOW_READY\\n');`,
        'setTimeout(() => process.exit(0), 100);',
      ].join('\n'),
    );
    const result = await run(entry('launch'), ['--data-dir', path.join(dir, 'data')], {
      ...env(binary),
      ELECTRON_RUN_AS_NODE: '1',
    });
    expect(result.code).toBe(0);
    const seen = JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>;
    expect(seen).not.toHaveProperty('ELECTRON_RUN_AS_NODE');
    expect(seen.MNEMO_LAUNCHER).toBe('1');
    expect(seen.MNEMO_LAUNCHER_CONTROL).toBeTruthy();
  });

  it('waits for a slow start that is working instead of killing it at the deadline', async () => {
    const dir = tempDir();
    const binary = fakeElectron(
      dir,
      [
        `process.stdout.write('MNEMO_MAIN_STARTED\\n');`,
        // Well past the 1 s deadline below: a first start under a virus scanner.
        `setTimeout(() => process.stdout.write('MNEMO_WINDOW_READY\\nwindow says hi\\n'), 3000);`,
        'setTimeout(() => process.exit(5), 3300);',
      ].join('\n'),
    );
    const result = await run(
      entry('launch'),
      ['--data-dir', path.join(dir, 'data')],
      env(binary, { MNEMO_ELECTRON_TIMEOUT_MS: '1000' }),
    );
    expect(result.code).toBe(5);
    expect(result.stdout).toContain(STILL_STARTING);
    expect(result.stdout).toContain('window says hi');
    expect(result.stdout).not.toMatch(FALLBACK);
  });

  it('a second instance on the same data folder is not a failure: no browser mode', async () => {
    const dir = tempDir();
    const binary = fakeElectron(dir, `process.stdout.write('MNEMO_SECOND_INSTANCE\\n'); process.exit(0);`);
    const result = await run(entry('launch'), ['--data-dir', path.join(dir, 'data')], env(binary));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Mnemo is already open on this data folder');
    expect(result.stdout).not.toMatch(FALLBACK);
    expect(result.stdout).not.toMatch(BROWSER);
  });

  it('a failed start repeats the app’s message and exits 1, without browser mode on the same folder', async () => {
    const dir = tempDir();
    const binary = fakeElectron(
      dir,
      `process.stdout.write('MNEMO_MAIN_STARTED\\nMNEMO_START_FAILED The data folder is not a folder.\\n'); setTimeout(() => process.exit(1), 50);`,
    );
    const result = await run(entry('launch'), ['--data-dir', path.join(dir, 'data')], env(binary));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Mnemo could not start: The data folder is not a folder.');
    expect(result.stdout).not.toMatch(BROWSER);
  });

  it('Ctrl+C asks the app to quit gracefully, so it flushes (as on Windows, where a kill skips that)', async () => {
    const dir = tempDir();
    const flushed = path.join(dir, 'flushed');
    // Like Electron on Windows: a signal ends it at once; only the quit request runs its before-quit.
    const binary = fakeElectron(
      dir,
      [
        "process.on('SIGINT', () => process.exit(130));",
        "const socket = require('net').connect(process.env.MNEMO_LAUNCHER_CONTROL);",
        "socket.on('data', (d) => { if (String(d).includes('quit')) {",
        `  require('fs').writeFileSync(${JSON.stringify(flushed)}, 'yes'); process.exit(0); } });`,
        `socket.on('connect', () => process.stdout.write('MNEMO_MAIN_STARTED\\nMNEMO_WINDOW_READY\\nwindow open\\n'));`,
      ].join('\n'),
    );
    const face = await start(
      entry('launch'),
      ['--data-dir', path.join(dir, 'data')],
      env(binary),
      /window open/,
    );
    expect(await face.stop('SIGINT')).toBe(0);
    expect(existsSync(flushed)).toBe(true);
  });
});
