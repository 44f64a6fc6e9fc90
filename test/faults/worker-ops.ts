// Runs one workload operation against the real backend, reporting intent before and ack or fail after, so
// the parent knows which states each path and conversation may hold if the process dies in between.
import { createHash } from 'node:crypto';
import { text, toolUse, type FakeAnthropic, type LoggedRequest } from '../fixtures/fake-anthropic/index.js';
import { type BackendClient, Hang, Refused } from './backend-client.js';
import { emit, type FileState, type Intent } from './protocol.js';
import type { Op } from './workload.js';

export const hashOf = (content: string): string => createHash('sha256').update(content, 'utf8').digest('hex');

export interface WorkerState {
  /** path → content, as the worker believes it (read at start, updated by acks). */
  files: Map<string, string>;
  conversations: string[];
  n: number;
  /** Operations that failed (the worker then reads the files again), and the last one's message. */
  failures: number;
  lastFailure?: string;
}

export interface OpContext {
  client: BackendClient;
  fake: FakeAnthropic;
  state: WorkerState;
  /** The requests the fake received (its log is emptied with its queue after every operation). */
  requests: LoggedRequest[];
  seed: number;
  /** Did the disk refuse a call since the operation started? */
  diskTripped(): boolean;
}

function resetFake(ctx: OpContext): void {
  for (const r of ctx.fake.messageRequests()) ctx.requests.push(r);
  ctx.fake.reset();
}

function intent(ctx: OpContext, i: Intent): number {
  const n = ++ctx.state.n;
  emit({ t: 'intent', n, intent: i });
  return n;
}

/** Refusals that have nothing to do with the disk, even when a background write hit the full disk meanwhile. */
const NOT_THE_DISK = /nothing new to compact|nothing to compact/i;

function fail(ctx: OpContext, n: number, message: string): void {
  ctx.state.failures += 1;
  ctx.state.lastFailure = message;
  emit({ t: 'fail', n, message, full: ctx.diskTripped() && !NOT_THE_DISK.test(message) });
}

/** What a model memory command does to the files, as the worker computes it. */
function effect(op: Op, files: ReadonlyMap<string, string>): { path: string; state: FileState }[] {
  switch (op.kind) {
    case 'model-create':
    case 'panel-write':
      return [{ path: op.path, state: hashOf(op.content) }];
    case 'model-replace':
      return [{ path: op.path, state: hashOf(files.get(op.path)!.replace(op.oldStr, op.newStr)) }];
    case 'model-delete':
    case 'panel-delete':
      return [{ path: op.path, state: null }];
    case 'model-rename':
    case 'panel-rename':
      return [
        { path: op.path, state: null },
        { path: op.newPath, state: hashOf(files.get(op.path)!) },
      ];
    case 'review':
      return op.decision === 'reject'
        ? []
        : [{ path: op.path, state: hashOf(op.decision === 'edit' ? op.edited : op.content) }];
    default:
      return [];
  }
}

function apply(state: WorkerState, op: Op): void {
  const files = state.files;
  switch (op.kind) {
    case 'model-create':
    case 'panel-write':
      files.set(op.path, op.content);
      break;
    case 'model-replace':
      files.set(op.path, files.get(op.path)!.replace(op.oldStr, op.newStr));
      break;
    case 'model-delete':
    case 'panel-delete':
      files.delete(op.path);
      break;
    case 'model-rename':
    case 'panel-rename':
      files.set(op.newPath, files.get(op.path)!);
      files.delete(op.path);
      break;
    case 'review':
      if (op.decision !== 'reject') files.set(op.path, op.decision === 'edit' ? op.edited : op.content);
      break;
    default:
      break;
  }
}

function toolInput(op: Op): Record<string, string> {
  switch (op.kind) {
    case 'model-create':
      return { command: 'create', path: op.path, file_text: op.content };
    case 'review':
      return { command: 'create', path: op.path, file_text: op.content };
    case 'model-replace':
      return { command: 'str_replace', path: op.path, old_str: op.oldStr, new_str: op.newStr };
    case 'model-delete':
      return { command: 'delete', path: op.path };
    case 'model-rename':
      return { command: 'rename', old_path: op.path, new_path: op.newPath };
    default:
      throw new Error(`${op.kind} is not a model command`);
  }
}

async function writeMode(ctx: OpContext, mode: 'automatic' | 'ask'): Promise<void> {
  if (ctx.client.core.ctx.settings.get().memoryWriteMode !== mode)
    await ctx.client.call('settings.set', { patch: { memoryWriteMode: mode } });
}

/** A chat turn; for model ops, one memory tool_use first. Reports the send and the memory change apart. */
async function send(ctx: OpContext, op: Op, conversationId: string | null, message: string): Promise<void> {
  const memoryOp = op.kind.startsWith('model-') || op.kind === 'review';
  const answer = `Answer ${message}.`;
  // Ids unique across processes, as the API's are (each worker's fake starts counting anew).
  const id = `toolu_w${ctx.seed}_${ctx.state.n + 1}`;
  if (memoryOp) ctx.fake.enqueue(toolUse({ name: 'memory', input: toolInput(op), id }), text(answer));
  else ctx.fake.enqueue(text(answer));
  const sendN = intent(ctx, { kind: 'send', op: op.kind, conversationId, text: message });
  const memN = memoryOp
    ? intent(ctx, { kind: 'memory', op: op.kind, paths: effect(op, ctx.state.files) })
    : 0;
  let res;
  try {
    res = await ctx.client.call('chat.send', {
      text: message,
      memory: true,
      ...(conversationId ? { conversationId } : {}),
    });
  } catch (error) {
    resetFake(ctx);
    if (!(error instanceof Refused)) throw error;
    fail(ctx, sendN, error.message);
    if (memN) fail(ctx, memN, error.message);
    return;
  }
  if (!conversationId) ctx.state.conversations.push(res.conversationId);
  const { runId } = res;
  if (memoryOp) {
    const seen = await ctx.client.waitFor(
      (e) =>
        e.runId === runId &&
        (e.type === 'tool.result' || e.type === 'run.finished' || e.type === 'review.request'),
      'tool result',
    );
    if (seen.type === 'review.request' && op.kind === 'review') {
      emit({ t: 'mark', what: 'review' });
      const decision = op.decision;
      await ctx.client.call('chat.review', {
        reviewId: seen.reviewId,
        decision,
        ...(decision === 'edit' ? { content: op.edited } : {}),
      });
    }
    const result = await ctx.client.waitFor(
      (e) => e.runId === runId && (e.type === 'tool.result' || e.type === 'run.finished'),
      'tool result',
    );
    const rejected = op.kind === 'review' && op.decision === 'reject';
    if (result.type === 'tool.result' && (!result.isError || rejected)) {
      emit({ t: 'ack', n: memN });
      apply(ctx.state, op);
    } else if (result.type === 'tool.result') fail(ctx, memN, result.result);
  }
  const end = await ctx.client.finished(runId);
  if (memoryOp && !ctx.client.saw(runId, 'tool.result'))
    fail(ctx, memN, end.error ?? `the run ended: ${end.status}`);
  resetFake(ctx);
  if (end.status === 'done')
    emit({ t: 'ack', n: sendN, conversationId: res.conversationId, answer: end.answer });
  else fail(ctx, sendN, end.error ?? end.status);
}

async function panel(ctx: OpContext, op: Op, run: () => Promise<unknown>): Promise<void> {
  const n = intent(ctx, { kind: 'memory', op: op.kind, paths: effect(op, ctx.state.files) });
  try {
    await run();
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    fail(ctx, n, error.message);
    return;
  }
  emit({ t: 'ack', n });
  apply(ctx.state, op);
}

async function simple(ctx: OpContext, i: Intent, run: () => Promise<unknown>): Promise<boolean> {
  const n = intent(ctx, i);
  try {
    await run();
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    fail(ctx, n, error.message);
    return false;
  }
  emit({ t: 'ack', n });
  return true;
}

/** Runs one operation; a refusal outside any change (a settings write) is reported without an intent. */
export async function runOp(ctx: OpContext, op: Op): Promise<void> {
  try {
    await runOpUnguarded(ctx, op);
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    fail(ctx, 0, error.message);
  }
}

async function runOpUnguarded(ctx: OpContext, op: Op): Promise<void> {
  const { client, state } = ctx;
  switch (op.kind) {
    case 'chat-new':
      return send(ctx, op, null, op.text);
    case 'chat':
      return send(ctx, op, op.conversationId, op.text);
    case 'model-create':
    case 'model-replace':
    case 'model-delete':
    case 'model-rename':
      await writeMode(ctx, 'automatic');
      return send(ctx, op, op.conversationId, `please save ${state.n + 1}`);
    case 'review':
      await writeMode(ctx, 'ask');
      try {
        await send(ctx, op, op.conversationId, `please propose ${state.n + 1}`);
      } finally {
        await writeMode(ctx, 'automatic').catch(() => undefined);
      }
      return;
    case 'panel-write': {
      const current = state.files.get(op.path);
      return panel(ctx, op, () =>
        client.call('memory.write', {
          path: op.path,
          content: op.content,
          baseVersion: current === undefined ? null : hashOf(current),
        }),
      );
    }
    case 'panel-rename':
      return panel(ctx, op, () => client.call('memory.rename', { path: op.path, newPath: op.newPath }));
    case 'panel-delete':
      return panel(ctx, op, () => client.call('memory.delete', { path: op.path }));
    case 'compact': {
      await simple(ctx, { kind: 'compact', conversationId: op.conversationId }, async () => {
        const { runId } = await client.call('context.compact', { conversationId: op.conversationId });
        const end = await client.finished(runId);
        if (end.status !== 'done') throw new Refused(end.error ?? end.status, 'run');
      });
      return;
    }
    case 'rename-conversation':
      await simple(
        ctx,
        { kind: 'rename-conversation', conversationId: op.conversationId, title: op.title },
        () => client.call('conversations.rename', { id: op.conversationId, title: op.title }),
      );
      return;
    case 'delete-conversation':
      if (
        await simple(ctx, { kind: 'delete-conversation', conversationId: op.conversationId }, () =>
          client.call('conversations.delete', { id: op.conversationId }),
        )
      )
        state.conversations.splice(state.conversations.indexOf(op.conversationId), 1);
      return;
  }
}

export { Hang };
