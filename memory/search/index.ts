// Search over the memory folder: the index, the `memory_search` tool, and the wiring to a Memory's changes.
import type { Memory } from '../types.js';
import { MemorySearch, type SearchOptions } from './search-index.js';

export {
  MemorySearch,
  type SearchHit,
  type SearchOptions,
  type SearchResult,
  type SearchSource,
} from './search-index.js';
export { fold, findInText, SNIPPET_CHARS, type LineHit } from './match.js';
export {
  createMemorySearchTool,
  formatResult,
  memorySearchDefinition,
  memorySearchInput,
  MEMORY_SEARCH_DEFAULT_LIMIT,
  MEMORY_SEARCH_MAX_LIMIT,
  type MemorySearchInput,
  type MemorySearchTool,
  type SearchToolDefinition,
  type SearchToolResult,
} from './tool.js';

export interface AttachedSearch {
  search: MemorySearch;
  /** Stop following the memory's changes and stop any scan in progress. */
  detach(): void;
}

/** An index over the memory's files that follows every change the memory reports. */
export function createMemorySearch(
  memory: Pick<Memory, 'list' | 'read' | 'onChange'>,
  options: Omit<SearchOptions, 'source'> = {},
): AttachedSearch {
  const search = new MemorySearch({ ...options, source: memory });
  const detach = memory.onChange((event) => {
    search.invalidate(event.path);
    if (event.newPath) search.invalidate(event.newPath);
  });
  return {
    search,
    detach: () => {
      detach();
      search.close();
    },
  };
}
