// Streaming runs: each run has an id, and every event it emits gets the next sequence number (1, 2, ...).
// Events are kept per run (live runs and the last few finished ones) so a window that reloads mid-run can
// call `chat.attach` with the last seq it saw and receive exactly what it missed.
import { randomUUID } from 'node:crypto';
import type { RunEvent, RunStatus } from '../../shared/channels/chat.js';
import type { Redactor } from './conversations/redact.js';
import type { EventBus } from './events.js';
import { redactArriving, redactRunEvents } from './run-redact.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** What a run emits: the registry adds runId, conversationId and seq. */
export type RunEventInput = DistributiveOmit<RunEvent, 'runId' | 'conversationId' | 'seq'>;
export type { RunStatus };

export interface RunHandle {
  readonly runId: string;
  readonly conversationId: string;
  readonly signal: AbortSignal;
  /** Emits `event` (a fresh object: it is completed in place with the run's ids and seq). */
  emit(event: RunEventInput): RunEvent;
  /** Emits `run.finished` and closes the run. */
  finish(status: Exclude<RunStatus, 'running'>): void;
}

/** A running run as a window opening its conversation takes it up (RunRegistry.live). */
export interface LiveRun {
  run: { runId: string; status: RunStatus; seq: number };
  /** The entries its seq covers: the conversation's entries before this index. */
  entries: number;
  /** Where its own entries begin. */
  since: number;
  events: readonly RunEvent[];
  /** Its events after the last one whose record is stored: none is a card, call or review. */
  pending: RunEvent[];
}

interface RunRecord {
  runId: string;
  conversationId: string;
  status: RunStatus;
  events: RunEvent[];
  controller: AbortController;
  /** Run as the run finishes, before run.finished is emitted (e.g. giving back the conversation's lease). */
  onFinished: (() => void)[];
  /** Events whose effect is not in the conversation's records yet (streamed text, tool results), by seq. */
  unsaved: Map<string, number>;
  /** Forgets made during the run: what it emits from then on may quote what it read before. */
  redactors: Redactor[];
  /** How far the conversation's stored entries reached at the start ([0]) and as each seq was emitted. */
  extents: number[];
}

/**
 * Tracks which events the stored records do not reflect yet. Every event but these is emitted after its
 * record is in the conversation's state: a reply's text is stored with its message.done, a tool result
 * with the tool results' message.done, and what a run never stored by its end is not kept at all.
 */
function track(record: RunRecord, event: RunEvent): void {
  if (event.type === 'text.delta') {
    const key = `m:${event.messageId}`;
    if (!record.unsaved.has(key)) record.unsaved.set(key, event.seq);
  } else if (event.type === 'tool.result') {
    record.unsaved.set(`t:${event.toolUseId}`, event.seq);
  } else if (event.type === 'message.done' || event.type === 'run.finished') {
    record.unsaved.clear();
  }
}

export class RunRegistry {
  private readonly runs = new Map<string, RunRecord>();
  private readonly finishedOrder: string[] = [];
  /** How many entries a conversation's state has now (set by the agent, which holds the states). */
  private extentOf: (conversationId: string) => number = () => Number.MAX_SAFE_INTEGER;

  constructor(
    private readonly bus: EventBus,
    private readonly keepFinished = 20,
  ) {}

  /** Tells the registry how to measure a conversation's stored entries (see savedSeq). */
  measureWith(extentOf: (conversationId: string) => number): void {
    this.extentOf = extentOf;
  }

  start(conversationId: string): RunHandle {
    const record: RunRecord = {
      runId: randomUUID(),
      conversationId,
      status: 'running',
      events: [],
      controller: new AbortController(),
      onFinished: [],
      unsaved: new Map(),
      redactors: [],
      extents: [this.extentOf(conversationId)],
    };
    this.runs.set(record.runId, record);
    const emit = (event: RunEventInput): RunEvent => {
      // Completed in place: callers pass a fresh literal, and a spread copy of each event shape is a slow
      // generic path (bench/loop emits several events per turn).
      const full = event as RunEvent;
      full.runId = record.runId;
      full.conversationId = record.conversationId;
      full.seq = record.events.length + 1;
      for (const redactor of record.redactors) redactArriving(full, record.events, redactor);
      record.events.push(full);
      record.extents.push(this.extentOf(record.conversationId));
      track(record, full);
      this.bus.emit('chat.event', full);
      return full;
    };
    return {
      runId: record.runId,
      conversationId,
      signal: record.controller.signal,
      emit,
      finish: (status) => {
        if (record.status !== 'running') return;
        for (const fn of record.onFinished.splice(0)) {
          try {
            fn();
          } catch {
            // A hook never keeps the run from finishing.
          }
        }
        emit({ type: 'run.finished', status });
        record.status = status;
        this.retire(record.runId);
      },
    };
  }

  /**
   * A forget: the events kept for replay (running runs and the finished ones still kept) lose the
   * forgotten content, and a running run's later events are redacted before they go out. `of`: the
   * conversations the forget is about (its space's).
   */
  redact(redactor: Redactor, of: (conversationId: string) => boolean): void {
    for (const record of this.runs.values()) {
      if (!of(record.conversationId)) continue;
      redactRunEvents(record.events, redactor);
      if (record.status === 'running') record.redactors.push(redactor);
    }
  }

  abort(runId: string): boolean {
    const record = this.runs.get(runId);
    if (!record || record.status !== 'running') return false;
    record.controller.abort();
    return true;
  }

  /**
   * Calls `fn` as the run finishes, just before run.finished is emitted (at once if it has finished, or
   * is unknown: retired long ago). `fn` is synchronous: whoever sees run.finished sees its effect.
   */
  whenFinished(runId: string, fn: () => void): void {
    const record = this.runs.get(runId);
    if (record?.status === 'running') record.onFinished.push(fn);
    else fn();
  }

  /** The running run of a conversation, if any. */
  activeFor(conversationId: string): RunRecord | undefined {
    for (const record of this.runs.values()) {
      if (record.conversationId === conversationId && record.status === 'running') return record;
    }
    return undefined;
  }

  /** Runs still going (e.g. to abort them all on quit). */
  running(): string[] {
    return [...this.runs.values()].filter((r) => r.status === 'running').map((r) => r.runId);
  }

  /**
   * The running run of a conversation, for a window that opens it now: its last seq, `entries` (how far
   * the conversation's entries reached when that seq was emitted: a record stored since, a card between
   * its write and its event, is announced by a later event) and `pending`, the events of it whose effect is
   * not in the records yet (the reply streaming, tool results before their message). The entries, as the
   * run's events have shown them so far (live-items.ts), plus `pending`, are exactly what the run's events
   * up to `seq` show: a window given them and attached after `seq` misses nothing and repeats nothing.
   */
  live(conversationId: string): LiveRun | null {
    const record = this.activeFor(conversationId);
    if (!record) return null;
    const seq = record.events.length;
    let saved = seq;
    for (const first of record.unsaved.values()) saved = Math.min(saved, first - 1);
    return {
      run: { runId: record.runId, status: record.status, seq },
      entries: record.extents[seq]!,
      since: record.extents[0]!,
      events: record.events,
      pending: record.events.slice(saved).filter((e) => e.type === 'text.delta' || e.type === 'tool.result'),
    };
  }

  attach(query: { runId?: string | undefined; conversationId?: string | undefined; afterSeq: number }): {
    run: { runId: string; conversationId: string; status: RunStatus } | null;
    events: RunEvent[];
  } {
    let record = query.runId ? this.runs.get(query.runId) : undefined;
    if (!record && query.conversationId) {
      record = this.activeFor(query.conversationId) ?? this.latestFor(query.conversationId);
    }
    if (!record) return { run: null, events: [] };
    return {
      run: { runId: record.runId, conversationId: record.conversationId, status: record.status },
      events: record.events.filter((e) => e.seq > query.afterSeq),
    };
  }

  /**
   * A temporary conversation ended: the finished runs kept for replay hold its text, and go with it. A
   * run still going is the caller's to stop first.
   */
  dropFinished(conversationId: string): void {
    for (let i = this.finishedOrder.length - 1; i >= 0; i--) {
      const runId = this.finishedOrder[i]!;
      if (this.runs.get(runId)?.conversationId !== conversationId) continue;
      this.runs.delete(runId);
      this.finishedOrder.splice(i, 1);
    }
  }

  private latestFor(conversationId: string): RunRecord | undefined {
    for (let i = this.finishedOrder.length - 1; i >= 0; i--) {
      const record = this.runs.get(this.finishedOrder[i]!);
      if (record?.conversationId === conversationId) return record;
    }
    return undefined;
  }

  private retire(runId: string): void {
    this.finishedOrder.push(runId);
    while (this.finishedOrder.length > this.keepFinished) {
      this.runs.delete(this.finishedOrder.shift()!);
    }
  }
}
