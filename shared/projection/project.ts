// The one projection of a conversation: stored records (after a reload, in the backend's transcript and
// export) and a run's live events (in the chat, the Activity tab and the terminal) both become view items
// through the same builders, so a card reads the same live and after a reload. Pure: no I/O, no clock.
import type { RunEvent } from '../channels/chat.js';
import { type CardFact, cardDetail, cardLabel } from './cards.js';
import { type ViewItem, type ViewItemOf, noteId, reviewItemId, toolItemId } from './items.js';

/** A stored message as the projection reads it (the backend's MessageRecord is one). */
export interface StoredMessage {
  id: string;
  kind: 'user' | 'assistant' | 'tool_results' | 'backfill';
  content: readonly { type: string }[];
  at: string;
  text?: string | undefined;
  interrupted?: boolean | undefined;
  tools?: Record<string, { durationMs: number; journalId?: string }> | undefined;
}

/** A stored card (the backend's EventRecord). Cards written before facts existed carry only their text. */
export interface StoredCard {
  id: string;
  event: string;
  at?: string | undefined;
  card?: CardFact | undefined;
  text?: string | undefined;
  detail?: string | undefined;
}

export type StoredEntry = { type: 'msg'; record: StoredMessage } | { type: 'event'; record: StoredCard };

/** Copy-on-write over an item list: the input is never changed, an unchanged list is returned as is. */
class Draft {
  items: ViewItem[];
  private copied = false;
  private index: Map<string, number> | null = null;

  /**
   * `fromEvents`: the items a run's events add are new, always: a window is given the stored records its
   * attach seq covers exactly (runs.ts savedSeq) and applies each event once (chat-items.ts), so an event
   * for an item already there is a bug in that bookkeeping, reported rather than hidden.
   */
  constructor(
    private readonly base: readonly ViewItem[],
    private readonly fromEvents = false,
  ) {
    this.items = base as ViewItem[];
  }

  get changed(): boolean {
    return this.copied;
  }

  private ids(): Map<string, number> {
    if (!this.index) {
      this.index = new Map();
      this.items.forEach((item, i) => this.index!.set(item.id, i));
    }
    return this.index;
  }

  private writable(): ViewItem[] {
    if (!this.copied) {
      this.items = this.base.slice();
      this.copied = true;
    }
    return this.items;
  }

  at(id: string): number {
    return this.ids().get(id) ?? -1;
  }

  get<K extends ViewItem['kind']>(id: string, kind: K): ViewItemOf<K> | undefined {
    const item = this.items[this.at(id)];
    return item?.kind === kind ? (item as ViewItemOf<K>) : undefined;
  }

  /**
   * Appends an item. Stored records name each item once, except a file written by hand or by an old
   * version that repeats an id: its first item stands, as it always has after a reload.
   */
  add(item: ViewItem): void {
    if (this.at(item.id) >= 0) {
      if (this.fromEvents)
        throw new Error(`A run event repeats the item ${item.id}: its seq was applied twice.`);
      return;
    }
    this.ids().set(item.id, this.items.length);
    this.writable().push(item);
  }

  /** Inserts an item right after another (or appends it when that one is not there). */
  addAfter(afterId: string, item: ViewItem): void {
    const after = this.at(afterId);
    if (after < 0 || after === this.items.length - 1 || this.at(item.id) >= 0) return this.add(item);
    this.writable().splice(after + 1, 0, item);
    this.index = null;
  }

  replace(id: string, item: ViewItem): void {
    const i = this.at(id);
    if (i < 0) return;
    this.writable()[i] = item;
    if (item.id !== id) {
      this.ids().delete(id);
      this.ids().set(item.id, i);
    }
  }

  remove(id: string): void {
    const i = this.at(id);
    if (i < 0) return;
    this.writable().splice(i, 1);
    this.index = null;
  }

  forEach(fn: (item: ViewItem) => void): void {
    for (const item of this.items.slice()) fn(item);
  }
}

/** The `at` of an item, when known (an optimistic or streaming item has none yet). */
const when = (at: string | undefined): { at?: string } => (at ? { at } : {});

function cardItem(
  id: string,
  fact: Exclude<CardFact, { kind: 'reviewed' | 'retried' }>,
  at: string | undefined,
): ViewItem {
  switch (fact.kind) {
    case 'error':
      return {
        kind: 'error',
        id,
        errorKind: fact.errorKind,
        message: fact.message,
        retryable: fact.retryable,
        ...when(at),
      };
    case 'review':
      return {
        kind: 'review',
        id: reviewItemId(fact.reviewId),
        reviewId: fact.reviewId,
        toolUseId: fact.toolUseId,
        command: fact.command,
        path: fact.path,
        before: fact.before,
        after: fact.after,
        outcome: null,
        ...when(at),
      };
    default: {
      const detail = cardDetail(fact);
      return {
        kind: 'event',
        id,
        event: fact.kind,
        text: cardLabel(fact),
        ...(detail !== undefined ? { detail } : {}),
        fact,
        ...when(at),
      };
    }
  }
}

function addCard(d: Draft, id: string, fact: CardFact, at: string | undefined): void {
  if (fact.kind === 'retried') {
    if (d.get(fact.errorId, 'error')) d.remove(fact.errorId);
    return;
  }
  if (fact.kind === 'reviewed') {
    const rid = reviewItemId(fact.reviewId);
    const review = d.get(rid, 'review');
    if (review && review.outcome === null) d.replace(rid, { ...review, outcome: fact.outcome });
    return;
  }
  const item = cardItem(id, fact, at);
  // A review card sits under the tool call it is about, wherever its record or event came.
  if (fact.kind === 'review') d.addAfter(toolItemId(fact.toolUseId), item);
  else d.add(item);
}

function textOf(content: readonly { type: string }[]): string {
  let text = '';
  for (const b of content) if (b.type === 'text') text += (b as unknown as { text: string }).text;
  return text;
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((c) => (c && typeof c === 'object' && 'text' in c ? String(c.text) : '')).join('\n');
  }
  return '';
}

function addMessage(d: Draft, m: StoredMessage, pinned: ReadonlySet<string>): void {
  switch (m.kind) {
    case 'backfill':
      return;
    case 'user':
      d.add({
        kind: 'user',
        id: m.id,
        text: m.text ?? textOf(m.content),
        pinned: pinned.has(m.id),
        ...when(m.at),
      });
      return;
    case 'assistant': {
      const text = textOf(m.content);
      if (text) {
        d.add({
          kind: 'assistant',
          id: m.id,
          text,
          pinned: pinned.has(m.id),
          interrupted: m.interrupted === true,
          streaming: false,
          ...when(m.at),
        });
      }
      for (const b of m.content) {
        if (b.type !== 'tool_use') continue;
        const use = b as unknown as { id: string; name: string; input: unknown };
        d.add(toolItem(use.id, use.name, use.input, m.at));
      }
      return;
    }
    case 'tool_results':
      for (const b of m.content) {
        if (b.type === 'tool_result') {
          const r = b as unknown as { tool_use_id: string; content?: unknown; is_error?: boolean };
          const meta = m.tools?.[r.tool_use_id];
          const result = resultText(r.content);
          setResult(d, r.tool_use_id, result, r.is_error === true, meta?.durationMs ?? null, meta?.journalId);
        } else if (b.type === 'text') {
          addCard(
            d,
            noteId(m.id),
            { kind: 'memory_changed', note: (b as unknown as { text: string }).text },
            m.at,
          );
        }
      }
  }
}

function toolItem(toolUseId: string, name: string, input: unknown, at: string): ViewItem {
  return {
    kind: 'tool',
    id: toolItemId(toolUseId),
    toolUseId,
    name,
    input,
    result: null,
    isError: false,
    durationMs: null,
    at,
  };
}

function setResult(
  d: Draft,
  toolUseId: string,
  result: string,
  isError: boolean,
  durationMs: number | null,
  journalId: string | undefined,
): void {
  const id = toolItemId(toolUseId);
  const item = d.get(id, 'tool');
  if (item && item.result === null)
    d.replace(id, { ...item, result, isError, durationMs, ...(journalId ? { journalId } : {}) });
}

function legacyCard(record: StoredCard): ViewItem {
  if (record.event === 'error') {
    return {
      kind: 'error',
      id: record.id,
      errorKind: record.detail ?? 'internal',
      message: record.text ?? '',
      retryable: true,
      ...when(record.at),
    };
  }
  return {
    kind: 'event',
    id: record.id,
    event: record.event,
    text: record.text ?? '',
    ...(record.detail ? { detail: record.detail } : {}),
    ...when(record.at),
  };
}

/** A conversation's items from its stored entries (messages and cards, in file order). */
export function projectEntries(
  entries: Iterable<StoredEntry>,
  pinned: ReadonlySet<string> = new Set(),
  base: readonly ViewItem[] = [],
): ViewItem[] {
  const d = new Draft(base);
  for (const entry of entries) {
    if (entry.type === 'msg') addMessage(d, entry.record, pinned);
    else if (entry.record.card) addCard(d, entry.record.id, entry.record.card, entry.record.at);
    else d.add(legacyCard(entry.record));
  }
  return d.items;
}

/**
 * Applies run events, in order, onto items (from the records a run's saved seq covers, or earlier events):
 * each event once (the callers keep each run's last seq). A finished item is never reopened. Returns the
 * same array when nothing changed.
 */
export function applyEvents<T extends { kind: string; id: string } = ViewItem>(
  items: readonly (ViewItem | T)[],
  events: Iterable<RunEvent>,
): (ViewItem | T)[] {
  // Items of other kinds (a window's own) are carried along untouched; ids are unique across all kinds.
  const d = new Draft(items as readonly ViewItem[], true);
  for (const ev of events) applyEvent(d, ev);
  return d.changed ? d.items : (items as (ViewItem | T)[]);
}

function applyEvent(d: Draft, ev: RunEvent): void {
  switch (ev.type) {
    case 'run.started': {
      const known = d.get(ev.userMessageId, 'user');
      if (known) {
        // Given its id by the send's answer first: its time comes with the run.
        if (!known.at && ev.at) d.replace(known.id, { ...known, at: ev.at });
        return;
      }
      if (d.at(ev.userMessageId) >= 0) return;
      // The optimistic user item gets its real id (the send's response may arrive after this event).
      const pending = d.items.find((it) => it.kind === 'user' && it.pending);
      if (pending?.kind === 'user') {
        const { pending: _sent, ...confirmed } = pending;
        d.replace(pending.id, { ...confirmed, id: ev.userMessageId, ...when(ev.at) });
      }
      return;
    }
    case 'text.delta': {
      const i = d.at(ev.messageId);
      const item = d.items[i];
      if (i < 0) {
        d.add({
          kind: 'assistant',
          id: ev.messageId,
          text: ev.text,
          pinned: false,
          interrupted: false,
          streaming: true,
        });
      } else if (item?.kind === 'assistant' && item.streaming) {
        d.replace(item.id, { ...item, text: item.text + ev.text });
      }
      return;
    }
    case 'message.done': {
      const item = d.get(ev.messageId, 'assistant');
      if (item?.streaming) {
        const text = ev.text ?? item.text;
        d.replace(item.id, { ...item, text, streaming: false, interrupted: ev.interrupted, ...when(ev.at) });
      }
      return;
    }
    case 'tool.call':
      d.add(toolItem(ev.toolUseId, ev.name, ev.input, ev.at ?? ''));
      return;
    case 'tool.result':
      setResult(d, ev.toolUseId, ev.result, ev.isError, ev.durationMs, ev.journalId);
      return;
    case 'card':
      addCard(d, ev.id, ev.card, ev.at);
      return;
    case 'review.request':
      addCard(
        d,
        reviewItemId(ev.reviewId),
        {
          kind: 'review',
          reviewId: ev.reviewId,
          toolUseId: ev.toolUseId,
          command: ev.command,
          path: ev.path,
          before: ev.before,
          after: ev.after,
        },
        ev.at,
      );
      return;
    case 'review.resolved':
      addCard(
        d,
        reviewItemId(ev.reviewId),
        { kind: 'reviewed', reviewId: ev.reviewId, outcome: ev.outcome },
        undefined,
      );
      return;
    case 'run.finished':
      // Anything still streaming has ended (an abort may never send message.done).
      d.forEach((item) => {
        if (item.kind === 'assistant' && item.streaming) {
          d.replace(item.id, {
            ...item,
            streaming: false,
            interrupted: item.interrupted || ev.status === 'aborted',
          });
        }
      });
      return;
    default:
      // run.error is the run's outcome (the status, Retry): its card arrives as a `card` event, exactly
      // as it is stored.
      return;
  }
}

/**
 * What a Retry leaves of a window's items, as chat.retry leaves the stored turn: the last turn's error
 * cards go (a `retried` fact), and so does an answer cut off at its end (truncated: it is asked for again),
 * with the unanswered calls and cards after it. Items of the window's own kinds stay.
 */
export function retryItems<T extends { kind: string; id: string }>(items: readonly T[]): T[] {
  let user = -1;
  for (let i = items.length - 1; i >= 0 && user < 0; i--) if (items[i]!.kind === 'user') user = i;
  let answer = -1;
  for (let i = items.length - 1; i > user && answer < 0; i--) if (items[i]!.kind === 'assistant') answer = i;
  const cut =
    answer >= 0 &&
    (items[answer] as unknown as ViewItemOf<'assistant'>).interrupted &&
    items
      .slice(answer + 1)
      .every(
        (i) =>
          i.kind === 'event' ||
          i.kind === 'error' ||
          (i.kind === 'tool' && (i as unknown as ViewItemOf<'tool'>).result === null),
      );
  return items.filter(
    (item, i) => i <= user || (!(cut && i >= answer && isProjected(item)) && item.kind !== 'error'),
  );
}

const isProjected = (item: { kind: string }): boolean =>
  item.kind === 'assistant' || item.kind === 'tool' || item.kind === 'event' || item.kind === 'error';
