// A conversation's state, rebuilt by replaying its records in order; new records are applied the same
// way, so the live state and the state after a restart are one and the same thing.
import type {
  ClearedRecord,
  CompactedRecord,
  ConversationRecord,
  EventRecord,
  MessageRecord,
  MetaRecord,
} from './records.js';
import { type Card, cardLabel } from '../../../shared/projection/cards.js';
import { PageIndex } from './page-index.js';

export type Entry = { type: 'msg'; record: MessageRecord } | { type: 'event'; record: EventRecord };

export interface ConversationState {
  meta: MetaRecord;
  title: string;
  updatedAt: string;
  /** Messages and events in order (what the transcript shows). */
  entries: Entry[];
  /** Where the transcript can be cut into pages (pages.ts). */
  pages: PageIndex;
  /** Messages only, in order (what the API history is built from). */
  messages: MessageRecord[];
  pinned: Set<string>;
  /** Local clearing: tool results replaced by a placeholder. */
  cleared: Set<string>;
  /** Compactions in force, oldest first; the last one decides what is sent. */
  compactions: CompactedRecord[];
  /** Said since the last compaction: compaction cannot get the context under its trigger. */
  stuck: Card<'compaction_stuck'> | null;
  history: {
    at: string;
    kind: 'cleared' | 'compacted';
    strategy: 'native' | 'local';
    before: number;
    after: number;
    detail: string;
    /** The card it came from (a legacy record has none; its detail is the record's text). */
    card?: Card<'cleared'> | Card<'compacted'>;
  }[];
}

export function emptyState(meta: MetaRecord): ConversationState {
  return {
    meta,
    title: meta.title,
    updatedAt: meta.createdAt,
    entries: [],
    pages: new PageIndex(),
    messages: [],
    pinned: new Set(),
    cleared: new Set(),
    compactions: [],
    stuck: null,
    history: [],
  };
}

export function applyRecord(state: ConversationState, record: ConversationRecord): void {
  switch (record.t) {
    case 'meta':
      return;
    case 'msg':
      state.pages.push({ type: 'msg', record }, state.entries.length);
      state.entries.push({ type: 'msg', record });
      state.messages.push(record);
      break;
    case 'event':
      state.pages.push({ type: 'event', record }, state.entries.length);
      state.entries.push({ type: 'event', record });
      {
        const step = historyStep(record);
        if (step) state.history.push(step);
        if (record.card?.kind === 'compaction_stuck') state.stuck = record.card;
      }
      break;
    case 'title':
      state.title = record.title;
      break;
    case 'pin':
      if (record.pinned) state.pinned.add(record.messageId);
      else state.pinned.delete(record.messageId);
      break;
    case 'truncate':
      truncate(state, record.fromMessageId);
      break;
    case 'cleared':
      applyCleared(state, record);
      break;
    case 'compacted':
      state.compactions.push(record);
      state.stuck = null;
      break;
  }
  state.updatedAt = record.at;
}

/** A clearing or compaction, for the context meter's history (from the card's fact, or a legacy record). */
function historyStep(record: EventRecord): ConversationState['history'][number] | null {
  const card = record.card;
  if (card?.kind === 'cleared' || card?.kind === 'compacted') {
    return {
      at: record.at,
      kind: card.kind,
      strategy: card.strategy,
      before: card.tokensBefore,
      after: card.tokensAfter,
      detail: cardLabel(card),
      card,
    };
  }
  if (card || (record.event !== 'cleared' && record.event !== 'compacted') || !record.strategy) return null;
  return {
    at: record.at,
    kind: record.event,
    strategy: record.strategy,
    before: record.tokensBefore ?? 0,
    after: record.tokensAfter ?? 0,
    detail: record.text ?? '',
  };
}

function applyCleared(state: ConversationState, record: ClearedRecord): void {
  for (const id of record.toolUseIds) state.cleared.add(id);
}

function truncate(state: ConversationState, fromMessageId: string): void {
  const msgIndex = state.messages.findIndex((m) => m.id === fromMessageId);
  if (msgIndex < 0) return;
  state.messages.length = msgIndex;
  const entryIndex = state.entries.findIndex((e) => e.type === 'msg' && e.record.id === fromMessageId);
  if (entryIndex >= 0) {
    state.pages.cut(state.entries, entryIndex);
    state.entries.length = entryIndex;
  }
  // A compaction that summarized messages now gone no longer applies.
  const ids = new Set(state.messages.map((m) => m.id));
  while (state.compactions.length > 0 && !ids.has(state.compactions.at(-1)!.lastMessageId))
    state.compactions.pop();
}

export function currentCompaction(state: ConversationState): CompactedRecord | null {
  return state.compactions.at(-1) ?? null;
}

export function rebuild(records: ConversationRecord[]): ConversationState | null {
  const meta = records[0];
  if (meta?.t !== 'meta') return null;
  const state = emptyState(meta);
  for (const record of records.slice(1)) applyRecord(state, record);
  return state;
}
