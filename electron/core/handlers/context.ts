// context.*: the context meter and "Compact now" (a run of its own, so its events stream like a reply's).
import type { DomainHandlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import { compactNow } from '../agent/context/compact-now.js';
import { getAgent } from '../agent/index.js';
import type { CoreContext } from '../context.js';
import { holdConversation, startLeased } from './leased-run.js';

type Domain = DomainHandlers<'context'>;

export function createContextHandlers(ctx: CoreContext): Domain {
  return {
    // Opens the conversation only if its page sidecar cannot vouch for the meter (Agent.contextUsage).
    'context.get': async (req) => getAgent(ctx).contextUsage(req.conversationId),
    'context.compact': async (req) => {
      const agent = getAgent(ctx);
      const state = await agent.store.open(req.conversationId);
      const last = [...state.messages].reverse().find((m) => m.kind === 'user');
      if (!last) throw new ContractError('unavailable', 'There is nothing to compact yet.');
      const compaction = state.compactions.at(-1);
      if (compaction && state.messages.at(-1)?.id === compaction.lastMessageId) {
        throw new ContractError('unavailable', 'Nothing new to compact since the last compaction.');
      }
      // Held across processes like a reply (the compaction appends to the file); checked against a
      // history another process may have extended, the last user message is looked up again.
      const { value: userId, lease } = await holdConversation(agent, req.conversationId, () => {
        const latest = [...agent.store.get(req.conversationId).messages]
          .reverse()
          .find((m) => m.kind === 'user');
        return (latest ?? last).id;
      });
      return {
        runId: startLeased(agent, ctx.runs, lease, () => agent.start(req.conversationId, userId, compactNow))
          .runId,
      };
    },
  };
}
