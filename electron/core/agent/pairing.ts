// The API's rules for a request's messages, enforced in one place: every message of every request is
// appended through `PairedMessages.append` (history.ts builds the history with it; `repairMessages` is the
// same over a plain list). Whatever the stored records hold (a crash between a tool_use and its result, a
// torn or hand-edited file, two writers), what comes out is a history the API accepts:
//
// - roles alternate (consecutive same-role messages are merged) and no message is empty;
// - the first message is the user's, unless it starts with a compaction block;
// - every tool_use of an assistant message is answered at the start of the next user message, tool_result
//   blocks first and in the order of the calls; a call nobody answered gets an is_error result saying the
//   app stopped before its result was recorded; a tool_result whose call is not in the previous assistant
//   message is dropped, as is a second result for one call;
// - tool_use ids are unique; tool_use only in assistant messages, tool_result only in user messages;
// - no empty or whitespace-only text (also inside tool results); no block type the API does not know;
// - a compaction block only as the first block of the first message (where both kinds are accepted);
//   thinking blocks only in assistant messages;
// - a final assistant message does not end in whitespace.
//
// A history that already follows the rules comes out unchanged (the same block objects), and appending is
// incremental: a turn costs what it adds. Only the last message can still change while records arrive
// (its role's next record merges into it), so a message handed out before is never changed, only replaced.
import type {
  BetaContentBlockParam,
  BetaToolResultBlockParam,
  BetaToolUseBlockParam,
} from '@anthropic-ai/sdk/resources/beta/messages/messages.js';
import { WRITE_COMMANDS } from '../../../shared/projection/memory-writes.js';

export type Role = 'user' | 'assistant';

/** A user or assistant message with block content (the only shapes we send). */
export interface ApiMessage {
  role: Role;
  content: BetaContentBlockParam[];
}

export const STOPPED = 'The app stopped before this result was recorded.';

export function isMemoryWrite(call: { name: string; input: unknown }): boolean {
  const command = (call.input as { command?: unknown } | null)?.command;
  return call.name === 'memory' && typeof command === 'string' && WRITE_COMMANDS.has(command);
}

/**
 * What a call gets when its result was never recorded and nothing else is known. Before a run the loop
 * records a truthful one instead, with what the memory's journal says of a write (recover.ts).
 */
export function interruptedResult(call: BetaToolUseBlockParam): BetaToolResultBlockParam {
  const text = isMemoryWrite(call)
    ? `${STOPPED} Whether the memory change was applied is not known: view the file to check before making it again.`
    : `${STOPPED} Run the tool again if you still need its result.`;
  return { type: 'tool_result', tool_use_id: call.id, content: text, is_error: true };
}

const USER_BLOCKS = new Set(['text', 'image', 'document', 'search_result', 'tool_result']);
const ASSISTANT_BLOCKS = new Set(['text', 'tool_use', 'thinking', 'redacted_thinking', 'compaction']);
const RESULT_CONTENT = new Set(['text', 'image', 'document', 'search_result']);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const NON_SPACE = /\S/;

/** Non-empty and not only whitespace (a scan to the first visible character, no copy). */
function goodText(block: { text?: unknown }): boolean {
  return typeof block.text === 'string' && NON_SPACE.test(block.text);
}

/** A tool_result as the API accepts it (null: nothing of it can be sent), the same object when it is. */
function cleanResult(block: BetaToolResultBlockParam): BetaToolResultBlockParam | null {
  if (typeof block.tool_use_id !== 'string') return null;
  const { content } = block;
  const badFlag = block.is_error !== undefined && typeof block.is_error !== 'boolean';
  const goodInner = (c: unknown): boolean =>
    isObject(c) && RESULT_CONTENT.has(c.type as string) && (c.type !== 'text' || goodText(c));
  const badContent =
    content !== undefined &&
    typeof content !== 'string' &&
    (!Array.isArray(content) || !content.every(goodInner));
  if (!badFlag && !badContent) return block;
  const out: BetaToolResultBlockParam = { ...block };
  if (badFlag) delete out.is_error;
  if (badContent) {
    out.content = Array.isArray(content)
      ? (content.filter(goodInner) as BetaToolResultBlockParam['content'])
      : '';
  }
  return out;
}

interface Group {
  role: Role;
  /** The records' blocks, merged, as stored. */
  raw: BetaContentBlockParam[];
  /** What is sent (raw itself when it already follows the rules). */
  out: BetaContentBlockParam[];
  /** Index in `messages` (when `out` is not empty, it is there). */
  at: number;
  /** User groups: the calls of the assistant message before, which this one must answer first. */
  offered: BetaToolUseBlockParam[];
  /** Assistant groups: the calls kept. */
  calls: BetaToolUseBlockParam[];
  /** User groups: position in `out` of the last result answering a marked call (-1: none). */
  mark: number;
}

export interface PairingOptions {
  /** The result for a call nobody answered (default interruptedResult). */
  unanswered?: (call: BetaToolUseBlockParam) => BetaToolResultBlockParam;
  /** Calls whose results are tracked (`marked`): the memory views, a cache breakpoint. */
  marked?: (call: BetaToolUseBlockParam) => boolean;
}

export class PairedMessages {
  /** The messages so far, each following the rules; the last may still be replaced by a merge. */
  readonly messages: ApiMessage[] = [];
  private readonly groups: Group[] = [];
  /** tool_use ids of every assistant group but the last. */
  private readonly seen = new Set<string>();
  /** Groups with a marked result, oldest first. */
  private readonly marks: Group[] = [];
  private readonly unanswered: (call: BetaToolUseBlockParam) => BetaToolResultBlockParam;
  private readonly marked: ((call: BetaToolUseBlockParam) => boolean) | undefined;

  constructor(options: PairingOptions = {}) {
    this.unanswered = options.unanswered ?? interruptedResult;
    this.marked = options.marked;
  }

  append(role: Role, content: readonly BetaContentBlockParam[]): void {
    if (content.length === 0) return;
    let last = this.groups.at(-1);
    // A last group that came out empty is taken back, so its neighbours of the same role merge.
    if (last && last.role !== role && last.out.length === 0) {
      this.groups.pop();
      this.unmark(last);
      last = this.groups.at(-1);
      if (last?.role === 'assistant') for (const c of last.calls) this.seen.delete(c.id);
    }
    if (last && last.role === role) {
      last.raw = [...last.raw, ...content];
      this.repair(last);
      return;
    }
    if (last?.role === 'assistant') for (const c of last.calls) this.seen.add(c.id);
    const group: Group = {
      role,
      raw: content as BetaContentBlockParam[],
      out: NO_BLOCKS,
      at: this.messages.length,
      offered: role === 'user' && last ? last.calls : NO_CALLS,
      calls: NO_CALLS,
      mark: -1,
    };
    this.groups.push(group);
    this.repair(group);
  }

  /** The last result answering a marked call: its message and block. */
  get lastMark(): { message: number; block: number } | null {
    const g = this.marks.at(-1);
    return g ? { message: g.at, block: g.mark } : null;
  }

  /**
   * The messages of a request: the kept ones, plus answers to a final assistant message's calls (no record
   * holds them: the app stopped before running them) and a final text without trailing whitespace.
   */
  snapshot(): ApiMessage[] {
    const messages = this.messages.slice();
    const last = this.groups.at(-1);
    if (last?.role === 'assistant' && last.calls.length > 0) {
      messages.push({ role: 'user', content: last.calls.map((c) => this.unanswered(c)) });
      return messages;
    }
    trimFinalAssistant(messages);
    return messages;
  }

  private repair(g: Group): void {
    this.unmark(g);
    g.out = g.role === 'user' ? this.repairUser(g) : this.repairAssistant(g);
    if (g.out.length > 0) this.messages[g.at] = { role: g.role, content: g.out };
    else this.messages.length = g.at;
    if (g.mark >= 0) this.marks.push(g);
  }

  private unmark(g: Group): void {
    if (this.marks.at(-1) === g) this.marks.pop();
    g.mark = -1;
  }

  private repairUser(g: Group): BetaContentBlockParam[] {
    const { raw, offered } = g;
    // The common shapes pass untouched: results for exactly the offered calls, in order, then the rest.
    let intact = true;
    let answered = 0;
    for (const block of raw) {
      const type = (block as { type?: unknown }).type as string;
      if (type === 'tool_result') {
        const b = block as BetaToolResultBlockParam;
        if (answered >= offered.length || offered[answered]!.id !== b.tool_use_id || cleanResult(b) !== b) {
          intact = false;
          break;
        }
        answered += 1;
      } else if (
        answered < offered.length ||
        !USER_BLOCKS.has(type) ||
        (type === 'text' && !goodText(block as { text?: unknown }))
      ) {
        intact = false;
        break;
      }
    }
    let out: BetaContentBlockParam[];
    if (intact && answered === offered.length) out = raw;
    else {
      const results = new Map<string, BetaToolResultBlockParam>();
      const rest: BetaContentBlockParam[] = [];
      const ids = new Set(offered.map((c) => c.id));
      for (const block of raw) {
        const type = (block as { type?: unknown }).type as string;
        if (type === 'tool_result') {
          const b = cleanResult(block as BetaToolResultBlockParam);
          if (b && ids.has(b.tool_use_id) && !results.has(b.tool_use_id)) results.set(b.tool_use_id, b);
        } else if (USER_BLOCKS.has(type) && (type !== 'text' || goodText(block as { text?: unknown }))) {
          rest.push(block);
        }
      }
      out = [...offered.map((c) => results.get(c.id) ?? this.unanswered(c)), ...rest];
    }
    if (this.marked) {
      for (let i = offered.length - 1; i >= 0; i--) {
        if (this.marked(offered[i]!)) {
          g.mark = i;
          break;
        }
      }
    }
    return out;
  }

  private repairAssistant(g: Group): BetaContentBlockParam[] {
    const first = g.at === 0;
    const { raw } = g;
    let calls: BetaToolUseBlockParam[] = NO_CALLS;
    let out: BetaContentBlockParam[] | null = null;
    // A plain loop without per-message allocations: a rebuild (truncate, clearing) runs it for every message.
    for (let i = 0; i < raw.length; i++) {
      const block = raw[i]!;
      const type = (block as { type?: unknown }).type as string;
      let keep: boolean;
      if (type === 'text') keep = goodText(block as { text?: unknown });
      else if (type === 'tool_use') {
        const b = block as BetaToolUseBlockParam;
        keep =
          typeof b.id === 'string' &&
          typeof b.name === 'string' &&
          isObject(b.input) &&
          !this.seen.has(b.id) &&
          !calls.some((c) => c.id === b.id);
        if (keep) calls = calls === NO_CALLS ? [b] : [...calls, b];
      } else if (type === 'compaction') keep = first && (out ? out.length : i) === 0;
      else keep = ASSISTANT_BLOCKS.has(type);
      if (!keep && !out) out = raw.slice(0, i);
      else if (keep && out) out.push(block);
    }
    const kept = out ?? raw;
    // The first message must be the user's unless it starts with a compaction block.
    if (first && (kept[0] as { type?: string } | undefined)?.type !== 'compaction') {
      g.calls = NO_CALLS;
      return [];
    }
    g.calls = calls;
    return kept;
  }
}

// Shared empty arrays (never written to): most messages have no calls.
const NO_CALLS: BetaToolUseBlockParam[] = [];
const NO_BLOCKS: BetaContentBlockParam[] = [];

/** The one function every request's messages pass through (see the top of this file). */
export function repairMessages(
  messages: readonly { role: Role; content: string | readonly BetaContentBlockParam[] }[],
  options?: PairingOptions,
): ApiMessage[] {
  const paired = new PairedMessages(options);
  for (const m of messages) {
    const content: readonly BetaContentBlockParam[] =
      typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    if (m.role === 'user' || m.role === 'assistant') paired.append(m.role, content);
  }
  return paired.snapshot();
}

/** A final assistant message (a continuation or Compact now after an interruption) must not end in whitespace. */
function trimFinalAssistant(messages: ApiMessage[]): void {
  const last = messages.at(-1);
  const tail = last?.content.at(-1);
  if (last?.role !== 'assistant' || tail?.type !== 'text' || tail.text === tail.text.trimEnd()) return;
  const text = tail.text.trimEnd();
  const content = last.content.slice(0, -1);
  if (text) content.push({ ...tail, text });
  messages[messages.length - 1] = { ...last, content };
  if (content.length === 0) messages.pop();
}
