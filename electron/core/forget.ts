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
import { createRedactor, type Redactor } from './conversations/redact.js';
import {
  redactConversationFile,
  redactLogFile,
  removeRedactLeftovers,
} from './conversations/redact-files.js';

/**
 * The hook a cross-process conversation lock plugs into (the file lock of conversation appends): a
 * redaction replaces the file, which must not happen while another process appends to it. Without that lock
 * it runs the task as it is: another process's writer opens the new file before its next lines (jsonl.ts),
 * but its in-memory state keeps the old content until it loads the conversation again.
 */
export type ConversationFileLock = <T>(file: string, task: () => Promise<T>) => Promise<T>;
let withConversationFileLock: ConversationFileLock = (_file, task) => task();

export function setConversationFileLock(lock: ConversationFileLock): void {
  withConversationFileLock = lock;
}

/** Forgets `path` in memory and erases every copy the app keeps of it. */
export async function forgetEverywhere(ctx: CoreContext, path: string): Promise<void> {
  const trace = await ctx.memory.forget(path);
  crashPoint('forget-after-memory');
  try {
    // An earlier forget that failed on the way is finished too (this one among them).
    await finishPendingForgets(ctx, trace.id);
  } catch (error) {
    ctx.log.error('forget: copies not erased yet', { error });
    throw new ContractError(
      'unavailable',
      `${path} is forgotten from memory, but its copies in conversations could not all be erased yet ` +
        `(${(error as NodeJS.ErrnoException).code ?? 'a write failed'}). They are erased the next time the app starts; ` +
        'free some disk space or restart the app.',
    );
  }
}

/**
 * Finishes pending forgets: the memory part again (idempotent), then the copies, then settles each. At
 * start these are the forgets a crash cut short; `current` is a forget whose memory part just ran.
 */
export async function finishPendingForgets(ctx: CoreContext, current?: string): Promise<number> {
  const pending = await ctx.memory.pendingForgets();
  await removeRedactLeftovers(conversationsDir(ctx));
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

async function eraseCopies(ctx: CoreContext, trace: ForgetTrace): Promise<void> {
  for (const p of trace.paths) ctx.memorySearch.dropNow(p);
  const redactor = createRedactor({ ...trace, kept: await keptContents(ctx) });
  const dir = conversationsDir(ctx);
  const agent = getAgent(ctx);
  const rewrite = (file: string): Promise<boolean> =>
    withConversationFileLock(file, async () => redactConversationFile(file, redactor));
  await agent.redactForgotten(redactor, rewrite);
  const loaded = new Set([...agent.store.states()].map((s) => `${s.meta.id}.jsonl`));
  // Files the store did not load (damaged, or written by a newer version) may hold copies too.
  for (const name of listing(dir))
    if (name.endsWith('.jsonl') && !loaded.has(name)) await rewrite(path.join(dir, name));
  eraseFromLogs(ctx, redactor);
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

const conversationsDir = (ctx: CoreContext): string => path.join(ctx.dataDir, 'conversations');
