// chat.*: runs of the agent loop. A send persists the user's message before the run starts, so nothing
// the user typed is lost whatever happens to the run; retry, regenerate and edit never duplicate a turn.
import { randomUUID } from 'node:crypto';
import type { DomainHandlers } from '../../../shared/contract.js';
import { PERSONAL_SPACE_ID } from '../../../shared/channels/spaces.js';
import { ContractError } from '../../../shared/errors.js';
import { getAgent } from '../agent/index.js';
import type { CoreContext } from '../context.js';
import { now } from '../agent/session.js';
import type { ConversationRecord } from '../conversations/records.js';
import type { Entry } from '../conversations/state.js';
import type { ConversationLease } from '../conversations/store.js';
import { holdConversation, startLeased } from './leased-run.js';

type Domain = DomainHandlers<'chat'>;

/** The ids of the error cards after a user message (the last turn's failures). */
function errorsSince(entries: readonly Entry[], userMessageId: string): string[] {
  const ids: string[] = [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.type === 'msg' && entry.record.id === userMessageId) break;
    if (entry.type === 'event' && (entry.record.card?.kind ?? entry.record.event) === 'error')
      ids.push(entry.record.id);
  }
  return ids;
}

export function createChatHandlers(ctx: CoreContext): Domain {
  const agent = (): ReturnType<typeof getAgent> => getAgent(ctx);

  /** The last user turn, and whether anything was answered after it. */
  const lastTurn = (conversationId: string) => {
    const messages = agent().store.get(conversationId).messages;
    let index = -1;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i]!.kind === 'user') {
        index = i;
        break;
      }
    }
    if (index < 0)
      throw new ContractError('not_found', 'There is no message to send again in this conversation.');
    return { user: messages[index]!, after: messages.slice(index + 1) };
  };

  return {
    'chat.send': async (req) => {
      const a = agent();
      await a.store.init();
      a.apiClient(); // no key: refuse before anything is stored
      let conversationId: string;
      let held: { value: string; lease: ConversationLease };
      if (req.conversationId) {
        conversationId = (await a.store.open(req.conversationId)).meta.id;
        held = await holdConversation(
          a,
          conversationId,
          async () => (await a.userMessage(conversationId, req.text)).id,
        );
      } else {
        // What the other devices learned, if it arrives within a few seconds (a space without a remote
        // does not wait at all); the answer is never held up longer than that.
        await ctx.sync?.beforeConversation(ctx.space?.id ?? PERSONAL_SPACE_ID);
        const started = await a.startConversation(req.text, req.memory);
        conversationId = started.id;
        held = await holdConversation(a, conversationId, () => started.message.id);
      }
      const userMessageId = held.value;
      const run = startLeased(a, ctx.runs, held.lease, () => a.start(conversationId, userMessageId));
      return { runId: run.runId, conversationId, userMessageId };
    },

    'chat.abort': async (req) => ({ aborted: ctx.runs.abort(req.runId) }),

    'chat.attach': async (req) => ctx.runs.attach(req),

    'chat.retry': async (req) => {
      const a = agent();
      await a.store.open(req.conversationId);
      /** What to run again: checked before the claim, and again once the lease has caught up. */
      const plan = () => {
        const { user, after } = lastTurn(req.conversationId);
        const last = after.at(-1);
        if (
          last &&
          last.kind === 'assistant' &&
          !last.interrupted &&
          !last.content.some((b) => b.type === 'tool_use')
        ) {
          throw new ContractError(
            'unavailable',
            'The last message was answered already; use Regenerate for a new answer.',
          );
        }
        return { user, last };
      };
      plan();
      const { value: user, lease } = await holdConversation(a, req.conversationId, async () => {
        const { user, last } = plan();
        // An interrupted partial answer is dropped; completed tool round trips are kept and continued.
        if (last?.kind === 'assistant' && last.interrupted) {
          await a.store.append(req.conversationId, [{ t: 'truncate', fromMessageId: last.id, at: now() }]);
          a.forget(req.conversationId);
        }
        // The errors being retried go from the transcript, stored as the window shows it after a Retry.
        const retried = errorsSince(a.store.get(req.conversationId).entries, user.id).map(
          (errorId): ConversationRecord => ({
            t: 'event',
            id: randomUUID(),
            event: 'retried',
            card: { kind: 'retried', errorId },
            at: now(),
          }),
        );
        if (retried.length > 0) await a.store.append(req.conversationId, retried);
        return user;
      });
      return { runId: startLeased(a, ctx.runs, lease, () => a.start(req.conversationId, user.id)).runId };
    },

    'chat.regenerate': async (req) => {
      const a = agent();
      await a.store.open(req.conversationId);
      lastTurn(req.conversationId);
      const { value: user, lease } = await holdConversation(a, req.conversationId, async () => {
        const { user, after } = lastTurn(req.conversationId);
        const first = after.find((m) => m.kind !== 'backfill');
        if (first) {
          await a.store.append(req.conversationId, [{ t: 'truncate', fromMessageId: first.id, at: now() }]);
          a.forget(req.conversationId);
        }
        return user;
      });
      return { runId: startLeased(a, ctx.runs, lease, () => a.start(req.conversationId, user.id)).runId };
    },

    'chat.editResend': async (req) => {
      const a = agent();
      await a.store.open(req.conversationId);
      const target = () => {
        const found = a.store.get(req.conversationId).messages.find((m) => m.id === req.messageId);
        if (!found || found.kind !== 'user') {
          throw new ContractError('not_found', 'That message is not one of yours in this conversation.');
        }
        return found;
      };
      target();
      a.apiClient();
      const { value: userMessageId, lease } = await holdConversation(a, req.conversationId, async () => {
        await a.store.append(req.conversationId, [{ t: 'truncate', fromMessageId: target().id, at: now() }]);
        a.forget(req.conversationId);
        return (await a.userMessage(req.conversationId, req.text)).id;
      });
      return {
        runId: startLeased(a, ctx.runs, lease, () => a.start(req.conversationId, userMessageId)).runId,
      };
    },

    'chat.pin': async (req) => {
      const a = agent();
      const state = await a.store.open(req.conversationId);
      const target = state.messages.find((m) => m.id === req.messageId);
      if (!target || (target.kind !== 'user' && target.kind !== 'assistant')) {
        throw new ContractError('not_found', 'That message is not in this conversation.');
      }
      await a.store.append(req.conversationId, [
        { t: 'pin', messageId: req.messageId, pinned: req.pinned, at: now() },
      ]);
      return { ok: true as const };
    },

    'chat.review': async (req) => {
      const reviews = agent().reviews;
      if (req.decision === 'edit') {
        if (req.content === undefined) {
          throw new ContractError('invalid_request', 'An edit needs the content to save instead.');
        }
        reviews.resolve(req.reviewId, { decision: 'edit', content: req.content });
      } else if (req.decision === 'reject')
        reviews.resolve(req.reviewId, { decision: 'reject', reason: req.reason });
      else reviews.resolve(req.reviewId, { decision: 'approve' });
      return { ok: true as const };
    },
  };
}
