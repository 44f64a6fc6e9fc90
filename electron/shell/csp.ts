// The Content-Security-Policy of every app page, in Electron (custom protocol) and in browser mode
// (served by electron/web.ts): one policy, defined once.
//
// Why each directive:
// - scripts and styles only from the app itself: model output and memory contents are rendered as
//   Markdown, so an injected <script> or inline handler must never run;
// - img-src without remote origins: a Markdown image URL would be an exfiltration channel for memory
//   contents (security.md); data:/blob: cover icons and generated previews;
// - connect-src 'self': the WebSocket of browser mode is same-origin (CSP3 'self' matches ws: on the same
//   host and port); in Electron nothing connects at all (IPC is not subject to CSP);
// - no plugins, no <base> rewriting, no form posts, no framing.
const directives: Record<string, string[]> = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-src': ["'none'"],
  'frame-ancestors': ["'none'"],
};

export function contentSecurityPolicy(): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}
