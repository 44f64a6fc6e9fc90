// One agent per backend instance, shared by the chat, conversations and context handlers and the CLI.
import { createMemorySearchTool } from '../../../memory/search/index.js';
import type { CoreContext } from '../context.js';
import { Agent } from './agent.js';
import type { SearchTool } from './tools.js';

const agents = new WeakMap<CoreContext, Agent>();

export function getAgent(ctx: CoreContext): Agent {
  let agent = agents.get(ctx);
  if (!agent) {
    const search = createMemorySearchTool(ctx.memorySearch) as unknown as SearchTool;
    agent = new Agent(ctx, { memory: ctx.memory, search });
    agents.set(ctx, agent);
  }
  return agent;
}

export { Agent, NO_KEY_MESSAGE } from './agent.js';
