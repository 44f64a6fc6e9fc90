// The session's permission handlers: an allow-list of one (the Copy buttons' clipboard write), for the
// app's own page only; everything else, and anything asked by another origin, is denied.
import { describe, expect, it } from 'vitest';
import {
  ALLOWED_PERMISSIONS,
  handlePermissionCheck,
  handlePermissionRequest,
} from '../../../electron/shell/permissions.js';

const APP = 'app://mnemo/index.html';

function request(permission: string, url: string, details?: { requestingUrl?: string }): boolean {
  let granted: boolean | undefined;
  handlePermissionRequest({ getURL: () => url }, permission, (g) => (granted = g), details);
  if (granted === undefined) throw new Error('the callback was not called');
  return granted;
}

describe('permissions', () => {
  it('allows writing plain text to the clipboard from the app (navigator.clipboard.writeText)', () => {
    expect(request('clipboard-sanitized-write', APP)).toBe(true);
    expect(request('clipboard-sanitized-write', 'about:blank', { requestingUrl: APP })).toBe(true);
    expect(handlePermissionCheck(null, 'clipboard-sanitized-write', 'app://mnemo')).toBe(true);
    expect(handlePermissionCheck(null, 'clipboard-sanitized-write', 'app://mnemo/')).toBe(true);
  });

  it('allows nothing else', () => expect([...ALLOWED_PERMISSIONS]).toEqual(['clipboard-sanitized-write']));

  it.each([
    'clipboard-read',
    'media',
    'geolocation',
    'notifications',
    'midi',
    'midiSysex',
    'pointerLock',
    'fullscreen',
    'openExternal',
    'window-management',
    'unknown',
    'display-capture',
    'mediaKeySystem',
    'idle-detection',
    'serial',
    'usb',
    'hid',
    'fileSystem',
    '',
  ])('denies %s, asked or checked', (permission) => {
    expect(request(permission, APP)).toBe(false);
    expect(handlePermissionCheck(null, permission, 'app://mnemo')).toBe(false);
  });

  it.each([
    'https://example.com/',
    'app://evil/index.html',
    'app://mnemo.evil/index.html',
    'app://mnemo:8080/index.html',
    'file:///index.html',
    'http://127.0.0.1:5173/',
    'null',
    '',
  ])('denies even the clipboard write to %s', (url) => {
    expect(request('clipboard-sanitized-write', url)).toBe(false);
    expect(request('clipboard-sanitized-write', APP, { requestingUrl: url })).toBe(false);
    expect(handlePermissionCheck(null, 'clipboard-sanitized-write', url)).toBe(false);
  });
});
