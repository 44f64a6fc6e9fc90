// Navigation, new windows and external links, as plain functions the Electron shell wires to its events.
import { checkExternalUrl } from '../core/external-url.js';
import { APP_ORIGIN } from './window-options.js';

/** The https: URL to hand to the system browser, or null (the rule lives in core/external-url.ts). */
export function safeExternalUrl(raw: string): string | null {
  const checked = checkExternalUrl(raw);
  return checked.ok ? checked.url : null;
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
