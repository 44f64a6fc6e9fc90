// The `memory_search` tool: a second client tool beside `memory`, so the model can find where something is
// remembered without viewing every file. Results are matching lines, `/memories/path:line: text`, capped in
// count and characters, with a note saying what was left out and how to narrow the search.
import { z } from 'zod';
import type { MemorySearch, SearchResult } from './search-index.js';

export const MEMORY_SEARCH_DEFAULT_LIMIT = 20;
export const MEMORY_SEARCH_MAX_LIMIT = 200;

export const memorySearchInput = z
  .object({
    query: z
      .string()
      .trim()
      .min(1, 'query must not be empty')
      .max(500, 'query is longer than 500 characters'),
    limit: z
      .number()
      .int('limit must be a whole number')
      .min(1)
      .max(MEMORY_SEARCH_MAX_LIMIT)
      .default(MEMORY_SEARCH_DEFAULT_LIMIT),
  })
  .strict();
export type MemorySearchInput = z.infer<typeof memorySearchInput>;

/** A client tool as the Messages API takes it (structurally the SDK's BetaTool, so no cast is needed). */
export interface SearchToolDefinition {
  name: 'memory_search';
  description: string;
  input_schema: {
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required: string[];
    additionalProperties: boolean;
  };
}

/** What goes into the request's `tools` array (a client tool with a JSON schema). */
export const memorySearchDefinition: SearchToolDefinition = {
  name: 'memory_search',
  description:
    'Search every file in the /memories directory for a word or phrase (literal text, case-insensitive). ' +
    'Returns the matching lines as "/memories/path:line: text", files in path order. Use it to find where ' +
    'something is remembered before viewing or editing a file, especially when the memory holds many files; ' +
    'then use the memory tool to view the file around that line.',
  input_schema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        description: 'The text to look for (literal, not a regular expression; case is ignored).',
        minLength: 1,
        maxLength: 500,
      },
      limit: {
        type: 'integer',
        description: `Most matching lines to return (default ${MEMORY_SEARCH_DEFAULT_LIMIT}).`,
        minimum: 1,
        maximum: MEMORY_SEARCH_MAX_LIMIT,
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
};

export interface SearchToolResult {
  content: string;
  isError: boolean;
}

export interface MemorySearchTool {
  readonly definition: SearchToolDefinition;
  execute(input: unknown): Promise<SearchToolResult>;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

export function formatResult(query: string, result: SearchResult, maxChars: number): string {
  if (result.hits.length === 0) {
    return `No lines in /memories contain "${query}" (${result.filesSearched} files searched).`;
  }
  const lines: string[] = [];
  let used = 0;
  let shown = 0;
  for (const hit of result.hits) {
    const line = `${hit.path}:${hit.line}: ${hit.snippet}`;
    if (used + line.length + 1 > maxChars) break;
    lines.push(line);
    used += line.length + 1;
    shown++;
  }
  const total = result.countCapped ? `more than ${result.total}` : String(result.total);
  if (shown < result.total) {
    lines.push(
      `(${shown} of ${total} matching lines shown. Use a more specific query` +
        (shown === result.hits.length && result.hits.length < MEMORY_SEARCH_MAX_LIMIT
          ? `, or a higher limit (up to ${MEMORY_SEARCH_MAX_LIMIT}).)`
          : ', or view the files listed above.)'),
    );
  }
  return lines.join('\n');
}

export function createMemorySearchTool(
  search: MemorySearch,
  options: { maxChars?: number } = {},
): MemorySearchTool {
  const maxChars = options.maxChars ?? 16_000;
  return {
    definition: memorySearchDefinition,
    async execute(input) {
      const parsed = memorySearchInput.safeParse(input);
      if (!parsed.success) {
        return {
          content: `Invalid memory_search input: ${describeIssues(parsed.error)}. Expected {"query": "text", "limit": 20}.`,
          isError: true,
        };
      }
      try {
        const result = await search.search(parsed.data.query, parsed.data.limit);
        return { content: formatResult(parsed.data.query, result, maxChars), isError: false };
      } catch {
        // Never echo a file-system error: it would carry a host path.
        return { content: 'The memory search failed unexpectedly; try again.', isError: true };
      }
    },
  };
}
