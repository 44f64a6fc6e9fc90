// The agent service of one backend: conversations, runs of the loop, reviews, memory notes and the context
// meter. The chat.*, conversations.* and context.* handlers, and the CLI, all go through it.
import Anthropic from '@anthropic-ai/sdk';
import path from 'node:path';
import type { Memory } from '../../../memory/types.js';
import type { Settings } from '../../../shared/channels/settings.js';
import { ContractError } from '../../../shared/errors.js';
import type { CoreContext } from '../context.js';
import type { MessageRecord } from '../conversations/records.js';
import type { Redactor } from '../conversations/redact.js';
import { ConversationStore } from '../conversations/store.js';
import type { RunStatus } from '../../../shared/channels/chat.js';
import type { RunHandle } from '../runs.js';
import { Accounting } from './accounting.js';
import { movedSinceBackfill } from './backfill-step.js';
import { estimateTokens } from './estimate.js';
import { dropBuiltHistory } from './history.js';
import { runLoop } from './loop.js';
import {
  type Meter,
  meterOfSnapshot,
  meterOfState,
  meterUsage,
  parseSnapshot,
  snapshotOf,
} from './context-snapshot.js';
import { readPageContext } from '../conversations/page-file.js';
import type { ContextUsage } from '../../../shared/channels/context.js';
import { MemoryNotes } from './memory-notes.js';
import { ReviewBroker } from './review.js';
import type { LoopSession } from './session.js';
import { showError } from './session.js';
import { userRecords } from './user-records.js';
import { systemPrompt } from './system-prompt.js';
import { type SearchTool, Toolbox } from './tools.js';
import { INDEX_DIR } from '../recall/persist.js';
import { RecallIndex } from '../recall/recall-index.js';
import { RecallTools } from '../recall/tools.js';
import { throttle } from '../throttle.js';
import { diskMessage } from '../disk-errors.js';

/** The least time between two conversations.changed events (the sidebar's list). */
const LIST_INTERVAL_MS = 250;
/**
 * The least time between two context.changed events of a run: against the real API a turn takes seconds
 * and each gets its own; a fast endpoint would otherwise update the meter hundreds of times a second.
 */
const CONTEXT_INTERVAL_MS = 100;

export const NO_KEY_MESSAGE =
  'No Anthropic API key: add one in Settings, or set the ANTHROPIC_API_KEY environment variable.';

export interface AgentOptions {
  memory?: Memory | null;
  search?: SearchTool | null;
  /** Overrides on top of the stored settings for this backend only (CLI flags). */
  overrides?: Partial<Settings>;
  /** Client options (tests: fewer retries). */
  maxRetries?: number;
}

type Body = (s: LoopSession) => Promise<Exclude<RunStatus, 'running'>>;

export class Agent {
  readonly store: ConversationStore;
  readonly reviews = new ReviewBroker();
  readonly memory: Memory | null;
  /** The space's recall index (../recall/): what the recall tools and the sidebar's search use. */
  readonly recall: RecallIndex;
  private readonly recallTools: RecallTools;
  private readonly toolboxes: { on: Toolbox; recall: Toolbox; off: Toolbox };
  private readonly notes: MemoryNotes | null;
  private readonly accountings = new Map<string, Accounting>();
  private readonly busy = new Set<string>();
  private readonly windows = new Map<string, Promise<number | null>>();
  private overrides: Partial<Settings>;
  private client: { key: string; client: Anthropic } | null = null;

  constructor(
    readonly ctx: CoreContext,
    private readonly options: AgentOptions = {},
  ) {
    const dir = path.join(ctx.space?.dir ?? ctx.dataDir, 'conversations');
    this.store = new ConversationStore(dir, {
      warn: (message, fields) => ctx.log.warn(message, fields),
      listing: ctx.prefetched?.(dir),
      context: snapshotOf,
      erased: (count) => ctx.log.info('erased temporary chats an earlier version kept', { count }),
    });
    // A run notes how far the stored entries reach at each seq, so a window opening mid-run gets exactly
    // the entries its attach seq covers (runs.ts savedSeq). One not loaded here has no run streaming.
    ctx.runs.measureWith((id) => this.store.peek(id)?.entries.length ?? Number.MAX_SAFE_INTEGER);
    this.recall = new RecallIndex(this.store, path.join(dir, INDEX_DIR), {
      ...(ctx.idle ? { idle: ctx.idle } : {}),
      onProgress: (progress) => ctx.events.emit('conversations.indexing', progress),
      warn: (message, fields) => ctx.log.warn(message, fields),
    });
    this.recallTools = new RecallTools(this.recall, this.store);
    this.memory = options.memory ?? null;
    this.toolboxes = {
      on: new Toolbox(this.memory, options.search ?? null),
      recall: new Toolbox(this.memory, options.search ?? null, this.recallTools),
      off: new Toolbox(null, null),
    };
    this.notes = this.memory ? new MemoryNotes(this.memory) : null;
    this.overrides = options.overrides ?? {};
    // Coalesced: a run appends a few records per turn, and every window re-renders its sidebar from the
    // list; so at most one conversations.changed per LIST_INTERVAL_MS (the first at once, the last always).
    this.store.onChange(
      throttle(
        () => this.ctx.events.emit('conversations.changed', { conversations: this.store.list() }),
        LIST_INTERVAL_MS,
      ),
    );
  }

  configure(overrides: Partial<Settings>): void {
    this.overrides = { ...this.overrides, ...overrides };
  }

  settings(): Settings {
    return { ...this.ctx.settings.get(), ...this.overrides };
  }

  apiClient(): Anthropic {
    const key = this.ctx.settings.apiKey();
    if (!key) throw new ContractError('no_api_key', NO_KEY_MESSAGE);
    if (this.client?.key !== key) {
      const client = new Anthropic({
        apiKey: key,
        ...(this.ctx.baseUrl ? { baseURL: this.ctx.baseUrl } : {}),
        ...(this.options.maxRetries !== undefined ? { maxRetries: this.options.maxRetries } : {}),
      });
      this.client = { key, client };
    }
    return this.client.client;
  }

  /** Recall is on for this space (its own setting; on unless turned off). */
  recallOn(): boolean {
    return this.ctx.space?.recall?.() ?? true;
  }

  /** Temporary (memory-off) conversations get no tools at all, recall included. */
  toolbox(memoryOn: boolean, recallOn = this.recallOn()): Toolbox {
    if (!memoryOn) return this.toolboxes.off;
    return recallOn ? this.toolboxes.recall : this.toolboxes.on;
  }

  systemTokens(memoryOn: boolean): number {
    const recall = this.recallOn();
    const tools = this.toolbox(memoryOn, recall).definitions;
    return estimateTokens(systemPrompt(memoryOn, recall)) + estimateTokens(JSON.stringify(tools));
  }

  accounting(conversationId: string): Accounting {
    let acc = this.accountings.get(conversationId);
    if (!acc) {
      const state = this.store.get(conversationId);
      acc = Accounting.fromState(state, this.systemTokens(state.meta.memory));
      this.accountings.set(conversationId, acc);
    }
    return acc;
  }

  resetAccounting(conversationId: string): Accounting {
    this.accountings.delete(conversationId);
    return this.accounting(conversationId);
  }

  forget(conversationId: string): void {
    this.accountings.delete(conversationId);
  }

  /**
   * A memory file was forgotten: its copies leave every conversation, live and on disk, and what was built
   * from them (the kept API history, the token accounting) is dropped. Returns the conversations changed.
   */
  async redactForgotten(redactor: Redactor, rewrite: (file: string) => Promise<boolean>): Promise<string[]> {
    await this.store.init();
    const changed: string[] = [];
    // A conversation that fails (its file held by another process's run, a full disk) does not keep the
    // others from being redacted: the first failure is thrown once all were tried.
    let failure: { error: unknown } | undefined;
    // Every conversation, open or not (one not open here has its copies in its file only).
    for (const id of this.store.ids()) {
      let redacted: boolean;
      try {
        redacted = await this.store.redact(id, (records) => redactor.records(records), rewrite);
      } catch (error) {
        failure ??= { error };
        // Its live records may have been redacted before its file part failed.
        redacted = this.store.peek(id) !== undefined;
      }
      if (!redacted) continue;
      changed.push(id);
      const state = this.store.peek(id);
      if (state) dropBuiltHistory(state);
      this.accountings.delete(id);
    }
    // The summary cache may have held a copy too (in a title or a first line): replaced before the
    // forget answers.
    if (changed.length > 0) await this.store.saveSummaries(true);
    // Forgotten means gone from the recall index too, on disk included, before the forget answers.
    if (changed.length > 0) {
      await this.recall.open();
      await this.recall.save();
    }
    if (failure) throw failure.error;
    return changed;
  }

  /**
   * The model's context window asked for as soon as a window shows the list, not when its meter first
   * asks: a process's first API request also readies the HTTP client, 40-70 ms of a just-started
   * process's CPU, which the window's first open (asked for a moment after the meter) waited behind.
   */
  warmModel(): void {
    if (this.modelAsked) return;
    this.modelAsked = true;
    if (this.ctx.settings.apiKey()) setImmediate(() => void this.contextWindow(this.settings().model));
  }

  private modelAsked = false;

  /** The model's context window from the models endpoint (cached; null when unknown). */
  contextWindow(model: string): Promise<number | null> {
    let known = this.windows.get(model);
    if (!known) {
      known = (async () => {
        try {
          return (await this.apiClient().models.retrieve(model)).max_input_tokens ?? null;
        } catch {
          this.windows.delete(model);
          return null;
        }
      })();
      this.windows.set(model, known);
    }
    return known;
  }

  /** Claims a conversation for a run; throws if one is already running there. */
  claim(conversationId: string): void {
    if (this.busy.has(conversationId) || this.ctx.runs.activeFor(conversationId)) {
      throw new ContractError(
        'unavailable',
        'A reply is still being written in this conversation: wait for it or stop it first.',
      );
    }
    this.busy.add(conversationId);
  }

  release(conversationId: string): void {
    this.busy.delete(conversationId);
  }

  async userMessage(conversationId: string, text: string): Promise<MessageRecord> {
    const state = this.store.get(conversationId);
    const hasHistory = state.messages.length > 0;
    // Just moved here from another space: this space's memory is given whole before the reply (the
    // backfill), so no note of its changes since the last message; later ones are noted as usual.
    const moved = movedSinceBackfill(state);
    if (moved) this.notes?.follow(conversationId);
    const note =
      hasHistory && !moved && state.meta.memory && this.notes
        ? await this.notes.take(conversationId, state.messages.at(-1)?.at)
        : null;
    const records = userRecords(text, note, !state.title);
    await this.store.write(conversationId, records);
    this.accountings.get(conversationId)?.add(records[0]);
    return records[0];
  }

  /** A new conversation that starts with the user's message: one write for both. */
  async startConversation(text: string, memory: boolean): Promise<{ id: string; message: MessageRecord }> {
    const records = userRecords(text, null, true);
    const state = await this.store.create({ memory, records });
    return { id: state.meta.id, message: records[0] };
  }

  /**
   * Starts a run on a claimed conversation: `body` runs the loop (or a compaction) in the background; the
   * run always finishes with a status and the claim is released.
   */
  start(conversationId: string, userMessageId: string, body: Body = runLoop): RunHandle {
    let client: Anthropic;
    try {
      client = this.apiClient();
    } catch (error) {
      this.release(conversationId);
      throw error;
    }
    const run = this.ctx.runs.start(conversationId);
    const asked = this.store.get(conversationId).messages.findLast((m) => m.id === userMessageId);
    run.emit({ type: 'run.started', userMessageId, ...(asked ? { at: asked.at } : {}) });
    const settings = this.settings();
    const state = this.store.get(conversationId);
    const memoryOn = state.meta.memory && this.memory !== null;
    if (memoryOn) this.notes?.follow(conversationId);
    // The meter reports the settings the run uses, without reading the settings file on every turn.
    this.runSettings.set(conversationId, settings);
    const session: LoopSession = {
      client,
      store: this.store,
      run,
      conversationId,
      settings,
      model: settings.model,
      strategy: settings.contextStrategy,
      maxTurns: settings.maxTurns,
      stallMs: settings.stallTimeoutMs,
      memory: memoryOn ? this.memory : null,
      toolbox: this.toolbox(memoryOn),
      reviews: this.reviews,
      log: this.ctx.log,
      accounting: () => this.accounting(conversationId),
      resetAccounting: () => this.resetAccounting(conversationId),
      accountingFor: (st) => Accounting.fromState(st, this.systemTokens(st.meta.memory)),
      takeMemoryNotes: () =>
        memoryOn && this.notes ? this.notes.take(conversationId) : Promise.resolve(null),
      contextChanged: throttle(() => void this.emitContext(conversationId), CONTEXT_INTERVAL_MS),
    };
    void (async () => {
      let status: Exclude<RunStatus, 'running'> = 'error';
      try {
        status = await body(session);
      } catch (error) {
        this.ctx.log.error('run crashed', { error });
        const failure =
          error instanceof ContractError
            ? error.message
            : (diskMessage(error) ?? 'Something went wrong inside Mnemo. Retry, or see the log.');
        const shown = { kind: 'internal' as const, message: failure, retryable: true };
        await showError(session, shown).catch(() => run.emit({ type: 'run.error', ...shown }));
      } finally {
        try {
          await this.store.flushed(conversationId);
        } catch (error) {
          status = 'error';
          run.emit({
            type: 'run.error',
            kind: 'internal',
            message: (error as Error).message,
            retryable: false,
          });
        }
        this.runSettings.delete(conversationId);
        this.release(conversationId);
        run.finish(status);
        // The meter's final state, at once (the run's own updates are throttled); after run.finished.
        void this.emitContext(conversationId);
      }
    })();
    return run;
  }

  /** The settings of each running run, by conversation. */
  private readonly runSettings = new Map<string, Settings>();

  async emitContext(conversationId: string): Promise<void> {
    try {
      this.ctx.events.emit('context.changed', await this.contextUsage(conversationId));
    } catch {
      // The conversation was deleted meanwhile: nothing to report.
    }
  }

  async contextUsage(conversationId: string): Promise<ContextUsage> {
    const meter = await this.meter(conversationId);
    const settings = this.runSettings.get(conversationId) ?? this.settings();
    return meterUsage(conversationId, meter, settings, await this.contextWindow(settings.model));
  }

  /**
   * The meter's figures: from the live state, or, for a conversation not loaded here, from its page
   * sidecar when that describes its file as it is (context-snapshot.ts), so the meter shown when a window
   * opens it after a restart replays nothing; otherwise its file is read, as a reply would.
   */
  private async meter(conversationId: string): Promise<Meter> {
    if (!this.store.peek(conversationId)) {
      await this.store.init();
      const saved = parseSnapshot(await readPageContext(this.store.dir, conversationId));
      // Read in meanwhile (a reply, another request): the live state is the one to show.
      if (saved && !this.store.peek(conversationId) && this.store.has(conversationId))
        return meterOfSnapshot(saved, this.systemTokens(saved.memory));
      await this.store.open(conversationId);
    }
    const state = this.store.get(conversationId);
    return meterOfState(state, this.accounting(conversationId));
  }

  summaries() {
    return this.store.list();
  }

  summary(conversationId: string) {
    return this.store.summary(conversationId);
  }

  /** Stops following memory changes and closes the conversation files (after pending appends). */
  async close(): Promise<void> {
    this.notes?.close();
    await this.recall
      .close()
      .catch((error: unknown) => this.ctx.log.warn('recall index not saved', { error }));
    await this.store.close();
  }
}
