// A forget while a run of this process holds a conversation (its lease): the run goes on with what it read
// or streamed before the forget (a reply quoting the file, the result of a `view` of it, a summary), and
// writes that after the redaction ran. So each redaction of a leased conversation is held until the lease
// goes back: every record the run writes passes through it first, before the file, the live state and the
// recall index (which follows the live state) see it.
import type { ConversationRecord } from './records.js';

/** Redacts records in place (the forget's redactor); true when any changed. */
export type Redact = (records: readonly ConversationRecord[]) => boolean;

export class HeldRedactions {
  private readonly byId = new Map<string, Redact[]>();

  hold(id: string, redact: Redact): void {
    const held = this.byId.get(id);
    if (held) held.push(redact);
    else this.byId.set(id, [redact]);
  }

  /** The run's lease went back: later writes are the user's or a new run's, made after the forget. */
  release(id: string): void {
    this.byId.delete(id);
  }

  /**
   * Redacts `records` in place before they are written. `before` are the records they follow (the reply
   * whose tool calls results answer): with it, a result of a call on the forgotten file goes whole.
   * True when any changed (`before` is live already: the store then counts an in-place redaction).
   */
  apply(id: string, records: readonly ConversationRecord[], before: readonly ConversationRecord[]): boolean {
    const held = this.byId.get(id);
    if (!held) return false;
    let changed = false;
    for (const redact of held) if (redact([...before, ...records])) changed = true;
    return changed;
  }
}

/**
 * Per conversation, a number that changes whenever a forget may have changed its live records in place.
 * Appends, cuts and reloads show in the state's arrays (new records, a shorter or new array); this is the
 * one change that does not, so the recall index takes appends one by one only while it stays the same.
 */
export class RedactionMarks {
  private readonly marks = new Map<string, number>();
  private count = 0;

  /** 0: never redacted in place in this process. Never comes round to an old value. */
  of(id: string): number {
    return this.marks.get(id) ?? 0;
  }

  /** Runs `redact` over live records of `id`: counted when it changed any, or threw (after some, maybe). */
  run(id: string, redact: () => boolean): boolean {
    let changed = true;
    try {
      changed = redact();
      return changed;
    } finally {
      if (changed) this.marks.set(id, ++this.count);
    }
  }
}
