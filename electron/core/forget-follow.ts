// "Forget permanently" in another process on this folder (the app beside a CLI run, two windows): that
// process erases what it can reach, but a conversation this process is answering in is held by our run's
// lease, and our live state, kept run events and indexes are ours alone. So every process follows the
// forgets' intent records (memory's watchForgets) and, for each whose memory part is done, erases its own
// copies at once, as the forget's own process does (eraseCopies: under our lease for our conversations,
// held for what our runs still write), then settles it. The forget's process waits for that settle
// instead of failing on the busy conversation. Erasing is idempotent, so two processes doing it is safe.
import type { CoreContext } from './context.js';
import { eraseCopies, underWay } from './forget.js';

const RETRY_MS = 500;
const RETRIES = 20;

export interface ForgetFollower {
  /** Stops following; resolves once an erase under way has finished. */
  stop(): Promise<void>;
}

export function followForgets(ctx: CoreContext): ForgetFollower {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let queued = false;
  let retry: NodeJS.Timeout | undefined;
  let retries = 0;
  const check = async (): Promise<void> => {
    const ours = underWay(ctx);
    // Only ids known before the read can be settled by what it finds.
    const known = [...ours];
    const pending = await ctx.memory.pendingForgets({ tidy: false });
    for (const id of known) if (!pending.some((t) => t.id === id)) ours.delete(id);
    let unfinished = false;
    for (const trace of pending) {
      // Still in its memory part (its process is at it), or ours: left to the process doing it.
      if (stopped || !trace.memoryDone || ours.has(trace.id)) continue;
      try {
        await eraseCopies(ctx, trace);
        await ctx.memory.settleForget(trace.id);
        ctx.log.info('forget made in another process: copies erased here');
      } catch (error) {
        unfinished = true;
        ctx.log.warn('forget made in another process: copies not all erased yet', { error });
      }
    }
    // A conversation held by yet another process, a lock taken for a moment: tried again a little later.
    if (unfinished && !stopped && retries++ < RETRIES) retry = setTimeout(schedule, RETRY_MS).unref();
    if (!unfinished) retries = 0;
  };
  const schedule = (): void => {
    if (stopped || queued) return;
    queued = true;
    running = running.then(async () => {
      queued = false;
      if (!stopped) await check().catch((error: unknown) => ctx.log.warn('forgets not followed', { error }));
    });
  };
  const unwatch = ctx.memory.watchForgets(schedule);
  return {
    stop: async () => {
      stopped = true;
      unwatch();
      clearTimeout(retry);
      await running;
    },
  };
}
