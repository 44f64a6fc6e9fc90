// Coalescing of frequent notifications (a fast agent loop changes the conversation list and the context
// meter many times a second; windows need the latest state, not every step).

/**
 * Returns a `schedule()` that calls `fn` on the next turn of the event loop the first time, then at most
 * once per `intervalMs`; calls made meanwhile are merged into one that always follows, so the last state
 * is never lost. The timer does not keep the process alive.
 */
export function throttle(fn: () => void, intervalMs: number): () => void {
  let scheduled = false;
  let lastAt = -Infinity;
  const run = (): void => {
    scheduled = false;
    lastAt = performance.now();
    fn();
  };
  return () => {
    if (scheduled) return;
    scheduled = true;
    const wait = lastAt + intervalMs - performance.now();
    if (wait <= 0) setImmediate(run);
    else setTimeout(run, wait).unref();
  };
}
