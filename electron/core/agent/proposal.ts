// What a memory write would change, for the "ask me" review: the file before and after. Computed here only
// to show the user; the memory layer still validates and applies the real change. null when the change
// cannot apply as given (the tool's own error message then tells the model why), and when it would add a
// credential: the review dialog must never show the key, and the tool refuses it anyway.
import { detectAddedSecret } from '../../../memory/index.js';
import type { Memory } from '../../../memory/types.js';

export interface Proposal {
  command: string;
  path: string;
  newPath?: string;
  before: string | null;
  after: string | null;
}

type Input = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

async function current(memory: Memory, path: string): Promise<string | null> {
  try {
    return (await memory.read(path)).content;
  } catch {
    return null;
  }
}

export async function proposeChange(memory: Memory, raw: unknown): Promise<Proposal | null> {
  const proposal = await propose(memory, raw);
  if (proposal?.after != null && detectAddedSecret(proposal.before ?? '', proposal.after)) return null;
  return proposal;
}

async function propose(memory: Memory, raw: unknown): Promise<Proposal | null> {
  if (typeof raw !== 'object' || raw === null) return null;
  const input = raw as Input;
  const command = str(input.command);
  switch (command) {
    case 'create': {
      const path = str(input.path);
      const text = str(input.file_text);
      if (!path || text === undefined) return null;
      return { command, path, before: await current(memory, path), after: text };
    }
    case 'str_replace': {
      const path = str(input.path);
      const oldStr = str(input.old_str);
      const newStr = str(input.new_str) ?? '';
      if (!path || !oldStr) return null;
      const before = await current(memory, path);
      if (before === null) return null;
      const at = before.indexOf(oldStr);
      if (at < 0 || before.indexOf(oldStr, at + 1) >= 0) return null;
      return {
        command,
        path,
        before,
        after: before.slice(0, at) + newStr + before.slice(at + oldStr.length),
      };
    }
    case 'insert': {
      const path = str(input.path);
      const line = input.insert_line;
      const text = str(input.insert_text);
      if (!path || text === undefined || typeof line !== 'number' || !Number.isInteger(line)) return null;
      const before = await current(memory, path);
      if (before === null) return null;
      const lines = before.split('\n');
      if (line < 0 || line > lines.length) return null;
      lines.splice(line, 0, text.replace(/\n$/, ''));
      return { command, path, before, after: lines.join('\n') };
    }
    case 'delete': {
      const path = str(input.path);
      if (!path) return null;
      const before = await current(memory, path);
      return { command, path, before, after: null };
    }
    case 'rename': {
      const oldPath = str(input.old_path);
      const newPath = str(input.new_path);
      if (!oldPath || !newPath) return null;
      const before = await current(memory, oldPath);
      return { command, path: oldPath, newPath, before, after: before };
    }
    default:
      return null;
  }
}
