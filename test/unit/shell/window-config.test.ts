import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAppAsset } from '../../../electron/shell/app-protocol.js';
import { contentSecurityPolicy } from '../../../electron/shell/csp.js';
import { appShortcuts, menuTemplate, type MenuItem } from '../../../electron/shell/menu.js';
import { windowOptions } from '../../../electron/shell/window-options.js';
import {
  DEFAULT_STATE,
  fitToScreens,
  loadWindowState,
  saveWindowState,
} from '../../../electron/shell/window-state.js';

describe('BrowserWindow options', () => {
  const { webPreferences } = windowOptions('/app/preload.cjs', { width: 1000, height: 700 });
  it('isolates and sandboxes the renderer', () => {
    expect(webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      enableBlinkFeatures: '',
      preload: '/app/preload.cjs',
      disableBlinkFeatures: 'Auxclick',
    });
  });
});

describe('Content-Security-Policy', () => {
  const policy = Object.fromEntries(
    contentSecurityPolicy()
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
  it('allows scripts only from the app: no inline, no eval, no remote', () => {
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['default-src']).toEqual(["'none'"]);
  });
  it('loads no remote images (an exfiltration channel for memory)', () => {
    expect(policy['img-src'].every((v: string) => ["'self'", 'data:', 'blob:'].includes(v))).toBe(true);
  });
  it('has no wildcard and no unsafe source anywhere', () => {
    expect(contentSecurityPolicy()).not.toMatch(/\*|unsafe-eval|unsafe-inline|https?:/);
  });
  it('forbids plugins, base rewriting, forms and framing', () => {
    for (const d of ['object-src', 'base-uri', 'form-action', 'frame-ancestors'])
      expect(policy[d]).toEqual(["'none'"]);
  });
});

describe('app:// protocol', () => {
  const dir = '/srv/mnemo/renderer';
  it('refuses encoded traversal, backslashes, NUL and foreign hosts outright', () => {
    for (const url of [
      'app://mnemo/a%5c..%5csecret',
      'app://mnemo/a%00.html',
      'app://other/index.html',
      'file:///etc/passwd',
    ]) {
      expect(resolveAppAsset(dir, url)).toBeNull();
    }
  });
  it('serves files of the renderer folder', () => {
    expect(resolveAppAsset(dir, 'app://mnemo/index.html')).toBe(path.join(dir, 'index.html'));
    expect(resolveAppAsset(dir, 'app://mnemo/')).toBe(path.join(dir, 'index.html'));
    expect(resolveAppAsset(dir, 'app://mnemo/assets/a.js?x=1')).toBe(path.join(dir, 'assets/a.js'));
  });
  it.each([
    'app://mnemo/../secret',
    'app://mnemo/%2e%2e/%2e%2e/etc/passwd',
    'app://mnemo/..%2fsecret',
    'app://mnemo/a%5c..%5c..%5csecret',
    'app://mnemo/a%00.html',
    'app://other/index.html',
    'file:///etc/passwd',
    'app://mnemo/%E0%A4%A',
  ])('never leaves the renderer folder for %s', (url) => {
    const file = resolveAppAsset(dir, url);
    expect(file === null || file.startsWith(dir + path.sep)).toBe(true);
  });
});

describe('window state', () => {
  it('round-trips and falls back to defaults on a damaged file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-ws-'));
    expect(loadWindowState(dir)).toEqual(DEFAULT_STATE);
    saveWindowState(dir, { x: 10, y: 20, width: 900, height: 600, maximized: true });
    expect(loadWindowState(dir)).toEqual({ x: 10, y: 20, width: 900, height: 600, maximized: true });
    fs.writeFileSync(path.join(dir, 'window-state.json'), '{"width": "wide"');
    expect(loadWindowState(dir)).toEqual(DEFAULT_STATE);
  });
  it('keeps a visible window where it was and recentres one left on an unplugged screen', () => {
    const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];
    expect(fitToScreens({ x: 100, y: 80, width: 1000, height: 700, maximized: false }, screen)).toEqual({
      x: 100,
      y: 80,
      width: 1000,
      height: 700,
    });
    expect(fitToScreens({ x: 4000, y: 80, width: 1000, height: 700, maximized: false }, screen)).toEqual({
      x: 460,
      y: 190,
      width: 1000,
      height: 700,
    });
  });
});

describe('application menu', () => {
  const flatten = (items: MenuItem[]): MenuItem[] => items.flatMap((i) => [i, ...flatten(i.submenu ?? [])]);
  it.each(['darwin', 'linux', 'win32'] as const)(
    'on %s has the standard roles and every app shortcut',
    (platform) => {
      const all = flatten(menuTemplate(platform));
      const roles = all.map((i) => i.role).filter(Boolean);
      expect(roles).toEqual(expect.arrayContaining(['editMenu', 'windowMenu', 'togglefullscreen']));
      for (const s of appShortcuts) {
        expect(all.find((i) => i.command === s.command)?.accelerator).toBe(s.accelerator);
      }
      expect(new Set(appShortcuts.map((s) => s.accelerator)).size).toBe(appShortcuts.length);
    },
  );
});
