// Pages of a conversation's transcript: whole turns (page-index.ts), projected by the one projection.
// Concatenated in order, the pages of a conversation are exactly its full transcript (a property test
// holds them to it), so where a window cut the conversation never changes what it shows.
import type { TranscriptItem } from '../../../shared/channels/conversations.js';
import { ContractError } from '../../../shared/errors.js';
import { projectEntries } from '../../../shared/projection/project.js';
import type { ConversationState } from './state.js';

export interface Page {
  items: TranscriptItem[];
  /** Ask for the page `before` this (the id the page's first turn starts with); null at the start. */
  older: string | null;
  /** Ask for the page `from` this (the id the next turn starts with); null at the end. */
  newer: string | null;
}

/**
 * A conversation as a window is given it: its entries before `end`. While a run streams, `end` is how far
 * the entries reached when the run emitted the seq the window attaches after (runs.ts savedSeq), so an
 * entry stored since (a card whose event is still to come) reaches the window once, by its event.
 */
interface Cut {
  state: ConversationState;
  end: number;
  /** The turns that start before `end`. */
  total: number;
}

function cut(state: ConversationState, end = state.entries.length): Cut {
  const { starts } = state.pages;
  let total = starts.length;
  while (total > 0 && starts[total - 1]! >= end) total--;
  return { state, end: Math.min(end, state.entries.length), total };
}

/** Turns [first, last) as items, with the cursors either side. */
function turns({ state, end: stop, total }: Cut, first: number, last: number): Page {
  const { starts } = state.pages;
  const end = last < total ? starts[last]! : stop;
  const items = first < last ? projectEntries(state.entries.slice(starts[first], end), state.pinned) : [];
  return {
    items,
    older: first > 0 ? cursorOf(state, first) : null,
    newer: last < total ? cursorOf(state, last) : null,
  };
}

const cursorOf = (state: ConversationState, turn: number): string =>
  state.entries[state.pages.starts[turn]!]!.record.id;

const count = (c: Cut, turn: number): number => turns(c, turn, turn + 1).items.length;

/** The turn a cursor (or any message, card or tool call id) is in. */
function turnAt({ state, end }: Cut, id: string): number {
  const entry = state.pages.entryOf(id);
  const turn = entry === undefined || entry >= end ? -1 : state.pages.turnOf(entry);
  if (turn < 0) {
    throw new ContractError(
      'not_found',
      'That message is no longer in this conversation (it was edited or regenerated): open it again.',
    );
  }
  return turn;
}

/** The last turns, at least `limit` items of them (all of them when there are fewer). */
export function lastPage(state: ConversationState, limit: number, end?: number): Page {
  const c = cut(state, end);
  return pageBefore(c, c.total, limit);
}

function pageBefore(c: Cut, last: number, limit: number): Page {
  let first = last;
  for (let n = 0; first > 0 && n < limit;) n += count(c, --first);
  return turns(c, first, last);
}

function pageFrom(c: Cut, first: number, limit: number): Page {
  let last = first;
  for (let n = 0; last < c.total && n < limit;) n += count(c, last++);
  return turns(c, first, last);
}

/** The page before the turn that `before` starts (or ending with the one it is in), or from the one `from` is in. */
export function pageAt(
  state: ConversationState,
  at: { before: string } | { from: string },
  limit: number,
  end?: number,
): Page {
  const c = cut(state, end);
  if ('from' in at) return pageFrom(c, turnAt(c, at.from), limit);
  // A cursor a window was given starts a turn, unless a record stored since joined that turn to earlier
  // ones: then the page ends with the joined turn, whole (the window replaces its items it covers), since
  // the part of it before the cursor cannot be projected alone and leaving it out would leave a gap.
  const turn = turnAt(c, at.before);
  return pageBefore(c, cursorOf(c.state, turn) === at.before ? turn : turn + 1, limit);
}

/** The turn holding `id` with turns either side, about `limit` items in all, the older ones first. */
export function pageAround(state: ConversationState, id: string, limit: number, end?: number): Page {
  const c = cut(state, end);
  const turn = turnAt(c, id);
  let first = turn;
  let last = turn + 1;
  let n = count(c, turn);
  const total = c.total;
  // Alternate: the message should land in the middle of the window, not at an edge.
  while (n < limit && (first > 0 || last < total)) {
    if (first > 0) n += count(c, --first);
    if (n < limit && last < total) n += count(c, last++);
  }
  return turns(c, first, last);
}
