import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir, ensureDataDir, resolveDataDir } from '../../../electron/core/data-dir.js';

describe('default data dir (Electron userData for "Mnemo")', () => {
  it.each([
    ['linux', {}, '/home/ann', '/home/ann/.config/Mnemo'],
    ['linux', { XDG_CONFIG_HOME: '/xdg' }, '/home/ann', '/xdg/Mnemo'],
    ['linux', { XDG_CONFIG_HOME: 'relative/xdg' }, '/home/ann', '/home/ann/.config/Mnemo'],
    ['darwin', {}, '/Users/ann', '/Users/ann/Library/Application Support/Mnemo'],
    [
      'win32',
      { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' },
      'C:\\Users\\ann',
      'C:\\Users\\ann\\AppData\\Roaming\\Mnemo',
    ],
    ['win32', {}, 'C:\\Users\\ann', 'C:\\Users\\ann\\AppData\\Roaming\\Mnemo'],
  ] as const)('%s %j', (platform, env, home, expected) => {
    expect(defaultDataDir(platform, env, home)).toBe(expected);
  });
});

describe('resolveDataDir precedence', () => {
  it('--data-dir wins over MNEMO_DATA_DIR, which wins over the default', () => {
    const env = { MNEMO_DATA_DIR: '/from/env' };
    expect(resolveDataDir({ flag: '/from/flag', env, home: '/h', platform: 'linux' })).toBe('/from/flag');
    expect(resolveDataDir({ env, home: '/h', platform: 'linux' })).toBe('/from/env');
    expect(resolveDataDir({ env: {}, home: '/h', platform: 'linux' })).toBe('/h/.config/Mnemo');
  });
  it('resolves relative paths against the working folder and expands ~', () => {
    expect(resolveDataDir({ flag: 'data', env: {}, cwd: '/work' })).toBe('/work/data');
    expect(resolveDataDir({ flag: '~/mnemo', env: {}, home: '/h' })).toBe('/h/mnemo');
  });
  it("resolves a relative flag against npm's INIT_CWD (the user's folder) when set", () => {
    expect(resolveDataDir({ flag: 'data', env: { INIT_CWD: '/home/ann/notes' } })).toBe(
      '/home/ann/notes/data',
    );
  });
  it('ignores an empty MNEMO_DATA_DIR', () => {
    expect(resolveDataDir({ env: { MNEMO_DATA_DIR: '  ' }, home: '/h', platform: 'linux' })).toBe(
      '/h/.config/Mnemo',
    );
  });
});

describe('ensureDataDir', () => {
  it('creates the folder owner-only (0700)', () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'mnemo-dd-')), 'a', 'Mnemo');
    ensureDataDir(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
  it('refuses a path that is a file, with an actionable message', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'mnemo-dd-')), 'file');
    writeFileSync(file, 'x');
    expect(() => ensureDataDir(file)).toThrow(/not a folder.*--data-dir/);
  });
});
