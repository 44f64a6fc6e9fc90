// The conversation store's view of its folder, kept in line with the disk: every conversation's head,
// the bodies read so far, where our view of each file ends, and the catch-up with what other processes
// wrote (store.ts has the operations on conversations). A start reads the heads from the summary cache
// (summary-cache.ts), not the bodies; a body is read when first needed (opened, written to, searched)
// and then kept.
//
// Several processes may open one data folder (the app and a CLI run), so every write to an existing
// conversation happens under its file lock (lock.ts), after catching up with what others appended. The
// catch-up is a stat: the file's size against where our own writes left it.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ConversationSummary } from '../../../shared/channels/conversations.js';
import { ContractError } from '../../../shared/errors.js';
import {
  type Body,
  type Folder,
  type FolderStamp,
  type Listing,
  type LoadStats,
  type Tail,
  checkFolder,
  covers,
  listFolder,
  readBody,
  readBodySync,
  vouchListing,
} from './folder-load.js';
import { type ConversationHead, headOf, summaryOf } from './heads.js';
import { JsonlWriter, readFirstJsonl, readJsonl, readJsonlFrom } from './jsonl.js';
import { type FileLock, KeyedSerial, lockFile } from './lock.js';
import { markRead, markWritten } from './page-marks.js';
import { PageSaver } from './page-saver.js';
import { PageViews } from './page-view.js';
import type { Page } from './pages.js';
import type { ConversationRecord, MetaRecord } from './records.js';
import { type ConversationState, applyRecord, rebuild } from './state.js';
import { Trash } from './trash.js';
import { byNewest } from './summaries.js';
import { SummaryBook } from './summary-book.js';
import { busy, gone, notFound } from './store-errors.js';
import { dropCache, sameStamp } from './summary-cache.js';
import { TemporaryChats, eraseKeptTemporary } from './temporary.js';

/**
 * A new conversation and a chat's messages (the user's, the model's replies, tool results, run events) are
 * written at once and synced within this time: against a fast endpoint many turns share one disk sync (on the test machine a
 * sync costs about a tenth of a zero-latency turn), while against the real API, whose turns take seconds,
 * each message still gets its own. A memory write and the end of a run sync at once; so do the other
 * changes (rename, pin, truncate), which are rare and awaited by the user.
 */
export const CHAT_SYNC_MS = 50;

/** How long a change waits for another process's short change; a run there holds the lock far longer. */
export const LOCK_WAIT_MS = 1_500;

/** The latest a start from the summary cache checks the heads against the files, when nothing asked. */
export const CHECK_WITHIN_MS = 1_000;

/** How a store came by its conversations: heads from the cache, files replayed at start, bodies read since. */
export interface StoreStats extends LoadStats {
  opened: number;
}

export class StoreBase {
  /** The bodies read so far (opened, written to, searched); every conversation has a head in `book`. */
  protected readonly byId = new Map<string, ConversationState>();
  protected readonly book: SummaryBook;
  protected readonly opening = new Map<string, Promise<ConversationState>>();
  protected readonly counts: StoreStats = { cached: 0, replayed: 0, opened: 0 };
  protected readonly writers = new Map<string, JsonlWriter>();
  protected readonly tails = new Map<string, Tail>();
  protected readonly leases = new Map<string, FileLock>();
  protected readonly serial = new KeyedSerial();
  protected readonly listeners = new Set<(id: string) => void>();
  /** Conversations without memory: never in the folder, the book or the listeners' view (temporary.ts). */
  protected readonly temporary = new TemporaryChats();
  /** How many temporary conversations an earlier version had kept on disk this start erased. */
  erasedAtStart = 0;
  protected loaded: Promise<void> | null = null;
  /** The conversations this process deleted, until their Undo runs out (trash.ts). */
  protected readonly trash: Trash;
  /** The page sidecars: written when the book vouches for a state, read by an open of one not loaded. */
  protected readonly pageSaver: PageSaver;
  private readonly views: PageViews;

  private readonly onErased: ((count: number) => void) | undefined;

  /** A listing of the folder taken ahead of the first start (createCore's prefetch), used once. */
  private prefetched: Promise<Listing> | undefined;

  constructor(
    readonly dir: string,
    options: {
      warn?: (message: string, fields?: Record<string, unknown>) => void;
      listing?: Promise<Listing> | undefined;
      /** The context meter's figures for a state, saved in its page sidecar (agent/context-snapshot.ts). */
      context?: (state: ConversationState) => unknown;
      /** Told how many temporary conversations kept by an earlier version the start erased (when any). */
      erased?: (count: number) => void;
    } = {},
  ) {
    this.prefetched = options.listing;
    this.onErased = options.erased;
    this.trash = new Trash(dir);
    const warn = options.warn;
    const unsaved = (error: unknown) => warn?.('conversation page index not saved', { error });
    this.pageSaver = new PageSaver(dir, unsaved, options.context);
    this.views = new PageViews(dir);
    this.book = new SummaryBook(
      dir,
      {
        state: (id) => this.byId.get(id),
        tail: (id) => this.tails.get(id),
        settled: (id) => {
          if (this.unwritten.has(id)) return false;
          const writer = this.writers.get(id);
          return !writer || (writer.allWritten && !writer.failure);
        },
        vouched: (id, state, stamp) => this.pageSaver.vouched(id, state, stamp),
      },
      (error) => options.warn?.('conversation summaries not saved', { error }),
    );
  }

  /** Reads every conversation's head once, checked against its file; later calls wait for the same load. */
  init(): Promise<void> {
    this.start();
    this.cue();
    return this.loaded!;
  }

  /**
   * The heads can be listed: at once from the summary cache when it names every file (each is still
   * being checked against its file's stat, and a change found is announced through onChange), otherwise
   * once the load is done. Only the list waits on this alone; everything else waits on init.
   */
  ready(): Promise<void> {
    this.start();
    return this.listed!;
  }

  private listed: Promise<void> | null = null;

  /** Lets the check of heads listed from the cache begin (idempotent). */
  protected cue: () => void = () => undefined;

  private start(): void {
    if (this.loaded) return;
    // Taken earlier, perhaps before files another process created since: the first list looks again
    // (store.ts's discover), and the check below finds every head the files no longer match.
    const listing = this.prefetched?.catch(() => listFolder(this.dir)) ?? listFolder(this.dir);
    this.prefetched = undefined;
    // What an ended process left in the trash is deleted for good before anything here is read; what a
    // live one may still undo is left to it (trash.ts).
    const emptied = this.trash.sweep().catch(() => undefined);
    const cued = new Promise<void>((resolve) => (this.cue = resolve));
    // Heads listed from the cache are checked once the first list is answered (a stat per file, a
    // thousand of them took longer than the rest of an app's start), or at once when anything else needs
    // the heads as the files hold them (init), or after CHECK_WITHIN_MS whatever happens.
    this.loaded = listing.then(async (l) => {
      await emptied;
      if (covers(l)) {
        setTimeout(this.cue, CHECK_WITHIN_MS).unref();
        await cued;
      }
      this.checking = true;
      const folder = await checkFolder(this.dir, l);
      this.erasedAtStart = await eraseKeptTemporary(this.dir, folder);
      // The summary cache holds their titles and first lines: gone now, written again without them.
      if (this.erasedAtStart > 0) {
        await dropCache(this.dir);
        this.onErased?.(this.erasedAtStart);
      }
      this.apply(folder);
      if (this.erasedAtStart > 0) this.book.changed();
      // The cache described the folder exactly: the next start may take its list for the names.
      vouchListing(this.dir, l, folder);
      // A cache written before its list had a row per line: written again, so the next start's first
      // list parses only its first rows.
      if (l.list && !l.read.cuttable()) this.book.changed();
    });
    this.listed = listing.then((l) => {
      this.listedAt = l.stamp;
      if (!covers(l)) return this.loaded!;
      // The saved list now, the heads once anything else needs them (the check, right after the list).
      // A vouched listing's list is the very one a check parsed: it is parsed here only when needed.
      if (l.from === 'vouched' || l.list)
        this.book.loadLater(l.from === 'vouched' ? null : l.ids, () => l.cache, {
          all: () => l.list ?? [],
          first: (n) => l.read.first(n),
        });
      else {
        // In the cache's order, which is the list's (saved newest first): its sort has nothing to do.
        const named = new Set(l.ids);
        this.book.load([...l.cache].filter(([id]) => named.has(id)));
      }
      this.early = true;
    });
    // Either one failing is reported by whoever awaits it.
    this.listed.catch(() => undefined);
  }

  /** The folder's stat before the start read its names (the first list's discover may need no other). */
  protected listedAt: FolderStamp | null = null;

  /** The heads were listed from the cache before being checked: what the check changes is announced. */
  private early = false;

  /** The check of the heads has begun (or there was nothing to list early). */
  private checking = false;

  private apply({ heads, bodies, stats }: Folder): void {
    for (const [id, { state, tail }] of bodies) {
      if (this.byId.has(id)) continue; // read synchronously meanwhile (store.get)
      this.byId.set(id, state);
      this.tails.set(id, tail);
    }
    if (this.early) {
      for (const id of this.book.diverged()) this.changed(id);
      for (const id of this.book.ids())
        if (!heads.has(id)) {
          this.book.delete(id);
          this.changed(id);
        }
      for (const [id, entry] of heads) {
        if (entry === this.book.entry(id)) continue;
        this.book.load([[id, entry]]);
        this.changed(id);
      }
    } else this.book.load(heads);
    Object.assign(this.counts, stats);
    // Files the cache did not describe were replayed: save their heads, so the next start need not.
    if (stats.replayed > 0) this.book.changed();
  }

  /** What the load read (tests and benchmarks: a start from the cache replays no file). */
  get stats(): Readonly<StoreStats> {
    return this.counts;
  }

  /**
   * The conversation's state, its body read from the file first if nobody needed it yet. Every path that
   * can wait should come through here (store.get reads a missing body synchronously).
   */
  open(id: string): Promise<ConversationState> {
    const known = this.byId.get(id) ?? this.temporary.get(id);
    if (known) return Promise.resolve(known);
    let opening = this.opening.get(id);
    if (!opening) {
      opening = (async () => {
        await this.init();
        if (this.byId.has(id)) return this.byId.get(id)!;
        if (!this.book.has(id)) throw notFound();
        // A page being read through the sidecar goes first (a window opening a conversation asks for its
        // context at the same time): its answer is sent before this replay takes the thread.
        const first = async () => {
          if (await this.views.settled(id)) await new Promise((resolve) => setImmediate(resolve));
        };
        await first();
        if (this.byId.has(id)) return this.byId.get(id)!;
        return this.took(id, await readBody(this.dir, id, first).catch(gone));
      })().finally(() => this.opening.delete(id));
      this.opening.set(id, opening);
    }
    return opening;
  }

  /** A body just read becomes the conversation's state (unless it was read another way meanwhile). */
  protected took(id: string, body: Body | undefined): ConversationState {
    const known = this.byId.get(id);
    if (known) return known;
    // Deleted or moved meanwhile (the head goes first), or no longer this conversation's file.
    if (!this.book.has(id)) throw notFound();
    if (!body) {
      this.book.delete(id);
      this.changed(id);
      throw notFound();
    }
    this.counts.opened += 1;
    this.views.drop(id);
    // Read afresh: its sidecar on disk may not be the one this process last wrote (written again soon).
    this.pageSaver.unsaved(id);
    const before = this.book.head(id);
    this.byId.set(id, body.state);
    this.tails.set(id, body.tail);
    const head = headOf(body.state);
    this.book.set(id, head, body.stamp);
    // Another process changed it since the head was read: the list shows what it holds now.
    if (before && JSON.stringify(before) !== JSON.stringify(head)) this.changed(id);
    return body.state;
  }

  /**
   * A page of a conversation not loaded in this process, read through its page sidecar (page-view.ts)
   * instead of replaying its file: the last one, or the one before a cursor such a page gave. Null when
   * that cannot be done (loaded already, no current sidecar, the file changed): then open it as usual.
   */
  async indexedPage(
    id: string,
    at: { last: true } | { before: string },
    limit: number,
  ): Promise<Page | null> {
    await this.init();
    if (this.byId.has(id)) return null;
    // Only the stat the list's head describes: then the head and the page tell of the same file.
    const stamp = this.book.entry(id)?.stamp;
    if (!stamp) return null;
    const page = await ('before' in at
      ? this.views.older(id, at.before, limit)
      : this.views.last(id, limit, stamp));
    // Read in meanwhile (store.get reads at once): its state is the one to show.
    if (!page || this.byId.has(id) || !sameStamp(this.book.entry(id)?.stamp ?? stamp, stamp)) return null;
    return page;
  }

  /** Pages served from sidecars (tests and benchmarks: a first open after a start replays nothing). */
  get indexedPages(): number {
    return this.views.served;
  }

  /** Called with the conversation's id after every change to it (its creation and deletion included). */
  onChange(listener: (id: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  protected changed(id: string): void {
    this.views.drop(id);
    this.book.changed();
    for (const listener of this.listeners) listener(id);
  }

  list(): ConversationSummary[] {
    // The check of an early list begins once this one is answered (the turn after it).
    if (this.early && !this.checking) setImmediate(this.cue);
    // Nothing read or changed since the start listed the folder: the list as the cache saved it.
    // A temporary conversation an earlier version kept is listed by no one, even before the check erases it.
    const saved = this.book.savedList();
    if (saved) return saved.filter((s) => s.memory !== false);
    return this.book
      .heads()
      .filter((h) => h.memory !== false)
      .map(summaryOf)
      .sort((a, b) => byNewest(a.updatedAt, b.updatedAt));
  }

  /**
   * The list's first `limit` conversations and whether more follow (a window's first list: what fills its
   * sidebar). Right after a start, from the cache's first rows alone: the rest is not even parsed.
   */
  firstPage(limit: number): { conversations: ConversationSummary[]; more: boolean } {
    if (this.early && !this.checking) setImmediate(this.cue);
    const first = this.book.savedFirst(limit);
    if (first) return { conversations: first.list.filter((s) => s.memory !== false), more: first.more };
    const list = this.list();
    return { conversations: list.slice(0, limit), more: list.length > limit };
  }

  /** Every conversation's head, open or not (the recall index, recent_conversations). */
  heads(): ConversationHead[] {
    return this.book.heads();
  }

  head(id: string): ConversationHead | undefined {
    return this.book.head(id);
  }

  /** The list's summary of one conversation (no body is read). */
  summary(id: string): ConversationSummary {
    const temporary = this.temporary.get(id);
    const head = temporary ? headOf(temporary) : this.book.head(id);
    if (!head) throw notFound();
    return summaryOf(head);
  }

  /** Every conversation's id. */
  ids(): string[] {
    return [...this.book.ids()];
  }

  /** Listed conversations and the temporary ones this process holds. */
  has(id: string): boolean {
    return this.book.has(id) || this.temporary.has(id);
  }

  /** A temporary conversation of this process (never on disk). */
  isTemporary(id: string): boolean {
    return this.temporary.has(id);
  }

  /**
   * Conversations whose live records a forget redacted in place in this process while their file still
   * holds more (a file part that failed is retried at the next start), which no head shows. An entry goes
   * when a later redaction reaches the file, or the conversation leaves this store.
   */
  protected readonly redactedHere = new Set<string>();

  /** Appends applied to the live state whose write still waits for the conversation's lock (appendQueued). */
  protected readonly unwritten = new Map<string, number>();

  /** True when `id`'s live text was redacted in place here (the recall index re-checks it at next start). */
  redactedInPlace(id: string): boolean {
    return this.redactedHere.has(id);
  }

  /** The state if its body was read already (nothing is read here). */
  peek(id: string): ConversationState | undefined {
    return this.byId.get(id) ?? this.temporary.get(id);
  }

  get(id: string): ConversationState {
    // Only well-formed ids are ever loaded or created, so an unknown or malformed one is simply not found.
    const state = this.byId.get(id) ?? this.temporary.get(id);
    if (state) return state;
    if (!this.book.has(id)) throw notFound();
    let body: Body | undefined;
    try {
      body = readBodySync(this.dir, id);
    } catch (error) {
      gone(error);
    }
    return this.took(id, body);
  }

  protected fileOf(id: string): string {
    return path.join(this.dir, `${id}.jsonl`);
  }

  protected writer(id: string): JsonlWriter {
    let writer = this.writers.get(id);
    if (!writer) {
      writer = new JsonlWriter(this.fileOf(id), {
        syncWithinMs: CHAT_SYNC_MS,
        onWrite: (bytes, records, lengths) => {
          const tail = this.tails.get(id);
          if (!tail) return;
          markWritten(records, lengths, tail.size);
          tail.size += bytes;
        },
      });
      this.writers.set(id, writer);
    }
    return writer;
  }

  /**
   * Runs `task` (a write) holding the conversation's lock: at once under our lease, otherwise taking the
   * lock for this change only, catching up first, and giving it back once the write is in the file.
   */
  protected async locked<T>(id: string, task: () => Promise<T>): Promise<T> {
    if (this.leases.has(id)) return task();
    return this.serial.run(id, async () => {
      if (this.leases.has(id)) return task();
      const lock = await lockFile(this.fileOf(id), { waitMs: LOCK_WAIT_MS });
      if (!lock) throw busy();
      try {
        await this.catchUp(id);
        const result = await task();
        await this.writers.get(id)?.flushed();
        return result;
      } finally {
        await lock.release();
      }
    });
  }

  /**
   * Under the lock: applies what other processes appended since our last write or catch-up (the file is
   * longer than we left it), or reloads a file that was replaced or cut. Returns the records applied.
   */
  protected async catchUp(id: string, locked = true): Promise<number> {
    const state = this.byId.get(id);
    const tail = this.tails.get(id);
    if (!state || !tail) return 0;
    const file = this.fileOf(id);
    // Our own queued lines count once written (their sync can follow later).
    await this.writers.get(id)?.written();
    let stat;
    try {
      stat = await fs.stat(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.book.delete(id);
      this.byId.delete(id);
      this.tails.delete(id);
      this.redactedHere.delete(id);
      await this.writers.get(id)?.close();
      this.writers.delete(id);
      this.changed(id);
      throw new ContractError('not_found', 'That conversation was deleted in another window.');
    }
    // A writer the disk refused (full) appends nothing more, and the file is a prefix of our state: start
    // again from the file, with a new writer (what it lost was reported as not saved), so the conversation
    // works again once there is space, without a restart.
    const failed = this.writers.get(id);
    if (failed?.failure) {
      this.writers.delete(id);
      await failed.close().catch(() => undefined);
    }
    // The same file only if the inode, and the first line's rev, are ours: a replaced file's inode number
    // may be reused at once by the next replacement.
    const same =
      !failed?.failure &&
      stat.ino === tail.ino &&
      stat.size >= tail.size &&
      (await readFirstJsonl<MetaRecord>(file))?.rev === state.meta.rev;
    if (same && stat.size === tail.size) return 0;
    if (same) {
      const read = await readJsonlFrom<ConversationRecord>(file, tail.size);
      // A torn line past the last complete one: under the lock, its writer died holding it; without the
      // lock it may be a write in progress, and is left alone.
      if (read.torn && locked) await fs.truncate(file, tail.size + read.bytes);
      markRead(read.records, read.starts, tail.size);
      tail.size += read.bytes;
      for (const record of read.records) applyRecord(state, record);
      if (read.records.length > 0) this.changed(id);
      return read.records.length;
    }
    // Replaced (rewritten) or shorter than we left it: start over from the file.
    const { records, bytes, starts } = await readJsonl<ConversationRecord>(file, { repair: locked });
    markRead(records, starts);
    const rebuilt = rebuild(records);
    if (!rebuilt || rebuilt.meta.id !== id) {
      throw new ContractError(
        'unavailable',
        'This conversation file was changed outside Mnemo and cannot be read.',
      );
    }
    await this.writers.get(id)?.reopen();
    Object.assign(state, rebuilt);
    this.tails.set(id, { ino: stat.ino, size: bytes });
    this.changed(id);
    return records.length;
  }
}
