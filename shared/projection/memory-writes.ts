// Which memory tool commands change the memory (the rest only read it). One definition for the agent
// (what needs a review and a durable history first) and the chat (which tool cards get a diff and Undo).

export const WRITE_COMMANDS: ReadonlySet<string> = new Set([
  'create',
  'str_replace',
  'insert',
  'delete',
  'rename',
]);

/** The file a memory tool call changes, when it is a write ("view" changes nothing). */
export function memoryWriteTarget(
  name: string,
  input: unknown,
): { command: string; path: string; newPath?: string } | null {
  if (name !== 'memory' || !input || typeof input !== 'object') return null;
  const fields = input as Record<string, unknown>;
  const command = typeof fields.command === 'string' ? fields.command : '';
  if (!WRITE_COMMANDS.has(command)) return null;
  const path =
    typeof fields.path === 'string'
      ? fields.path
      : typeof fields.old_path === 'string'
        ? fields.old_path
        : null;
  if (!path) return null;
  return typeof fields.new_path === 'string'
    ? { command, path, newPath: fields.new_path }
    : { command, path };
}
