// "Forget permanently", everywhere: the memory erases the file and its journal history (after writing down
// what it erases), then the app erases its own copies: the conversations (files and live state, with the
// API history built from them), the search indexes and the log. Only then is the forget settled and its
// intent record removed. A forget cut short (a crash, a full disk) stays pending and is finished by
// finishPendingForgets at the next start, before anything reads a conversation.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { crashPoint } from '../../memory/fs-safe.js';
import type { ForgetTrace } from '../../memory/types.js';
import { getAgent } from './agent/index.js';
import { ContractError } from '../../shared/errors.js';
import type { CoreContext } from './context.js';
import { PERSONAL_ID } from './spaces/model.js';
import { recordTombstone } from './sync/tombstones.js';
import { BUSY_MESSAGE, lockFile } from './conversations/lock.js';
import { createRedactor, type Redactor } from './conversations/redact.js';
import { trashedFiles } from './conversations/trash.js';
import {
  redactConversationFile,
  redactLogFile,
  removeRedactLeftovers,
} from './conversations/redact-files.js';

/**
 * A conversation file no store of this process has loaded is redacted under the same cross-process lock
 * that appends take (conversations/lock.ts): another process may be appending to it. A loaded one is
 * redacted by the store, which holds that lock itself (or already holds it for a run of this process).
 */
async function withConversationFileLock<T>(file: string, task: () => Promise<T>): Promise<T> {
  const lock = await lockFile(file, { waitMs: 1_500 });
  if (!lock) throw Object.assign(new Error(BUSY_MESSAGE), { code: 'EBUSY' });
  try {
    return await task();
  } finally {
    await lock.release();
  }
}

/** Forgets `path` in memory and erases every copy the app keeps of it. */
export async function forgetEverywhere(
  ctx: CoreContext,
  path: string,
  options: { tombstone?: boolean } = {},
): Promise<void> {
  const trace = await ctx.memory.forget(path);
  underWay(ctx).add(trace.id);
  // A synced space's other devices forget it too (a tombstone that sync carries); sync's own forget,
  // applying another device's tombstone, makes none.
  if (options.tombstone !== false) recordTombstone(ctx.dataDir, ctx.space?.id ?? PERSONAL_ID, trace.path);
  crashPoint('forget-after-memory');
  try {
    // An earlier forget that failed on the way is finished too (this one among them).
    await finishPendingForgets(ctx, trace.id);
  } catch (error) {
    // A conversation another process is answering in: that process erases its copies itself, under its
    // own hold (forget-follow.ts), and settles the forget.
    if (isBusy(error) && (await settledElsewhere(ctx, trace.id))) return;
    ctx.log.error('forget: copies not erased yet', { error });
    throw new ContractError(
      'unavailable',
      `${path} is forgotten from memory, but its copies in conversations could not all be erased yet ` +
        `(${(error as NodeJS.ErrnoException).code ?? 'a write failed'}). They are erased the next time the app starts; ` +
        'free some disk space or restart the app.',
    );
  }
}

/** A conversation's lock is held by another process (the store's error, or the file lock's). */
const isBusy = (error: unknown): boolean =>
  (error instanceof ContractError && error.message.startsWith(BUSY_MESSAGE)) ||
  (error as NodeJS.ErrnoException | null)?.code === 'EBUSY';

/**
 * Forgets made by this process: it finishes them itself (now, or at its next start when they fail), so its
 * follower does not take them up. An id goes once its forget is settled (forget-follow.ts prunes them).
 */
const UNDER_WAY = new WeakMap<CoreContext['memory'], Set<string>>();
export function underWay(ctx: CoreContext): Set<string> {
  let ids = UNDER_WAY.get(ctx.memory);
  if (!ids) UNDER_WAY.set(ctx.memory, (ids = new Set()));
  return ids;
}

/** How long a forget waits for the process holding a conversation to erase its copies and settle it. */
const SETTLE_ELSEWHERE_MS = 15_000;

/** True once another process has settled forget `id` (within SETTLE_ELSEWHERE_MS). */
async function settledElsewhere(ctx: CoreContext, id: string): Promise<boolean> {
  const until = Date.now() + SETTLE_ELSEWHERE_MS;
  for (;;) {
    const pending = await ctx.memory.pendingForgets({ tidy: false });
    if (!pending.some((t) => t.id === id)) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Finishes pending forgets: the memory part again (idempotent), then the copies, then settles each. At
 * start these are the forgets a crash cut short; `current` is a forget whose memory part just ran.
 * `names`: the conversations folder's names as the start's listing found them (not read again).
 */
export async function finishPendingForgets(
  ctx: CoreContext,
  current?: string,
  names?: readonly string[],
): Promise<number> {
  const pending = await ctx.memory.pendingForgets();
  await removeRedactLeftovers(conversationsDir(ctx), names);
  for (const trace of pending) {
    if (trace.id !== current) await ctx.memory.resumeForget(trace);
    await eraseCopies(ctx, trace);
    await ctx.memory.settleForget(trace.id);
  }
  const earlier = pending.filter((t) => t.id !== current).length;
  if (earlier > 0) ctx.log.info('finished forgets cut short', { count: earlier });
  return earlier;
}

/** The contents of the memory files that stay. */
async function keptContents(ctx: CoreContext): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await ctx.memory.list()) {
    if (entry.kind !== 'file') continue;
    try {
      out.push((await ctx.memory.read(entry.path)).content);
    } catch {
      // Unreadable (a link, not UTF-8): nothing of it reached a conversation either.
    }
  }
  return out;
}

/** Erases every copy this process keeps or can reach (files under their locks) of what `trace` forgot. */
export async function eraseCopies(ctx: CoreContext, trace: ForgetTrace): Promise<void> {
  for (const p of trace.paths) ctx.memorySearch.dropNow(p);
  const redactor = createRedactor({ ...trace, kept: await keptContents(ctx) });
  const dir = conversationsDir(ctx);
  const agent = getAgent(ctx);
  await agent.store.init();
  // First the runs' kept events: a window re-attaching during the rest of the forget is replayed no copy.
  ctx.runs.redact(redactor, (id) => agent.store.has(id));
  // The trash first: a conversation restored from it after this point comes back redacted, and one
  // restored before is live again by the time the store's conversations are redacted below.
  for (const file of await trashedFiles(dir))
    await withConversationFileLock(file, async () => redactConversationFile(file, redactor));
  await agent.redactForgotten(redactor, async (file) => redactConversationFile(file, redactor));
  const loaded = new Set(agent.store.ids().map((id) => `${id}.jsonl`));
  // Files the store does not know (damaged, or written by a newer version) may hold copies too.
  for (const name of listing(dir)) {
    if (!name.endsWith('.jsonl') || loaded.has(name)) continue;
    const file = path.join(dir, name);
    await withConversationFileLock(file, async () => redactConversationFile(file, redactor));
  }
  eraseFromLogs(ctx, redactor);
  // Last: a purge of the git folder waits for a sync of this space in this process to end. Loaded here,
  // not at start: a chat's way to its first request never needs git.
  const { eraseSyncCopies } = await import('./sync/forget-copies.js');
  await eraseSyncCopies(ctx.dataDir, ctx.space?.id ?? PERSONAL_ID, trace.paths, redactor);
}

function eraseFromLogs(ctx: CoreContext, redactor: Redactor): void {
  const dir = path.join(ctx.dataDir, 'logs');
  for (const name of listing(dir)) redactLogFile(path.join(dir, name), redactor);
}

function listing(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

const conversationsDir = (ctx: CoreContext): string =>
  path.join(ctx.space?.dir ?? ctx.dataDir, 'conversations');
