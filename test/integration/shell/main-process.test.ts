// The real main process, built, started from a folder whose path has a space and non-ASCII characters,
// with a recording stand-in for `electron` (the binary cannot be downloaded here; test/e2e/electron-smoke
// runs the real one where it exists). It must find its preload and page, serve app:// with the CSP,
// answer the page through the real preload bridge, report a failed start and exit, hand a second launch
// to the first window, and flush the core when quitting.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchResult, StandInState } from './electron-stand-in/protocol.js';
import { copyBuild, startMain, type MainProcess } from './main-process.js';

let app: string;
let dataDir: string;
let main: MainProcess;

const freshDataDir = () => path.join(mkdtempSync(path.join(tmpdir(), 'mnemo-smoke-data-')), 'Dätä ordner');

beforeAll(async () => {
  app = copyBuild();
  dataDir = freshDataDir(); // does not exist yet: a first start
  main = startMain(app, ['--data-dir', dataDir]);
  await main.send({ cmd: 'ready' });
  // The stand-in reports a page or preload it could not load instead of waiting for a window forever.
  const first = await main.event(['window-shown', 'load-failed', 'preload-missing', 'error-box']);
  expect(first, 'the window opened with its page and preload').toEqual({ event: 'window-shown' });
});

afterAll(() => {
  if (main.child.exitCode === null) main.child.kill('SIGKILL');
});

const state = () => main.send<StandInState & { calls: string[] }>({ cmd: 'state' });

describe('the built main process, from "Mnemo Tést ü/"', () => {
  it('runs from the copy, with a path that really has the space and the accents', async () => {
    expect(app).toMatch(/Mnemo Tést ü$/);
    // What `npm start` waits for (stdout, which may trail the IPC report).
    await expect.poll(() => main.output()).toMatch(/MNEMO_MAIN_STARTED\n[\s\S]*MNEMO_WINDOW_READY\n/);
  });

  it('gives the window a preload file that exists, inside the copy, hardened', async () => {
    const [window] = (await state()).windows;
    const preload = window!.options.webPreferences.preload;
    expect(preload).toBe(path.join(app, 'dist/electron/preload.cjs'));
    expect(existsSync(preload)).toBe(true);
    expect(window!.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true });
    expect(window!.loadedUrl).toBe('app://mnemo/index.html');
    expect(window!.calls).toContain('show');
  });

  it('opens a new window centred on the primary display, not on the first one listed', async () => {
    const [window] = (await state()).windows;
    expect(window!.options).toMatchObject({ x: 640, y: 310, width: 1280, height: 820 });
  });

  it('created the data folder before giving it to Electron as userData', async () => {
    expect((await state()).paths.userData).toBe(dataDir);
    expect(existsSync(path.join(dataDir, 'logs'))).toBe(true);
  });

  it('serves the built index.html and its assets over app:// with the CSP', async () => {
    const index = await main.send<FetchResult>({ cmd: 'fetch', url: 'app://mnemo/index.html' });
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['content-security-policy']).toMatch(/default-src 'none'.*script-src 'self'/);
    expect(index.body).toBe(readFileSync(path.join(app, 'dist/renderer/index.html'), 'utf8'));
    const assets = [...index.body.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const served = await main.send<FetchResult>({ cmd: 'fetch', url: `app://mnemo/${asset}` });
      expect(served.status, asset).toBe(200);
      expect(served.headers['content-security-policy']).toBe(index.headers['content-security-policy']);
      expect(served.body).toBe(readFileSync(path.join(app, 'dist/renderer', asset), 'utf8'));
    }
  });

  it.each([
    'app://mnemo/../package.json',
    'app://mnemo/%2e%2e/%2e%2e/package.json',
    'app://mnemo/..%2f..%2fpackage.json',
    'app://mnemo/%2e%2e%5c%2e%2e%5cpackage.json',
    'app://mnemo/no-such-file.js',
    'app://other/index.html',
  ])('refuses %s', async (url) => {
    const refused = await main.send<FetchResult>({ cmd: 'fetch', url });
    expect(refused.status).toBe(404);
    expect(refused.body).not.toContain('"name"');
    expect(refused.body).not.toContain(app);
  });

  it('answers a real call through the preload’s bridge', async () => {
    const info = await main.send<{ ok: boolean; value: { host: string; dataDir: string } }>({
      cmd: 'invoke',
      channel: 'app.info',
      payload: {},
    });
    expect(info).toMatchObject({ ok: true, value: { host: 'electron', dataDir } });
    const set = await main.send<{ ok: boolean; value: { settings: { theme: string } } }>({
      cmd: 'invoke',
      channel: 'settings.set',
      payload: { patch: { theme: 'dark' } },
    });
    expect(set).toMatchObject({ ok: true, value: { settings: { theme: 'dark' } } });
    const refused = await main.send<{ ok: boolean }>({
      cmd: 'invoke',
      channel: 'settings.set',
      payload: { patch: { theme: 'neon' } },
    });
    expect(refused.ok).toBe(false);
  });

  it('grants the clipboard write to the app page and nothing else', async () => {
    const ask = (permission: string, url = 'app://mnemo/index.html') =>
      main.send<boolean>({ cmd: 'permission', permission, url });
    expect(await ask('clipboard-sanitized-write')).toBe(true);
    expect(await ask('clipboard-sanitized-write', 'https://example.com/')).toBe(false);
    expect(await ask('media')).toBe(false);
    expect(await ask('clipboard-read')).toBe(false);
  });

  it('shows a context menu with the spelling suggestions on right-click', async () => {
    await main.send({
      cmd: 'context-menu',
      params: {
        isEditable: true,
        selectionText: '',
        misspelledWord: 'memroy',
        dictionarySuggestions: ['memory'],
        linkURL: '',
        editFlags: { canCut: false, canCopy: false, canPaste: true, canSelectAll: true },
      },
    });
    const labels = (await state()).popups.at(-1)!.template.map((i) => i.label ?? i.role ?? i.type);
    expect(labels).toEqual([
      'memory',
      'Add to Dictionary',
      'separator',
      'cut',
      'copy',
      'paste',
      'separator',
      'selectAll',
    ]);
  });

  it('a second launch brings the first window back and to the front', async () => {
    await main.send({ cmd: 'minimize' });
    await main.send({ cmd: 'second-instance' });
    expect((await state()).windows[0]!.calls.slice(-2)).toEqual(['restore', 'focus']);
  });

  it('quitting flushes the core before the process exits', async () => {
    await main.send({ cmd: 'quit' });
    expect(await main.exited).toBe(0);
    const log = readFileSync(path.join(dataDir, 'logs/mnemo.log'), 'utf8');
    expect(log).toContain('core closed');
    expect(JSON.parse(readFileSync(path.join(dataDir, 'config.json'), 'utf8'))).toMatchObject({
      theme: 'dark',
    });
    expect(existsSync(path.join(dataDir, 'window-state.json'))).toBe(true);
    expect(main.events().filter((e) => e.event === 'error-box')).toEqual([]);
  });
});

describe('a main process that cannot start', () => {
  it('with a data folder that is a file: shows the app’s message and exits 1', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'mnemo-smoke-file-')), 'not a folder');
    writeFileSync(file, 'x');
    const failing = startMain(app, ['--data-dir', file]);
    const box = await failing.event('error-box');
    expect(box).toMatchObject({ title: 'Mnemo could not start' });
    expect(String(box.content)).toMatch(/exists but is not a folder\. Choose another with --data-dir\./);
    expect(await failing.exited).toBe(1);
    expect(failing.output()).toMatch(/^MNEMO_START_FAILED .*not a folder/m);
    expect(failing.output()).not.toMatch(/\n\s+at /);
  });

  it('when start() itself throws after ready (memory cannot open): the message, then exit 1', async () => {
    const data = freshDataDir();
    mkdirSync(data, { recursive: true });
    writeFileSync(path.join(data, 'memories'), 'a file where the memory folder goes');
    const failing = startMain(app, ['--data-dir', data]);
    await failing.send({ cmd: 'ready' });
    const box = await failing.event('error-box');
    expect(box).toMatchObject({ title: 'Mnemo could not start' });
    expect(await failing.exited).toBe(1);
    expect(failing.events().map((e) => e.event)).not.toContain('window-shown');
  });
  it('when part of the install is missing (a module cannot load): the message, no host path, exit 1', async () => {
    const damaged = copyBuild();
    rmSync(path.join(damaged, 'dist/electron/core/create-core.js'));
    const failing = startMain(damaged, ['--data-dir', freshDataDir()]);
    await failing.send({ cmd: 'ready' });
    const box = await failing.event('error-box');
    expect(box).toMatchObject({ title: 'Mnemo could not start' });
    expect(String(box.content)).toMatch(/could not load its own files.*npm install/);
    expect(String(box.content)).not.toContain(damaged);
    expect(await failing.exited).toBe(1);
  });
});

describe('a second instance on the same data folder', () => {
  it('says so to the launcher and quits without a window, a dialog or a failure', async () => {
    const second = startMain(app, ['--data-dir', freshDataDir()], { MNEMO_STAND_IN_LOCK: 'held' });
    expect(await second.exited).toBe(0);
    expect(second.output()).toContain('MNEMO_SECOND_INSTANCE');
    expect(second.events().map((e) => e.event)).toEqual(['exit']);
  });
});
