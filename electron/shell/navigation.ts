// Navigation, new windows and external links, as plain functions the Electron shell wires to its events.
import { APP_ORIGIN } from './window-options.js';

/** Only https: URLs with a host and no credentials may leave the app (to the user's browser). */
export function safeExternalUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.hostname === '' || url.username !== '' || url.password !== '')
    return null;
  return url.toString();
}

/** `will-navigate` / `will-redirect`: the app never navigates away from its own origin. */
export function isAllowedNavigation(raw: string): boolean {
  try {
    return new URL(raw).origin === new URL(APP_ORIGIN).origin && raw.startsWith(`${APP_ORIGIN}/`);
  } catch {
    return false;
  }
}

/**
 * `setWindowOpenHandler`: no new windows, ever. An https link the user clicked is handed to the system
 * browser instead (openExternal is injected so this stays testable).
 */
export function handleWindowOpen(
  details: { url: string },
  openExternal: (url: string) => void,
): { action: 'deny' } {
  const url = safeExternalUrl(details.url);
  if (url) openExternal(url);
  return { action: 'deny' };
}

/** `setPermissionRequestHandler`: every permission (camera, notifications, clipboard-read, ...) is denied. */
export function denyPermissionRequest(
  _webContents: unknown,
  _permission: string,
  callback: (granted: boolean) => void,
): void {
  callback(false);
}

/** `setPermissionCheckHandler`: answers "no" to every synchronous permission check. */
export function denyPermissionCheck(): boolean {
  return false;
}

/** IPC sender check: the message must come from the app's own top frame on the app origin. */
export function isTrustedSenderUrl(frameUrl: string | undefined): boolean {
  return frameUrl !== undefined && isAllowedNavigation(frameUrl);
}
