// context.*: the context meter and "Compact now" (a run of its own, so its events stream like a reply's).
import type { Handlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import { compactNow } from '../agent/context/compact-now.js';
import { getAgent } from '../agent/index.js';
import type { CoreContext } from '../context.js';

type Domain = Pick<Handlers, 'context.get' | 'context.compact'>;

export function createContextHandlers(ctx: CoreContext): Domain {
  return {
    'context.get': async (req) => {
      const agent = getAgent(ctx);
      await agent.store.init();
      return agent.contextUsage(req.conversationId);
    },
    'context.compact': async (req) => {
      const agent = getAgent(ctx);
      await agent.store.init();
      const state = agent.store.get(req.conversationId);
      const last = [...state.messages].reverse().find((m) => m.kind === 'user');
      if (!last) throw new ContractError('unavailable', 'There is nothing to compact yet.');
      const compaction = state.compactions.at(-1);
      if (compaction && state.messages.at(-1)?.id === compaction.lastMessageId) {
        throw new ContractError('unavailable', 'Nothing new to compact since the last compaction.');
      }
      agent.claim(req.conversationId);
      return { runId: agent.start(req.conversationId, last.id, compactNow).runId };
    },
  };
}
