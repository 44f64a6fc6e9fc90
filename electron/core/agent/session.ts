// Everything one run of the loop needs, assembled by the agent service (agent.ts) for each run.
import type Anthropic from '@anthropic-ai/sdk';
import type { Memory } from '../../../memory/types.js';
import type { Settings } from '../../../shared/channels/settings.js';
import type { Logger } from '../context.js';
import type { ErrorKind } from '../../../shared/channels/chat.js';
import type { CardFact } from '../../../shared/projection/cards.js';
import type { ConversationRecord, MessageRecord } from '../conversations/records.js';
import type { ConversationState } from '../conversations/state.js';
import type { ConversationStore } from '../conversations/store.js';
import type { RunHandle } from '../runs.js';
import type { Accounting } from './accounting.js';
import type { ReviewBroker } from './review.js';
import type { Toolbox } from './tools.js';
import { randomUUID } from 'node:crypto';

export interface LoopSession {
  client: Anthropic;
  store: ConversationStore;
  run: RunHandle;
  conversationId: string;
  settings: Settings;
  model: string;
  strategy: Settings['contextStrategy'];
  maxTurns: number;
  stallMs: number;
  memory: Memory | null;
  toolbox: Toolbox;
  reviews: ReviewBroker;
  log: Logger;
  accounting(): Accounting;
  /** Rebuild the accounting from the state (after a compaction). */
  resetAccounting(): Accounting;
  /** The accounting a state would have (a compaction before it is applied: what the next request holds). */
  accountingFor(state: ConversationState): Accounting;
  /** Memory changes by other hands since this conversation last heard, as a data note (or null). */
  takeMemoryNotes(): Promise<string | null>;
  /** Called after the context changed (for context.changed events). */
  contextChanged(): void;
}

export function state(s: LoopSession): ConversationState {
  return s.store.get(s.conversationId);
}

// Date.prototype.toISOString is a runtime call that costs about 4 µs with cold caches (bench/loop: a few
// times per turn); the stamp formats the second once and adds the milliseconds.
let second = { at: NaN, prefix: '' };

/** The current time as an ISO string (records' `at`), as Date.prototype.toISOString writes it. */
export function now(): string {
  const ms = Date.now();
  const at = ms - (ms % 1000);
  // 'YYYY-MM-DDTHH:mm:ss.' of this second.
  if (at !== second.at) second = { at, prefix: new Date(at).toISOString().slice(0, -4) };
  return `${second.prefix}${String(ms % 1000).padStart(3, '0')}Z`;
}

/** Writes a message (synced within CHAT_SYNC_MS; before a memory write and at the run's end at once). */
export async function appendMessage(s: LoopSession, record: MessageRecord): Promise<void> {
  await s.store.write(s.conversationId, [record]);
  s.accounting().add(record, state(s).cleared);
}

/** Appends without waiting for the disk: the write follows in order (see ConversationStore.appendQueued). */
export function queueMessage(s: LoopSession, record: MessageRecord): void {
  s.store.appendQueued(s.conversationId, [record]);
  s.accounting().add(record, state(s).cleared);
}

/**
 * Shows a card: stores it (after `extra` records, in one write) and sends it live with the same id and fact,
 * so the chat builds the same item now and after a reload (shared/projection). Returns the card's id.
 */
/** Where a card is shown: its conversation's store, and the run its live `card` event goes out in. */
export type CardTarget = Pick<LoopSession, 'store' | 'run' | 'conversationId'>;

export async function showCard(
  s: CardTarget,
  card: CardFact,
  extra: ConversationRecord[] = [],
  id: string = randomUUID(),
): Promise<string> {
  const at = now();
  await s.store.write(s.conversationId, [...extra, { t: 'event', id, event: card.kind, card, at }]);
  s.run.emit({ type: 'card', id, card, at });
  return id;
}

/** A run's error: its card, then the run.error notice (the run's status and the terminal's message). */
export async function showError(
  s: LoopSession,
  failure: { kind: ErrorKind; message: string; retryable: boolean; retryAfterMs?: number },
): Promise<void> {
  await showCard(s, {
    kind: 'error',
    errorKind: failure.kind,
    message: failure.message,
    retryable: failure.retryable,
  });
  s.run.emit({ type: 'run.error', ...failure });
}
