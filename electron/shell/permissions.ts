// Session permissions: an allow-list, everything else denied. The app needs one permission: writing
// plain text to the clipboard (the Copy buttons call navigator.clipboard.writeText, which Chromium asks
// for as `clipboard-sanitized-write`), and only for its own page. Reading the clipboard, camera,
// notifications, geolocation, fullscreen, external protocols, ... are all refused.
import { APP_HOST, APP_SCHEME } from './window-options.js';

export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

export function isAllowedPermission(permission: string, requestingUrl: string | undefined): boolean {
  return ALLOWED_PERMISSIONS.has(permission) && requestingUrl !== undefined && isAppUrl(requestingUrl);
}

/** `session.setPermissionRequestHandler`. */
export function handlePermissionRequest(
  webContents: { getURL(): string } | null,
  permission: string,
  callback: (granted: boolean) => void,
  details?: { requestingUrl?: string },
): void {
  callback(isAllowedPermission(permission, details?.requestingUrl ?? webContents?.getURL()));
}

/** `session.setPermissionCheckHandler`: the synchronous form of the same question. */
export function handlePermissionCheck(
  _webContents: unknown,
  permission: string,
  requestingOrigin: string,
): boolean {
  return isAllowedPermission(permission, requestingOrigin);
}

function isAppUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === `${APP_SCHEME}:` && url.hostname === APP_HOST && url.port === '' && !url.username;
  } catch {
    return false;
  }
}
