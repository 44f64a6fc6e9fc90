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

/** Closes the agent of this backend if one was made (a backend that never chatted has nothing to flush). */
export async function closeAgent(ctx: CoreContext): Promise<void> {
  const agent = agents.get(ctx);
  if (!agent) return;
  agents.delete(ctx);
  await agent.close();
}

export { Agent, NO_KEY_MESSAGE } from './agent.js';
