// One-line descriptions of tool calls for the Activity list: "memory · create /memories/preferences.md".
import type { ToolCall } from '../../store/activity';

function str(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export function summarizeCall(call: Pick<ToolCall, 'name' | 'input'>): string {
  const input = call.input && typeof call.input === 'object' ? (call.input as Record<string, unknown>) : {};
  const parts: string[] = [];
  const command = str(input.command);
  if (command) parts.push(command);
  const target = str(input.path) ?? str(input.old_path) ?? str(input.query) ?? str(input.url);
  if (target) parts.push(target);
  const newPath = str(input.new_path);
  if (newPath) parts.push(`→ ${newPath}`);
  if (parts.length === 0) {
    const first = Object.values(input).find((v) => typeof v === 'string') as string | undefined;
    if (first) parts.push(first.length > 60 ? `${first.slice(0, 57)}…` : first);
  }
  return parts.length ? `${call.name} · ${parts.join(' ')}` : call.name;
}

export function formatInput(input: unknown): string {
  if (typeof input === 'string') return input;
  try {
    return JSON.stringify(input, null, 2) ?? '';
  } catch {
    return String(input);
  }
}

/** Tool names with their call counts, most used first, for the filter. */
export function toolCounts(calls: readonly ToolCall[]): { name: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  return [...counts.entries()]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}

export function filterCalls(calls: readonly ToolCall[], filter: string | null): ToolCall[] {
  return filter ? calls.filter((c) => c.name === filter) : [...calls];
}
