// The recall index of one space: a MiniSearch (BM25) index over the text of every message, and every
// title, of the space's conversations, except temporary ones and those marked "don't search this". It
// follows the conversation store: a change only marks the conversation dirty, and a batch a little later
// (never on the streaming path, never awaited by a reply) brings its documents in line with what the
// conversation holds now. The index is loaded lazily (after start, or by the first search) and saved when
// idle, at close, and at once after a deletion or a redaction.
//
// Invariant: a hit is never shown unless the live conversation still holds the matching words in that
// message (each hit is checked against the store), so a stale or half-updated index can only miss, never
// reveal something deleted or forgotten.
import MiniSearch, { type Options } from 'minisearch';
import { type ConversationHead, headOf } from '../conversations/heads.js';
import type { ConversationState } from '../conversations/state.js';
import {
  type Manifest,
  SHARDS,
  readShard,
  removeLeftovers,
  shardFile,
  shardOf,
  writeShard,
} from './persist.js';
import {
  FIELDS,
  type RecallHit,
  type RecallQuery,
  type RecallSource,
  searchShards,
  searchable,
} from './search.js';
import { type Doc, type Indexed, reconcile } from './reconcile.js';
import { Slicer } from './slices.js';
import { stopPairs, term, tokenize } from './text.js';

export { searchable, type RecallHit, type RecallQuery, type RecallSource };

/**
 * A document's words, tokenized for its first field and reused for the second (MiniSearch tokenizes its
 * text once per field, one right after the other), then let go: no message's text stays here.
 */
let lastWords: { text: string; words: string[] } | null = null;
function fieldTokens(text: string, field?: string): string[] {
  if (field !== 'pairs') return (lastWords = { text, words: tokenize(text) }).words;
  const words = lastWords?.text === text ? lastWords.words : tokenize(text);
  lastWords = null;
  return stopPairs(words);
}

const OPTIONS: Options<Doc> = {
  fields: [...FIELDS],
  storeFields: ['c', 'at', 'k'],
  // Both fields read the message's text: the words and, for the second, its stop pairs.
  extractField: (doc, field) => (field === 'pairs' ? doc.text : doc[field as keyof Doc]),
  tokenize: fieldTokens,
  processTerm: (t, field) => (field === 'pairs' ? t : term(t)),
  // The query's terms arrive already folded and stemmed (parseQuery), one per word.
  searchOptions: { fields: ['text'], tokenize: (s) => s.split(' '), processTerm: (t) => t },
  autoVacuum: { batchSize: 2_000, batchWait: 5, minDirtCount: 50, minDirtFactor: 0.05 },
};

/** What decides, cheaply, whether a conversation's documents can be trusted as they were saved. */
export function conversationKey(h: ConversationHead): string {
  return `${h.rev ?? ''}|${h.messages}|${h.lastMessageId}|${h.updatedAt}|${h.title}|${h.memory}|${h.noSearch}`;
}

/** The state, or null when the conversation is gone (deleted meanwhile) or cannot be read now. */
const openOrNull = (source: RecallSource, id: string): Promise<ConversationState | null> =>
  source.has(id) ? source.open(id).catch(() => null) : Promise.resolve(null);

export interface IndexProgress {
  indexed: number;
  total: number;
}

export interface RecallIndexOptions {
  /** How long changes gather before the index follows them. */
  batchMs?: number;
  /** How long without changes before an addition is saved (a deletion or redaction is saved at once). */
  saveIdleMs?: number;
  /** How long a long job (build, load, save) runs before the event loop gets a turn (SLICE_MS). */
  sliceMs?: number;
  /**
   * Where `warm` puts the load: the backend's idle queue (spaces/idle-warm.ts), so it never runs while a
   * space opens. Without it, a timer of `warm`'s delay.
   */
  idle?: (load: () => Promise<unknown>) => void;
  /**
   * The first build's progress (documents indexed of total), after every conversation that moves it by a
   * whole percent: from 0 to total, which it always reaches. Only the build (or load) on first need
   * reports: the few documents of a later change would only be noise.
   */
  onProgress?: (progress: IndexProgress) => void;
  warn?: (message: string, fields?: Record<string, unknown>) => void;
}

export class RecallIndex {
  /** The index in SHARDS parts by conversation, each saved on its own: a change rewrites one sixteenth. */
  private readonly shards: MiniSearch<Doc>[] = Array.from(
    { length: SHARDS },
    () => new MiniSearch<Doc>(OPTIONS),
  );
  private readonly docs = new Map<string, Indexed>();
  private readonly dirty = new Set<string>();
  private opened: Promise<void> | null = null;
  private batch: NodeJS.Timeout | null = null;
  private saveTimer: NodeJS.Timeout | null = null;
  private saving: Promise<void> = Promise.resolve();
  /**
   * Whatever changes the shards or reads them across a pause (following changes, writing a shard) runs
   * here, one at a time: a build that yields mid-conversation or a save that yields mid-shard never
   * interleaves with another change.
   */
  private exclusive: Promise<unknown> = Promise.resolve();
  private following = 0;
  /** Shards changed since they were saved. */
  private readonly unsaved = new Set<number>();
  private closed = false;
  private warming = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly source: RecallSource,
    /** The folder of the index's files (conversations/.recall-index). */
    readonly dir: string,
    private readonly options: RecallIndexOptions = {},
  ) {
    this.unsubscribe = source.onChange((id) => this.touch(id));
  }

  /** Loads the saved index (or builds it) and brings it in line with the conversations; once. */
  open(): Promise<void> {
    this.opened ??= this.load();
    return this.opened;
  }

  private async load(): Promise<void> {
    await this.source.init();
    await removeLeftovers(this.dir);
    const slicer = new Slicer(this.options.sliceMs);
    const live = new Set<string>();
    for (let i = 0; i < SHARDS; i++) {
      for (const [id, [key, docs]] of Object.entries(await this.loadShard(i, slicer)))
        this.docs.set(id, { key, hashes: new Map(docs) });
    }
    for (const head of this.source.heads()) {
      live.add(head.id);
      if (this.docs.get(head.id)?.key !== conversationKey(head)) this.dirty.add(head.id);
    }
    for (const id of this.docs.keys()) if (!live.has(id)) this.dirty.add(id);
    await this.follow(this.options.onProgress);
  }

  /**
   * Each conversation's share of a build: its messages and its title (one for a conversation gone),
   * from the heads, so planning the build reads no body.
   */
  private weights(ids: readonly string[]): Map<string, number> {
    const messages = new Map<string, number>();
    for (const head of this.source.heads()) messages.set(head.id, head.messages);
    return new Map(ids.map((id) => [id, (messages.get(id) ?? 0) + 1]));
  }

  /** One shard from its file, or empty (to be rebuilt) when the file is missing or cannot be trusted. */
  private async loadShard(i: number, slicer: Slicer): Promise<Manifest> {
    const { data, problem } = await readShard(shardFile(this.dir, i), OPTIONS, slicer);
    if (problem) this.options.warn?.('recall index rebuilt', { shard: i, reason: problem });
    if (!data) {
      if (problem) this.unsaved.add(i);
      return {};
    }
    const { mini, manifest } = data;
    const entries = Object.entries(manifest);
    const listed = entries.reduce((sum, [, e]) => sum + (Array.isArray(e?.[1]) ? e[1].length : 0), 0);
    const consistent =
      listed === mini.documentCount &&
      entries.every(
        ([id, e]) =>
          shardOf(id) === i &&
          Array.isArray(e) &&
          typeof e[0] === 'string' &&
          Array.isArray(e[1]) &&
          e[1].every((d) => Array.isArray(d) && mini.has(d[0])),
      );
    if (!consistent) {
      // Documents nobody would ever take out, or lists of ones that are not there: start it over.
      this.options.warn?.('recall index rebuilt', { shard: i, reason: 'manifest' });
      this.unsaved.add(i);
      return {};
    }
    this.shards[i] = mini;
    return manifest;
  }

  /** Loads the index a little after start, off the path of the window's first requests. */
  warm(delayMs = 2_000): void {
    if (this.opened || this.warming) return;
    this.warming = true;
    const load = async (): Promise<void> => {
      if (this.closed) return;
      await this.open().catch((error: unknown) => this.options.warn?.('recall index not loaded', { error }));
    };
    if (this.options.idle) this.options.idle(load);
    else setTimeout(() => void load(), delayMs).unref();
  }

  private touch(id: string): void {
    if (this.closed) return;
    this.dirty.add(id);
    if (!this.opened || this.batch) return;
    this.batch = setTimeout(() => {
      this.batch = null;
      void this.follow().catch((error: unknown) =>
        this.options.warn?.('recall index update failed', { error }),
      );
    }, this.options.batchMs ?? 250);
    this.batch.unref();
  }

  /** Runs `job` when nothing else changes the shards, and nothing else until it is done. */
  private alone<T>(job: () => Promise<T>): Promise<T> {
    const run = this.exclusive.then(job, job);
    this.exclusive = run.catch(() => undefined);
    return run;
  }

  /** Applies every pending change, in slices (the first build is 200,000 documents). */
  private follow(report?: (progress: IndexProgress) => void): Promise<void> {
    this.following++;
    return this.alone(async () => {
      try {
        const slicer = new Slicer(this.options.sliceMs);
        let removed = false;
        const ids = [...this.dirty];
        // Each conversation's share as planned (it may grow meanwhile), so the count ends at total.
        const shares = report ? this.weights(ids) : new Map<string, number>();
        let total = 0;
        for (const share of shares.values()) total += share;
        let indexed = 0;
        let percent = -1;
        const tell = (): void => {
          const now = Math.floor((indexed * 100) / total);
          if (now === percent) return;
          percent = now;
          report?.({ indexed, total });
        };
        if (total > 0) tell();
        for (const id of ids) {
          this.dirty.delete(id);
          const state = await openOrNull(this.source, id);
          removed = (await this.reconcile(id, state, slicer)) || removed;
          if (total > 0) {
            indexed += shares.get(id) ?? 0;
            tell();
          }
        }
        if (removed) this.scheduleSave(0);
        else if (this.unsaved.size > 0) this.scheduleSave(this.options.saveIdleMs ?? 30_000);
      } finally {
        this.following--;
      }
    });
  }

  /** Brings one conversation's documents in line with its state. True when anything was taken out. */
  private async reconcile(id: string, state: ConversationState | null, slicer: Slicer): Promise<boolean> {
    const known = this.docs.get(id);
    const shard = shardOf(id);
    // Read before anything pauses: the documents are what the state held now.
    const redactions = this.source.redactions?.(id);
    const head = state ? conversationKey(headOf(state)) : undefined;
    const out = await reconcile(this.shards[shard]!, id, state, known, redactions, slicer);
    // Text changed in place (a redaction) may not change the cheap key, nor reach the file (a forget
    // whose file part failed): such a conversation is saved under a key no state has, so the next start
    // diffs it again against what its file holds then.
    // The store says so too: a redaction made before this index first saw the conversation leaves no
    // changed document to tell it by.
    const inPlace = out.inPlace || this.source.redactedInPlace?.(id) === true;
    const key = head === undefined ? undefined : head + (inPlace ? '|in-place' : '');
    if (key === undefined) this.docs.delete(id);
    else this.docs.set(id, { key, hashes: out.hashes, ...(out.seen ? { seen: out.seen } : {}) });
    if (out.removed || out.added || known?.key !== key) this.unsaved.add(shard);
    return out.removed;
  }

  private scheduleSave(delayMs: number): void {
    if (this.closed) return;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.save().catch((error: unknown) => this.options.warn?.('recall index not saved', { error }));
    }, delayMs);
    this.saveTimer.unref();
  }

  /** Follows every pending change at once (search, tests, a forget that must be done before it answers). */
  async settled(): Promise<void> {
    await this.open();
    if (this.batch) clearTimeout(this.batch);
    this.batch = null;
    // Nothing pending and nothing under way: a search need not wait for a save writing its shards.
    if (this.dirty.size === 0 && this.following === 0) return;
    await this.follow();
  }

  /** Settles and writes every changed shard (only what the conversations hold now goes in the files). */
  async save(): Promise<void> {
    const run = async (): Promise<void> => {
      if (!this.opened) return;
      await this.settled();
      for (const i of [...this.unsaved].sort((a, b) => a - b)) {
        await this.alone(async () => {
          const manifest: Manifest = {};
          for (const [id, { key, hashes }] of this.docs)
            if (shardOf(id) === i) manifest[id] = [key, [...hashes]];
          this.unsaved.delete(i);
          try {
            await writeShard(
              shardFile(this.dir, i),
              this.shards[i]!,
              manifest,
              new Slicer(this.options.sliceMs),
            );
          } catch (error) {
            this.unsaved.add(i);
            throw error;
          }
        });
      }
    };
    this.saving = this.saving.then(run, run);
    return this.saving;
  }

  async search(query: string, options: RecallQuery = {}): Promise<{ hits: RecallHit[]; more: boolean }> {
    await this.settled();
    return searchShards(this.shards, this.source, query, options);
  }

  /** Documents in the index now (tests and the benchmark). */
  get size(): number {
    return this.shards.reduce((sum, mini) => sum + mini.documentCount, 0);
  }

  /**
   * The ids of the documents the index itself holds `word` in, as it has them now: not checked against
   * the store as a search's hits are, so a stale document shows here (tests).
   */
  holding(word: string): string[] {
    const t = term(word);
    if (t === null) return [];
    const ids = this.shards.flatMap((mini) => mini.search(t).map((r) => String(r.id)));
    return ids.sort();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.batch) clearTimeout(this.batch);
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.batch = this.saveTimer = null;
    this.unsubscribe();
    this.closed = true;
    if (this.opened) await this.save();
  }
}
