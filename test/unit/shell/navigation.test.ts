import { describe, expect, it } from 'vitest';
import {
  handleWindowOpen,
  isAllowedNavigation,
  isTrustedSenderUrl,
  safeExternalUrl,
} from '../../../electron/shell/navigation.js';

describe('external links', () => {
  it.each([
    ['https://example.com/a?b=c', 'https://example.com/a?b=c'],
    ['HTTPS://Example.com', 'https://example.com/'],
  ])('allows %s', (raw, expected) => expect(safeExternalUrl(raw)).toBe(expected));

  it.each([
    'http://example.com',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'data:text/html,<script>1</script>',
    'app://mnemo/index.html',
    'https://user:pw@example.com',
    'smb://host/share',
    'not a url',
    '',
  ])('refuses %s', (raw) => expect(safeExternalUrl(raw)).toBeNull());
});

describe('navigation', () => {
  it('stays on the app origin', () => {
    expect(isAllowedNavigation('app://mnemo/index.html')).toBe(true);
    expect(isAllowedNavigation('app://mnemo/index.html#/settings')).toBe(true);
  });
  it.each([
    'https://example.com',
    'app://evil/index.html',
    'file:///index.html',
    'http://127.0.0.1:3000/',
    'garbage',
  ])('blocks %s', (url) => expect(isAllowedNavigation(url)).toBe(false));
});

describe('new windows', () => {
  it('always denies, and hands https links to the system browser', () => {
    const opened: string[] = [];
    expect(handleWindowOpen({ url: 'https://example.com/x' }, (u) => opened.push(u))).toEqual({
      action: 'deny',
    });
    expect(handleWindowOpen({ url: 'file:///etc/passwd' }, (u) => opened.push(u))).toEqual({
      action: 'deny',
    });
    expect(handleWindowOpen({ url: 'http://example.com' }, (u) => opened.push(u))).toEqual({
      action: 'deny',
    });
    expect(opened).toEqual(['https://example.com/x']);
  });
});

describe('IPC senders', () => {
  it('trusts only the app origin', () => {
    expect(isTrustedSenderUrl('app://mnemo/index.html')).toBe(true);
    expect(isTrustedSenderUrl('https://evil.example/')).toBe(false);
    expect(isTrustedSenderUrl('file:///tmp/x.html')).toBe(false);
    expect(isTrustedSenderUrl(undefined)).toBe(false);
  });
});
