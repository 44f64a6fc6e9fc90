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
import type { MessageRecord } from '../conversations/records.js';
import type { ConversationState } from '../conversations/state.js';
import {
  type Manifest,
  SHARDS,
  readIndex,
  removeLeftovers,
  shardFile,
  shardOf,
  textHash,
  writeIndex,
} from './persist.js';
import { type Candidate, type Stored, topMatches } from './top.js';
import { hasPhrases, matchRanges, messageText, parseQuery, snippet, term, tokenize } from './text.js';

/**
 * The conversation store as the index sees it: every conversation's head (no body is read to tell
 * whether saved documents are current), and a body read only when its documents must be rebuilt or a hit
 * checked.
 */
export interface RecallSource {
  init(): Promise<void>;
  heads(): Iterable<ConversationHead>;
  has(id: string): boolean;
  open(id: string): Promise<ConversationState>;
  onChange(listener: (id: string) => void): () => void;
}

interface Doc {
  id: string;
  text: string;
  /** Conversation id, the message's time, and t(itle) / u(ser) / a(ssistant). */
  c: string;
  at: string;
  k: 't' | 'u' | 'a';
}

export interface RecallHit {
  conversationId: string;
  title: string;
  /** Absent for a match in the title. */
  messageId?: string;
  role?: 'user' | 'assistant';
  at: string;
  snippet: string;
  ranges: [number, number][];
}

export interface RecallQuery {
  limit?: number;
  /** ISO times: only messages at or after / before. */
  after?: string;
  before?: string;
  /** The conversation asking (the model's own), never searched. */
  exclude?: string;
  /** Title matches too (the sidebar), not only messages. */
  titles?: boolean;
  /** The last word also as a prefix (typing in the sidebar). */
  prefix?: boolean;
  /** Longest snippet (SNIPPET_CHARS by default). */
  snippetChars?: number;
}

const OPTIONS: Options<Doc> = {
  fields: ['text'],
  storeFields: ['c', 'at', 'k'],
  tokenize,
  processTerm: (t) => term(t),
  // The query's terms arrive already folded and stemmed (parseQuery), one per word.
  searchOptions: { tokenize: (s) => s.split(' '), processTerm: (t) => t },
  autoVacuum: { batchSize: 2_000, batchWait: 5, minDirtCount: 50, minDirtFactor: 0.05 },
};

/** What decides, cheaply, whether a conversation's documents can be trusted as they were saved. */
export function conversationKey(h: ConversationHead): string {
  return `${h.rev ?? ''}|${h.messages}|${h.lastMessageId}|${h.updatedAt}|${h.title}|${h.memory}|${h.noSearch}`;
}

export function searchable(s: ConversationState | ConversationHead): boolean {
  return 'meta' in s ? s.meta.memory && s.meta.noSearch !== true : s.memory && !s.noSearch;
}

/** The state, or null when the conversation is gone (deleted meanwhile) or cannot be read now. */
const openOrNull = (source: RecallSource, id: string): Promise<ConversationState | null> =>
  source.has(id) ? source.open(id).catch(() => null) : Promise.resolve(null);

const titleDoc = (c: string): string => `${c}#t`;
const messageDoc = (c: string, m: string): string => `${c}/${m}`;

export interface RecallIndexOptions {
  /** How long changes gather before the index follows them. */
  batchMs?: number;
  /** How long without changes before an addition is saved (a deletion or redaction is saved at once). */
  saveIdleMs?: number;
  warn?: (message: string, fields?: Record<string, unknown>) => void;
}

export class RecallIndex {
  /** The index in SHARDS parts by conversation, each saved on its own: a change rewrites one sixteenth. */
  private readonly shards: MiniSearch<Doc>[] = Array.from(
    { length: SHARDS },
    () => new MiniSearch<Doc>(OPTIONS),
  );
  private readonly docs = new Map<string, { key: string; hashes: Map<string, string> }>();
  private readonly dirty = new Set<string>();
  private opened: Promise<void> | null = null;
  private batch: NodeJS.Timeout | null = null;
  private saveTimer: NodeJS.Timeout | null = null;
  private saving: Promise<void> = Promise.resolve();
  /** Shards changed since they were saved. */
  private readonly unsaved = new Set<number>();
  private closed = false;
  private warming = false;
  private readonly unsubscribe: () => void;
  private readonly byMessage = new WeakMap<
    ConversationState,
    { n: number; map: Map<string, MessageRecord> }
  >();

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
    const live = new Set<string>();
    for (let i = 0; i < SHARDS; i++) {
      for (const [id, [key, docs]] of Object.entries(await this.loadShard(i)))
        this.docs.set(id, { key, hashes: new Map(docs) });
    }
    for (const head of this.source.heads()) {
      live.add(head.id);
      if (this.docs.get(head.id)?.key !== conversationKey(head)) this.dirty.add(head.id);
    }
    for (const id of this.docs.keys()) if (!live.has(id)) this.dirty.add(id);
    await this.follow(true);
  }

  /** One shard from its file, or empty (to be rebuilt) when the file is missing or cannot be trusted. */
  private async loadShard(i: number): Promise<Manifest> {
    const { data, problem } = await readIndex(shardFile(this.dir, i));
    if (problem) this.options.warn?.('recall index rebuilt', { shard: i, reason: problem });
    if (!data) {
      if (problem) this.unsaved.add(i);
      return {};
    }
    let mini: MiniSearch<Doc>;
    try {
      // The synchronous load: a tenth of the batched one's time (which waits a timer every 1,000
      // entries); a shard is a sixteenth of the index, and this runs once, a moment after start.
      mini = MiniSearch.loadJS<Doc>(data.index, OPTIONS);
    } catch {
      this.options.warn?.('recall index rebuilt', { shard: i, reason: 'corrupt' });
      this.unsaved.add(i);
      return {};
    }
    const entries = Object.entries(data.manifest);
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
    return data.manifest;
  }

  /** Loads the index a little after start, off the path of the window's first requests. */
  warm(delayMs = 2_000): void {
    if (this.opened || this.warming) return;
    this.warming = true;
    setTimeout(
      () =>
        !this.closed &&
        void this.open().catch((error: unknown) => this.options.warn?.('recall index not loaded', { error })),
      delayMs,
    ).unref();
  }

  private touch(id: string): void {
    if (this.closed) return;
    this.dirty.add(id);
    if (!this.opened || this.batch) return;
    this.batch = setTimeout(() => {
      this.batch = null;
      void this.follow(false).catch((error: unknown) =>
        this.options.warn?.('recall index update failed', { error }),
      );
    }, this.options.batchMs ?? 250);
    this.batch.unref();
  }

  /** Applies every pending change; yields now and then when many are pending (the first build). */
  private async follow(yielding: boolean): Promise<void> {
    let removed = false;
    let done = 0;
    for (const id of [...this.dirty]) {
      this.dirty.delete(id);
      const state = await openOrNull(this.source, id);
      removed = this.reconcile(id, state) || removed;
      if (yielding && ++done % 25 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    if (removed) this.scheduleSave(0);
    else if (this.unsaved.size > 0) this.scheduleSave(this.options.saveIdleMs ?? 30_000);
  }

  /** Brings one conversation's documents in line with its state. True when anything was taken out. */
  private reconcile(id: string, state: ConversationState | null): boolean {
    const known = this.docs.get(id);
    const shard = shardOf(id);
    const mini = this.shards[shard]!;
    const wanted = new Map<string, { doc: Doc; hash: string }>();
    if (state && searchable(state)) {
      if (state.title)
        wanted.set(titleDoc(id), this.doc(titleDoc(id), id, state.title, state.meta.createdAt, 't'));
      for (const m of state.messages) {
        const text = messageText(m);
        if (text)
          wanted.set(
            messageDoc(id, m.id),
            this.doc(messageDoc(id, m.id), id, text, m.at, m.kind === 'user' ? 'u' : 'a'),
          );
      }
    }
    let removed = false;
    const hashes = new Map<string, string>();
    for (const [docId, hash] of known?.hashes ?? []) {
      const next = wanted.get(docId);
      if (next?.hash === hash) {
        hashes.set(docId, hash);
        wanted.delete(docId);
        continue;
      }
      if (mini.has(docId)) mini.discard(docId);
      removed = true;
    }
    for (const [docId, { doc, hash }] of wanted) {
      if (mini.has(docId)) mini.discard(docId);
      mini.add(doc);
      hashes.set(docId, hash);
    }
    const key = state ? conversationKey(headOf(state)) : undefined;
    if (key !== undefined) this.docs.set(id, { key, hashes });
    else this.docs.delete(id);
    if (removed || wanted.size > 0 || known?.key !== key) this.unsaved.add(shard);
    return removed;
  }

  private doc(id: string, c: string, text: string, at: string, k: Doc['k']): { doc: Doc; hash: string } {
    return { doc: { id, c, text, at, k }, hash: textHash(text) };
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
    await this.follow(false);
  }

  /** Settles, cleans discarded documents out of the index and writes it, so the file holds nothing else. */
  async save(): Promise<void> {
    const run = async (): Promise<void> => {
      if (!this.opened) return;
      await this.settled();
      for (const i of [...this.unsaved].sort((a, b) => a - b)) {
        const mini = this.shards[i]!;
        if (mini.dirtCount > 0) await mini.vacuum({ batchSize: 5_000, batchWait: 0 });
        const manifest: Manifest = {};
        for (const [id, { key, hashes }] of this.docs)
          if (shardOf(id) === i) manifest[id] = [key, [...hashes]];
        this.unsaved.delete(i);
        try {
          await writeIndex(shardFile(this.dir, i), { manifest, index: mini.toJSON() });
        } catch (error) {
          this.unsaved.add(i);
          throw error;
        }
      }
    };
    this.saving = this.saving.then(run, run);
    return this.saving;
  }

  async search(query: string, options: RecallQuery = {}): Promise<{ hits: RecallHit[]; more: boolean }> {
    await this.settled();
    const { terms, phrases } = parseQuery(query);
    const limit = options.limit ?? 10;
    if (terms.length === 0) return { hits: [], more: false };
    const accept = (r: Stored): boolean =>
      r.c !== options.exclude &&
      (options.titles === true || r.k !== 't') &&
      (options.after === undefined || r.at >= options.after) &&
      (options.before === undefined || r.at < options.before);
    const prefix = (t: string, i: number, all: readonly string[]): boolean =>
      options.prefix === true && i === all.length - 1 && t.length >= 2;
    const q = terms.join(' ');
    // A few more candidates than asked for: a candidate the live conversation no longer holds (a stale
    // index) is skipped; when too many were, look further.
    for (let n = limit * 2 + 16; ; n *= 4) {
      let found = topMatches(this.shards, q, { combineWith: 'AND', prefix, accept, n });
      if (found.total === 0 && terms.length > 1 && phrases.length === 0)
        found = topMatches(this.shards, q, { combineWith: 'OR', prefix, accept, n });
      const hits: RecallHit[] = [];
      let i = 0;
      for (; i < found.top.length && hits.length < limit; i++) {
        const hit = await this.verify(found.top[i]!, terms, phrases, options);
        if (hit) hits.push(hit);
      }
      if (hits.length >= limit || found.total <= n) return { hits, more: i < found.total };
    }
  }

  /** The hit as the live conversation holds it now, or null when it no longer does. */
  private async verify(
    r: Candidate,
    terms: string[],
    phrases: string[][],
    options: RecallQuery,
  ): Promise<RecallHit | null> {
    const c = r.c;
    const state = await openOrNull(this.source, c);
    if (!state || !searchable(state)) return null;
    const id = String(r.id);
    let text: string | null;
    let message: MessageRecord | undefined;
    if (r.k === 't') text = state.title || null;
    else {
      message = this.messages(state).get(id.slice(c.length + 1));
      text = message ? messageText(message) : null;
    }
    if (!text || !hasPhrases(text, phrases)) return null;
    const ranges = matchRanges(text, terms, options.prefix === true);
    if (ranges.length === 0) return null;
    const snip = snippet(text, ranges, options.snippetChars);
    return {
      conversationId: c,
      title: state.title,
      ...(message ? { messageId: message.id, role: message.role } : {}),
      at: message?.at ?? state.meta.createdAt,
      snippet: snip.text,
      ranges: snip.ranges,
    };
  }

  private messages(state: ConversationState): Map<string, MessageRecord> {
    const known = this.byMessage.get(state);
    if (known && known.n === state.messages.length) return known.map;
    const map = new Map(state.messages.map((m) => [m.id, m]));
    this.byMessage.set(state, { n: state.messages.length, map });
    return map;
  }

  /** Documents in the index now (tests and the benchmark). */
  get size(): number {
    return this.shards.reduce((sum, mini) => sum + mini.documentCount, 0);
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
