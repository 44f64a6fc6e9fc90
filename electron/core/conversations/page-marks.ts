// Where each record of a loaded conversation sits in its file (the byte offset of its line), noted when
// the record is read (a replay, a catch-up) or written (the writer reports each line's length), and the
// page sidecar (page-file.ts) built from a state and those offsets. Kept beside the records, not in the
// state: the state stays what a replay gives, and a record whose place is unknown (redacted in place, its
// file rewritten) just has none, so no sidecar is built until the file is read again.
import { projectEntries } from '../../../shared/projection/project.js';
import { type PageFile, TurnTable } from './page-file.js';
import type { ConversationState } from './state.js';
import type { FileStamp } from './summary-cache.js';

const offsets = new WeakMap<object, number>();

/** Records read or written at `base` on, the line of records[i] starting at base + starts[i]. */
export function markRead(records: readonly unknown[], starts: readonly number[], base = 0): void {
  records.forEach((r, i) => offsets.set(r as object, base + starts[i]!));
}

/** Records just written at `base` (where the file ended), each line `lengths[i]` bytes long. */
export function markWritten(records: readonly unknown[], lengths: readonly number[], base: number): void {
  let at = base;
  records.forEach((r, i) => {
    offsets.set(r as object, at);
    at += lengths[i]!;
  });
}

/** Their places are no longer known (the records were redacted in place, the file replaced). */
export function unmark(records: Iterable<object>): void {
  for (const r of records) offsets.delete(r);
}

/** A turn's item count, kept while the turn is unchanged (its first and last entries the same objects). */
const counted = new WeakMap<object, { end: number; last: object; items: number }>();

function itemsOf(state: ConversationState, start: number, end: number): number {
  const first = state.entries[start]!.record;
  const last = state.entries[end - 1]!.record;
  const known = counted.get(first);
  if (known && known.end === end && known.last === last) return known.items;
  const items = projectEntries(state.entries.slice(start, end), state.pinned).length;
  counted.set(first, { end, last, items });
  return items;
}

/**
 * The sidecar for `state` as the file with `stamp` holds it, or null when it cannot be built: a turn's
 * place in the file is unknown, or ids repeat (then which record a truncation or a cursor means depends
 * on records before a page, which an open from the sidecar does not read).
 */
export function buildPageFile(state: ConversationState, stamp: FileStamp): PageFile | null {
  const { starts } = state.pages;
  const ids = new Set<string>();
  for (const e of state.entries) ids.add(e.record.id);
  if (ids.size !== state.entries.length) return null;
  const turns: { offset: number; entries: number; items: number }[] = [];
  for (const [t, start] of starts.entries()) {
    const end = t + 1 < starts.length ? starts[t + 1]! : state.entries.length;
    const at = offsets.get(state.entries[start]!.record);
    if (at === undefined || at >= stamp.size || (t > 0 && at <= turns.at(-1)!.offset)) return null;
    turns.push({ offset: at, entries: end - start, items: itemsOf(state, start, end) });
  }
  return { stamp, pinned: [...state.pinned], turns: TurnTable.of(turns) };
}
