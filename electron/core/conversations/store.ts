// Conversations on disk: one append-only JSONL file per conversation in DATA_DIR/conversations/. All
// states are loaded once and kept in memory (list and search need them anyway); every change is written to
// the file first and then applied to the in-memory state, the same way a restart replays it.
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ConversationSummary } from '../../../shared/channels/conversations.js';
import { ContractError } from '../../../shared/errors.js';
import { JsonlWriter, readJsonl } from './jsonl.js';
import type { ConversationRecord, MetaRecord } from './records.js';
import { type ConversationState, applyRecord, emptyState, rebuild } from './state.js';

const ID = /^[A-Za-z0-9_-]{1,128}$/;
export const UNTITLED = 'New conversation';

/**
 * A new conversation and a chat's messages (the user's, the model's replies, tool results, run events) are
 * written at once and synced within this time: against a fast endpoint many turns share one disk sync (on the test machine a
 * sync costs about a tenth of a zero-latency turn), while against the real API, whose turns take seconds,
 * each message still gets its own. A memory write and the end of a run sync at once; so do the other
 * changes (rename, pin, truncate), which are rare and awaited by the user.
 */
export const CHAT_SYNC_MS = 50;

export class ConversationStore {
  private readonly byId = new Map<string, ConversationState>();
  private readonly writers = new Map<string, JsonlWriter>();
  private readonly listeners = new Set<() => void>();
  private loaded: Promise<void> | null = null;

  constructor(readonly dir: string) {}

  /** Loads every conversation once; later calls wait for the same load. */
  init(): Promise<void> {
    this.loaded ??= this.load();
    return this.loaded;
  }

  private async load(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    for (const name of await fs.readdir(this.dir)) {
      const id = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
      if (!ID.test(id)) continue;
      const { records } = await readJsonl<ConversationRecord>(path.join(this.dir, name));
      const state = rebuild(records);
      if (state && state.meta.id === id) this.byId.set(id, state);
    }
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  list(): ConversationSummary[] {
    return [...this.byId.values()].map(summarize).sort((a, b) => byNewest(a.updatedAt, b.updatedAt));
  }

  states(): Iterable<ConversationState> {
    return this.byId.values();
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): ConversationState {
    // Only well-formed ids are ever loaded or created, so an unknown or malformed one is simply not found.
    const state = this.byId.get(id);
    if (!state)
      throw new ContractError('not_found', 'That conversation does not exist (it may have been deleted).');
    return state;
  }

  /** A new conversation; `records` (such as its first message) are written with it, in one write. */
  async create(options: {
    title?: string | undefined;
    memory: boolean;
    records?: ConversationRecord[];
  }): Promise<ConversationState> {
    await this.init();
    const meta: MetaRecord = {
      t: 'meta',
      v: 1,
      id: randomUUID(),
      title: options.title?.trim() ?? '',
      createdAt: new Date().toISOString(),
      memory: options.memory,
    };
    const records = options.records ?? [];
    await this.writer(meta.id).write([meta, ...records]);
    const state = emptyState(meta);
    for (const record of records) applyRecord(state, record);
    this.byId.set(meta.id, state);
    this.changed();
    return state;
  }

  /** Appends records and syncs them, then applies them to the live state. */
  async append(id: string, records: ConversationRecord[]): Promise<ConversationState> {
    const state = this.get(id);
    await this.writer(id).append(records);
    return this.applied(state, records);
  }

  /** Writes records (synced within CHAT_SYNC_MS), then applies them to the live state. */
  async write(id: string, records: ConversationRecord[]): Promise<ConversationState> {
    const state = this.get(id);
    await this.writer(id).write(records);
    return this.applied(state, records);
  }

  private applied(state: ConversationState, records: ConversationRecord[]): ConversationState {
    for (const record of records) applyRecord(state, record);
    this.changed();
    return state;
  }

  /**
   * Applies records to the live state at once and queues their write behind every earlier one (so the file
   * is always a prefix of the history): written on the next tick, synced within CHAT_SYNC_MS. The loop uses
   * it to send the next request while the disk works; `flushed` syncs at once (before memory writes and
   * before a run ends).
   */
  appendQueued(id: string, records: ConversationRecord[]): ConversationState {
    const state = this.get(id);
    this.writer(id).writeQueued(records); // a failure is reported by flushed()
    return this.applied(state, records);
  }

  async flushed(id: string): Promise<void> {
    await this.writers.get(id)?.flushed();
  }

  async rename(id: string, title: string): Promise<ConversationState> {
    return this.append(id, [{ t: 'title', title: title.trim(), at: new Date().toISOString() }]);
  }

  async delete(id: string): Promise<void> {
    this.get(id);
    const writer = this.writers.get(id);
    this.writers.delete(id);
    this.byId.delete(id);
    await writer?.close();
    await fs.rm(path.join(this.dir, `${id}.jsonl`), { force: true });
    this.changed();
  }

  /**
   * Redacts a conversation (forget): its live records in place (a record still queued is then written
   * redacted), then its file, between two writes. True when anything changed.
   */
  async redact(
    id: string,
    redact: (records: readonly ConversationRecord[]) => boolean,
    file: (path: string) => Promise<boolean>,
  ): Promise<boolean> {
    const state = this.byId.get(id);
    if (!state) return false; // deleted meanwhile: its file is gone with it
    const live = redact([
      ...new Set([...state.messages, ...state.entries.map((e) => e.record), ...state.compactions]),
    ]);
    const onDisk = await this.writer(id).between(() => file(path.join(this.dir, `${id}.jsonl`)));
    if (live) this.changed();
    return live || onDisk;
  }

  async close(): Promise<void> {
    const writers = [...this.writers.values()];
    this.writers.clear();
    await Promise.all(writers.map((w) => w.close()));
  }

  private writer(id: string): JsonlWriter {
    let writer = this.writers.get(id);
    if (!writer) {
      writer = new JsonlWriter(path.join(this.dir, `${id}.jsonl`), { syncWithinMs: CHAT_SYNC_MS });
      this.writers.set(id, writer);
    }
    return writer;
  }
}

/** Newest first, for ISO timestamps, which sort as plain strings (localeCompare would collate, for nothing). */
export function byNewest(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

export function titleOf(state: ConversationState): string {
  return state.title || UNTITLED;
}

// The list is summarized after every append of a run (conversations.changed): each summary is kept until
// its conversation changes, so that costs one lookup per conversation, not a pass over all their messages.
const summaries = new WeakMap<ConversationState, { key: string; summary: ConversationSummary }>();

export function summarize(state: ConversationState): ConversationSummary {
  // Messages are appended, or cut at a point and then appended: their count and last id tell a change.
  const key = `${state.messages.length}|${state.messages.at(-1)?.id ?? ''}|${state.updatedAt}|${titleOf(state)}`;
  const known = summaries.get(state);
  if (known?.key === key) return known.summary;
  const summary: ConversationSummary = {
    id: state.meta.id,
    title: titleOf(state),
    createdAt: state.meta.createdAt,
    updatedAt: state.updatedAt,
    memory: state.meta.memory,
    messageCount: state.messages.filter((m) => m.kind === 'user' || m.kind === 'assistant').length,
  };
  summaries.set(state, { key, summary });
  return summary;
}
