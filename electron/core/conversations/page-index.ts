// Where a conversation's transcript can be cut into pages without changing an item: kept with the state
// and updated by every record applied (state.ts), at load and live alike, so an open projects only the
// turns it sends instead of replaying the whole conversation.
//
// A page is a run of whole turns. A turn starts at a user message; it ends where the next one starts,
// unless something after that still changes one of its items (a tool result for a call in an earlier turn,
// a review card under an earlier call, the outcome of an earlier review, the retry that takes an earlier
// error's card away, a repeated item id): then the
// turns in between become one, so no page boundary falls between an item and what changes it.
import { entryChanges as changes, entryMakes as makes } from '../../../shared/projection/entry-ids.js';
import { toolItemId } from '../../../shared/projection/items.js';
import type { EventRecord, MessageRecord } from './records.js';

/** An entry of the transcript (state.ts's Entry, named here so the two files do not import each other). */
type Entry = { type: 'msg'; record: MessageRecord } | { type: 'event'; record: EventRecord };

export class PageIndex {
  /** Ascending entry indexes where each turn starts; the first is 0 once there is an entry. */
  readonly starts: number[] = [];
  /** Entry record id → its entry index (the cursors and "open at this message" look-ups). */
  private readonly entryAt = new Map<string, number>();
  /** View item id → the entry index that made it (what a later entry may still change). */
  private readonly madeBy = new Map<string, number>();

  /** The entry at `index` was appended (entries are only ever appended or cut at the end). */
  push(entry: Entry, index: number): void {
    if (this.starts.length === 0 || (entry.type === 'msg' && entry.record.kind === 'user'))
      this.starts.push(index);
    this.entryAt.set(entry.record.id, index);
    for (const ref of changes(entry)) {
      const at = this.madeBy.get(ref);
      if (at !== undefined) this.join(at);
    }
    for (const id of makes(entry)) {
      const at = this.madeBy.get(id);
      // A repeated id adds nothing to the projection (the first item stays): keep the two in one page.
      if (at !== undefined) this.join(at);
      else this.madeBy.set(id, index);
    }
  }

  /** Entries from `from` on were dropped (a truncation). */
  cut(entries: readonly Entry[], from: number): void {
    while (this.starts.length > 0 && this.starts.at(-1)! >= from) this.starts.pop();
    for (const entry of entries.slice(from)) {
      if (this.entryAt.get(entry.record.id)! >= from) this.entryAt.delete(entry.record.id);
      for (const id of makes(entry)) if ((this.madeBy.get(id) ?? -1) >= from) this.madeBy.delete(id);
    }
  }

  /** The turn holding entry `index` (-1 when there is none). */
  turnOf(index: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! <= index) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** The entry index of a record id, or of the entry that made a view item (`tool:…`, a tool_use id). */
  entryOf(id: string): number | undefined {
    return this.entryAt.get(id) ?? this.madeBy.get(id) ?? this.madeBy.get(toolItemId(id));
  }

  /** Merges every turn after the one holding entry `at` into it. */
  private join(at: number): void {
    while (this.starts.length > 1 && this.starts.at(-1)! > at) this.starts.pop();
  }
}
