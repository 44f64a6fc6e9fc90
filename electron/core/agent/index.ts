// One agent per backend instance, shared by the chat, conversations and context handlers and the CLI.
import type { Memory } from '../../../memory/types.js';
import {
  type MemorySearch,
  createMemorySearch,
  createMemorySearchTool,
} from '../../../memory/search/index.js';
import type { CoreContext } from '../context.js';
import { Agent } from './agent.js';
import type { SearchTool } from './tools.js';

const agents = new WeakMap<CoreContext, Agent>();

/** The memory the backend was created with, if any (CoreContext gains it with the memory layer). */
function memoryOf(ctx: CoreContext): Memory | null {
  return (ctx as CoreContext & { memory?: Memory | null }).memory ?? null;
}

export function getAgent(ctx: CoreContext): Agent {
  let agent = agents.get(ctx);
  if (!agent) {
    const memory = memoryOf(ctx);
    let search: SearchTool | null = null;
    if (memory) {
      const index =
        (ctx as CoreContext & { memorySearch?: MemorySearch }).memorySearch ??
        createMemorySearch(memory).search;
      search = createMemorySearchTool(index) as unknown as SearchTool;
    }
    agent = new Agent(ctx, { memory, search });
    agents.set(ctx, agent);
  }
  return agent;
}

export { Agent, NO_KEY_MESSAGE } from './agent.js';
