// Work that must not compete with what the user is waiting for (an open's first screen): run once the
// browser is idle, or after `timeoutMs` at the latest.

/** Runs `fn` once the browser is idle (a macrotask where there is no idle callback); returns its cancel. */
export function whenIdle(fn: () => void, timeoutMs = 1000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(fn, { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(fn, 0);
  return () => clearTimeout(timer);
}
