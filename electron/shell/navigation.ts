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

/** IPC sender check: the message must come from the app's own top frame on the app origin. */
export function isTrustedSenderUrl(frameUrl: string | undefined): boolean {
  return frameUrl !== undefined && isAllowedNavigation(frameUrl);
}

/** The part of WebContents that hardenContents wires. */
export interface HardenableContents {
  // Electron's listener types vary per event; `any` is what its declarations use too.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: string, listener: (...args: any[]) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/** Every webContents: no navigation away, no new windows, no webviews. */
export function hardenContents(contents: HardenableContents, openExternal: (url: string) => void): void {
  const blockForeign = (event: { preventDefault(): void }, url: string) => {
    if (!isAllowedNavigation(url)) event.preventDefault();
  };
  contents.on('will-navigate', blockForeign);
  contents.on('will-redirect', blockForeign);
  contents.on('will-attach-webview', (event: { preventDefault(): void }) => event.preventDefault());
  // Reviewed use of openExternal: handleWindowOpen passes only URLs that safeExternalUrl accepted.
  contents.setWindowOpenHandler((details) => handleWindowOpen(details, openExternal));
}
