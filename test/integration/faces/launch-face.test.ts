// `npm start` (launch.ts): when the Electron runtime cannot be loaded in time it says so in one line and
// serves browser mode; when a window does open, it stays out of the way. Stand-ins for the Electron binary
// are small real executables (MNEMO_ELECTRON_PATH), since the real one cannot be downloaded here.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { entry, READY_URL, run, start, tempDir } from './processes.js';

const FALLBACK = /^Could not open the Electron window: (.+)\. Serving Mnemo in your browser instead\.$/m;

function fakeElectron(dir: string, body: string): string {
  const file = path.join(dir, 'fake-electron');
  writeFileSync(file, `#!${process.execPath}\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start', () => {
  it('without a loadable Electron runtime: one clear line, then browser mode', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const face = await start(entry('launch'), ['--data-dir', dataDir], {}, READY_URL);
    await face.stop();
    const lines = face.output().split('\n');
    expect(lines.filter((l) => FALLBACK.test(l))).toHaveLength(1);
    expect(lines.findIndex((l) => FALLBACK.test(l))).toBeLessThan(lines.findIndex((l) => READY_URL.test(l)));
    expect(face.output()).toContain(`Data folder: ${dataDir}`);
    expect(face.output()).not.toMatch(/\n\s+at /);
  });

  it('gives up on an Electron that does not open its window within the deadline, and kills it', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, 'pid');
    const binary = fakeElectron(
      dir,
      `require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`,
    );
    const face = await start(
      entry('launch'),
      ['--data-dir', path.join(dir, 'data')],
      { MNEMO_ELECTRON_PATH: binary, MNEMO_ELECTRON_TIMEOUT_MS: '1500', DISPLAY: ':99' },
      READY_URL,
    );
    await face.stop();
    expect(FALLBACK.exec(face.output())?.[1]).toBe('the window did not open within 1.5 s');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
  });

  it('hands over to Electron once its window is ready: no fallback, its exit code', async () => {
    const dir = tempDir();
    const argsFile = path.join(dir, 'args.json');
    const binary = fakeElectron(
      dir,
      [
        `require('fs').writeFileSync(${JSON.stringify(argsFile)}, JSON.stringify({ argv: process.argv.slice(2), launcher: process.env.MNEMO_LAUNCHER }));`,
        `process.stdout.write('MNEMO_WINDOW_READY\\nwindow says hi\\n');`,
        'setTimeout(() => process.exit(7), 200);',
      ].join('\n'),
    );
    const dataDir = path.join(dir, 'data');
    const result = await run(entry('launch'), ['--data-dir', dataDir], {
      MNEMO_ELECTRON_PATH: binary,
      DISPLAY: ':99',
    });
    expect(result.code).toBe(7);
    expect(result.stdout).toContain('window says hi');
    expect(result.stdout).not.toMatch(FALLBACK);
    expect(result.stdout).not.toContain('MNEMO_WINDOW_READY');
    const seen = JSON.parse(readFileSync(argsFile, 'utf8')) as { argv: string[]; launcher: string };
    expect(seen.argv.slice(-2)).toEqual(['--data-dir', dataDir]);
    expect(seen.launcher).toBe('1');
    expect(existsSync(path.join(dataDir, 'logs'))).toBe(false);
  });

  it('refuses bad flags with the usage and exit code 2', async () => {
    const result = await run(entry('launch'), ['--prot', '80'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: npm start --');
  });
});
