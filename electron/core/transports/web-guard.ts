// Who may talk to the browser-mode server. The server binds 127.0.0.1 only, but any local program and any
// web page the user visits can reach 127.0.0.1, so:
// - the WebSocket and the upload endpoint need the random token from the printed URL (constant-time
//   compare);
// - a browser always sends Origin with a WebSocket handshake and a cross-origin POST: it must be this
//   server's own origin (http://127.0.0.1:PORT or http://localhost:PORT), which refuses other sites and
//   DNS-rebinding pages. A missing Origin means a non-browser client (a CLI, a test, a script the user
//   runs); it is allowed when it presents the token, since such a client could read the token anyway;
// - the Host header must name the loopback server (DNS rebinding again: a page on evil.example resolving
//   to 127.0.0.1 sends Host: evil.example).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const newToken = (): string => randomBytes(32).toString('base64url');

/** Compares in constant time (hashing first makes the lengths equal). */
export function tokensEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

export const ownOrigins = (port: number): string[] => [
  `http://127.0.0.1:${port}`,
  `http://localhost:${port}`,
];
const ownHosts = (port: number): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];

export type Verdict = { ok: true } | { ok: false; status: 400 | 401 | 403; reason: string };

export function checkHost(headers: IncomingHttpHeaders, port: number): Verdict {
  const host = headers.host?.toLowerCase();
  return host && ownHosts(port).includes(host)
    ? { ok: true }
    : { ok: false, status: 403, reason: 'unexpected Host header' };
}

export function checkOrigin(headers: IncomingHttpHeaders, port: number): Verdict {
  const origin = headers.origin;
  if (origin === undefined) return { ok: true };
  return ownOrigins(port).includes(origin.toLowerCase())
    ? { ok: true }
    : { ok: false, status: 403, reason: 'foreign Origin' };
}

export function checkToken(given: string | null | undefined, expected: string): Verdict {
  if (!given) return { ok: false, status: 401, reason: 'missing token' };
  return tokensEqual(given, expected) ? { ok: true } : { ok: false, status: 401, reason: 'wrong token' };
}

/** All three checks, in the order that reveals the least: Host, then Origin, then the token. */
export function checkRequest(
  headers: IncomingHttpHeaders,
  token: string | null | undefined,
  expected: string,
  port: number,
): Verdict {
  for (const verdict of [checkHost(headers, port), checkOrigin(headers, port), checkToken(token, expected)]) {
    if (!verdict.ok) return verdict;
  }
  return { ok: true };
}
