// Where local compaction cuts: the index of the last message it summarizes. Never between a tool_use and
// its tool_result, so the kept messages after the summary make a history the API accepts.
import type { MessageRecord } from '../../conversations/records.js';

const hasCall = (m: MessageRecord): boolean => m.content.some((b) => b.type === 'tool_use');
const hasResult = (m: MessageRecord): boolean => m.content.some((b) => b.type === 'tool_result');

/**
 * Where to cut: the index of the last message to summarize, or -1. Before the last user turn when there is
 * one (the current question stays verbatim); otherwise inside the current turn (`cutInTurn`).
 * `all` summarizes everything (Compact now, nothing running).
 */
export function chooseCut(messages: readonly MessageRecord[], start: number, all: boolean): number {
  if (all) return messages.length - 1;
  const before = cutBeforeLastTurn(messages, start);
  return before >= start ? before : cutInTurn(messages, start);
}

/** Before the last user turn, or -1 (no user turn after the first two messages from `start`). */
function cutBeforeLastTurn(messages: readonly MessageRecord[], start: number): number {
  for (let j = messages.length - 1; j > start + 1; j--) {
    if (messages[j]!.kind !== 'user') continue;
    // A call whose results were recorded after this message (a crash mid-tool, recover.ts) stays with them.
    let cut = j - 1;
    while (cut >= start && messages[cut]!.role === 'assistant' && hasCall(messages[cut]!)) cut -= 1;
    return cut >= start ? cut : -1;
  }
  return -1;
}

/** Round trips a cut inside the current turn keeps verbatim: what the model is doing right now. */
const KEPT_ROUND_TRIPS = 2;

/**
 * Inside the current turn: after a tool result, keeping the last two round trips (a reply and the results
 * it asked for), or -1 when the turn holds no more than that. The kept part starts with a reply and holds
 * no result whose call is summarized, so the history after the summary stays valid.
 */
export function cutInTurn(messages: readonly MessageRecord[], start: number): number {
  const asked = messages.findLastIndex((m) => m.kind === 'user');
  let roundTrips = 0;
  for (let j = messages.length - 1; j > Math.max(start + 1, asked + 1); j--) {
    const m = messages[j]!;
    const previous = messages[j - 1]!;
    if (m.role !== 'assistant' || previous.role !== 'user' || !hasResult(previous)) continue;
    roundTrips += 1;
    if (roundTrips >= KEPT_ROUND_TRIPS && pairsKept(messages, start, j - 1)) return j - 1;
  }
  return -1;
}

/** No result after the cut answers a call at or before it (such a result would be orphaned). */
function pairsKept(messages: readonly MessageRecord[], start: number, cut: number): boolean {
  const calls = new Set<string>();
  for (let i = start; i <= cut; i++)
    for (const b of messages[i]!.content) if (b.type === 'tool_use') calls.add(b.id);
  for (let i = cut + 1; i < messages.length; i++)
    for (const b of messages[i]!.content)
      if (b.type === 'tool_result' && calls.has(b.tool_use_id)) return false;
  return true;
}
