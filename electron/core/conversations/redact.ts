// Forgetting a memory file erases the copies conversations keep of it: the results of memory tool calls on
// it and the content of the calls that wrote it (create, str_replace, insert) become FORGOTTEN as a whole;
// memory_search hits in it lose their snippet; everywhere else (the backfill, notes about outside changes,
// summaries, pinned quotes, the model's and the user's words) the file's content is found by
// forgotten-text.ts and replaced. Records are changed in place, so a record still waiting in a writer's
// queue is written redacted too.
import { FORGOTTEN, forgottenMatcher } from './forgotten-text.js';
import type { Block, ConversationRecord } from './records.js';

export { FORGOTTEN } from './forgotten-text.js';

export interface ForgetSpec {
  /** The paths forgotten (a file or a folder) and every earlier name. */
  paths: readonly string[];
  /** Every version of their content. */
  versions: readonly string[];
  /** The contents of the memory files that stay (their passages are not redacted from free text). */
  kept?: readonly string[];
}

export interface Redactor {
  /** Redacts one conversation's records in place; true when any changed. */
  records(records: readonly ConversationRecord[]): boolean;
  /** Redacts a plain text (a log line). */
  text(text: string): string;
  /** False when no string of these JSON lines can change (the file need not be parsed). */
  mayTouchJson(raw: string): boolean;
}

/** Keys that hold structure, never content. */
const STRUCTURAL = new Set([
  't',
  'v',
  'id',
  'type',
  'role',
  'kind',
  'at',
  'createdAt',
  'name',
  'tool_use_id',
  'toolUseId',
  'messageId',
  'fromMessageId',
  'lastMessageId',
  'command',
  'path',
  'old_path',
  'new_path',
  'strategy',
  'event',
  'signature',
  'encrypted_content',
]);

const within = (p: unknown, names: readonly string[]): boolean =>
  typeof p === 'string' && names.some((n) => p === n || p.startsWith(n + '/'));

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function createRedactor(spec: ForgetSpec): Redactor {
  const matcher = forgottenMatcher(spec.versions, spec.kept);
  const names = spec.paths.filter((p) => p.length > 0);
  // memory_search hits: "<path>:<line>: <snippet>"; a snippet may be part of a line, so it goes by path.
  const hitLine =
    names.length > 0
      ? new RegExp(`^((?:${names.map(escapeRe).join('|')})(?:/[^:\\n]*)?:\\d+: ).*$`, 'gm')
      : null;
  const text = (s: string): string => {
    let out = matcher.empty ? s : matcher.redact(s);
    if (hitLine) out = out.replace(hitLine, `$1${FORGOTTEN}`);
    return out;
  };
  const escapedNames = names.map((n) => JSON.stringify(n).slice(1, -1));
  return {
    text,
    mayTouchJson: (raw) =>
      escapedNames.some((n) => raw.includes(n)) || (!matcher.empty && matcher.mayOccurInJson(raw)),
    records(records) {
      const aboutFile = memoryCallsOn(records, names);
      let changed = false;
      for (const record of records) if (redactRecord(record, text, aboutFile)) changed = true;
      return changed;
    },
  };
}

/** Ids of memory tool calls whose path is (or is inside) a forgotten path. */
function memoryCallsOn(records: readonly ConversationRecord[], names: readonly string[]): Set<string> {
  const ids = new Set<string>();
  for (const r of records)
    if (r.t === 'msg')
      for (const b of r.content)
        if (b.type === 'tool_use' && b.name === 'memory') {
          const input = b.input as Record<string, unknown> | null;
          if (
            input &&
            (within(input.path, names) || within(input.old_path, names) || within(input.new_path, names))
          )
            ids.add(b.id);
        }
  return ids;
}

function redactRecord(
  record: ConversationRecord,
  text: (s: string) => string,
  aboutFile: ReadonlySet<string>,
): boolean {
  if (record.t === 'msg') {
    let changed = false;
    record.content = record.content.map((b) => {
      const next = redactBlock(b, text, aboutFile);
      if (next !== b) changed = true;
      return next;
    });
    if (record.text !== undefined) {
      const t = text(record.text);
      if (t !== record.text) {
        record.text = t;
        changed = true;
      }
    }
    return changed;
  }
  if (record.t === 'compacted' && record.block) {
    const quoted = JSON.stringify(record.block);
    const changed = walk(record, text);
    // A signed summary block cannot be edited: one that quoted the file becomes the app's own summary.
    if (changed || JSON.stringify(record.block) !== quoted) {
      const content = (record.block as { content?: unknown }).content;
      record.summary = text(typeof content === 'string' && content ? content : record.summary);
      record.strategy = 'local';
      delete record.block;
      return true;
    }
    return false;
  }
  return walk(record, text);
}

function redactBlock(b: Block, text: (s: string) => string, aboutFile: ReadonlySet<string>): Block {
  if (b.type === 'tool_use' && aboutFile.has(b.id)) {
    const input = { ...(b.input as Record<string, unknown>) };
    let changed = false;
    for (const [k, v] of Object.entries(input))
      if (!STRUCTURAL.has(k) && typeof v === 'string' && v !== '' && v !== FORGOTTEN) {
        input[k] = FORGOTTEN;
        changed = true;
      }
    return changed ? { ...b, input } : b;
  }
  if (b.type === 'tool_result' && aboutFile.has(b.tool_use_id)) {
    const already =
      Array.isArray(b.content) &&
      b.content.length === 1 &&
      b.content[0]?.type === 'text' &&
      b.content[0].text === FORGOTTEN;
    if (already) return b;
    return {
      type: 'tool_result',
      tool_use_id: b.tool_use_id,
      content: [{ type: 'text', text: FORGOTTEN }],
      ...(b.is_error ? { is_error: true } : {}),
    };
  }
  const copy = mapStrings(b, text);
  if (copy === b) return b;
  // A compaction block's opaque part may hold what its text said: only the readable text is kept.
  if (copy.type === 'compaction') {
    const c = copy as { encrypted_content?: unknown; signature?: unknown };
    if (c.encrypted_content !== undefined) c.encrypted_content = null;
    delete c.signature;
  }
  return copy;
}

/** `value` with every content string redacted: the same value when none changed, else a copy. */
function mapStrings<T>(value: T, text: (s: string) => string): T {
  if (typeof value === 'string') return text(value) as T;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((v: unknown, i) => {
      const next = mapStrings(v, text);
      if (next !== v) (out ??= value.slice())[i] = next;
    });
    return (out ?? value) as T;
  }
  if (value === null || typeof value !== 'object') return value;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (STRUCTURAL.has(k)) continue;
    const next = mapStrings(v, text);
    if (next !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = next;
  }
  return (out ?? value) as T;
}

/** Redacts every content string in `value` in place; true when any changed. */
export function walk(value: unknown, text: (s: string) => string): boolean {
  if (Array.isArray(value)) {
    let changed = false;
    value.forEach((v, i) => {
      if (typeof v === 'string') {
        const t = text(v);
        if (t !== v) {
          value[i] = t;
          changed = true;
        }
      } else if (walk(v, text)) changed = true;
    });
    return changed;
  }
  if (value === null || typeof value !== 'object') return false;
  let changed = false;
  const obj = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(obj)) {
    if (STRUCTURAL.has(k)) continue;
    if (typeof v === 'string') {
      const t = text(v);
      if (t !== v) {
        obj[k] = t;
        changed = true;
      }
    } else if (walk(v, text)) changed = true;
  }
  return changed;
}
