// A run holds its conversation across processes from before its first write until it finishes: the
// agent's claim keeps two runs of this process apart, the store's lease (conversations/lock.ts) keeps out
// the other processes on the data folder. Taking the lease catches up with what they appended, so every
// check a handler makes before starting a run is made against the file's current history.
import type { Agent } from '../agent/index.js';
import type { ConversationLease } from '../conversations/store.js';
import type { RunHandle, RunRegistry } from '../runs.js';

/**
 * Claims and leases `conversationId`, then runs `prepare` (checks, the user's message, a truncation).
 * On any failure both are given back and nothing else was written by us. `prepare` gets whether other
 * processes' records were applied by the catch-up (cached per-conversation figures were reset then).
 */
export async function holdConversation<T>(
  agent: Agent,
  conversationId: string,
  prepare: (caughtUp: boolean) => Promise<T> | T,
): Promise<{ value: T; lease: ConversationLease }> {
  agent.claim(conversationId);
  let lease: ConversationLease | undefined;
  try {
    lease = await agent.store.lease(conversationId);
    if (lease.caughtUp > 0) agent.forget(conversationId);
    return { value: await prepare(lease.caughtUp > 0), lease };
  } catch (error) {
    agent.release(conversationId);
    await lease?.release();
    throw error;
  }
}

/** Starts the run on a held conversation; the lease is given back once the run has finished. */
export function startLeased(
  agent: Agent,
  runs: RunRegistry,
  lease: ConversationLease,
  start: (agent: Agent) => RunHandle,
): RunHandle {
  let run: RunHandle;
  try {
    run = start(agent);
  } catch (error) {
    void lease.release();
    throw error;
  }
  runs.whenFinished(run.runId, () => void lease.release());
  return run;
}
