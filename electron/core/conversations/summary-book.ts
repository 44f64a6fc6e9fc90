// The store's heads, one per conversation of its folder, and their saving to the summary cache: batched
// (SAVE_MS after the first change, never on the streaming path), at once and synced after a deletion or
// a forget (the cache must not keep a title that is gone), and at close. A head of an open conversation
// is derived from its live state; it is saved only when the file holds exactly that state (every write of
// ours is in it, nobody else's is), with the file's stat then. Anything else is left out of the cache
// and simply replayed at the next start.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ConversationSummary } from '../../../shared/channels/conversations.js';
import { type ConversationHead, headOf, summaryOf } from './heads.js';
import type { Tail } from './folder-load.js';
import type { ConversationState } from './state.js';
import { type CachedHead, type FileStamp, sameStamp, stampOf, writeCache } from './summary-cache.js';
import type { FirstRows } from './summary-read.js';

/** The list a start read from the cache: parsed when first needed, its first rows alone if that is all. */
export interface SavedList {
  all(): ConversationSummary[];
  first(n: number): FirstRows | null;
}

const SAVE_MS = 2_000;

/** What the book needs of the store to vouch for an open conversation's head. */
export interface LiveView {
  state(id: string): ConversationState | undefined;
  tail(id: string): Tail | undefined;
  /** Every record applied to the state is written to the file (none queued, none refused). */
  settled(id: string): boolean;
  /** Told, in the same tick, that the state is exactly what the file with `stamp` holds (the page sidecar). */
  vouched?(id: string, state: ConversationState, stamp: FileStamp): void;
}

export class SummaryBook {
  private readonly entries = new Map<string, { head: ConversationHead; stamp?: FileStamp }>();
  private timer: NodeJS.Timeout | null = null;
  /** Changed since the last save began (a start that found the cache current writes nothing). */
  private dirty = false;
  private saving: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly live: LiveView,
    private readonly warn?: (error: unknown) => void,
  ) {}

  ids(): IterableIterator<string> {
    this.settle();
    return this.entries.keys();
  }

  has(id: string): boolean {
    return this.later ? this.named(this.later).has(id) : this.entries.has(id);
  }

  get size(): number {
    this.settle();
    return this.entries.size;
  }

  /** What the book holds for a conversation (the head read or last set, and its file's stamp then). */
  entry(id: string): { head: ConversationHead; stamp?: FileStamp } | undefined {
    this.settle();
    return this.entries.get(id);
  }

  /** The head as it is now: from the live state when the conversation is open. */
  head(id: string): ConversationHead | undefined {
    this.settle();
    const state = this.live.state(id);
    return state ? headOf(state) : this.entries.get(id)?.head;
  }

  heads(): ConversationHead[] {
    this.settle();
    return [...this.entries.keys()].map((id) => this.head(id)!);
  }

  /** The heads a start found (nothing to save for them). */
  load(heads: Iterable<[string, { head: ConversationHead; stamp?: FileStamp }]>): void {
    this.settle();
    for (const [id, entry] of heads) this.entries.set(id, entry);
  }

  /**
   * The heads a start found, taken when first needed: until then the book answers `has` from `ids` and
   * the list with `saved` (the cache's, newest first), which is all a start's first list needs. `ids` is
   * null when the list names exactly the folder's files (a listing the folder's stamp vouched for): then
   * nothing is left out of it, its first rows can be shown alone, and the set of its ids is made only if
   * something asks.
   */
  loadLater(ids: Iterable<string> | null, heads: () => Map<string, CachedHead>, saved: SavedList): void {
    this.settle();
    const named = ids && new Set(ids);
    this.later = named
      ? {
          ids: named,
          heads,
          saved: { all: () => saved.all().filter((s) => named.has(s.id)), first: () => null },
        }
      : { ids: null, heads, saved };
  }

  private named(later: NonNullable<SummaryBook['later']>): Set<string> {
    return (later.ids ??= new Set(this.listOf(later).map((s) => s.id)));
  }

  private listOf(later: NonNullable<SummaryBook['later']>): ConversationSummary[] {
    return (later.list ??= later.saved.all());
  }

  /** The list as the cache saved it, while no head was needed yet (a start's first list); else undefined. */
  savedList(): ConversationSummary[] | undefined {
    return this.later ? this.listOf(this.later) : undefined;
  }

  /** savedList's first `n` rows, and whether more follow, parsing no more of it than that if it can. */
  savedFirst(n: number): FirstRows | undefined {
    const later = this.later;
    if (!later) return undefined;
    if (!later.list) {
      const first = later.saved.first(n);
      if (first) return first;
    }
    const list = this.listOf(later);
    return { list: list.slice(0, n), more: list.length > n };
  }

  /** Conversations the saved list showed otherwise than their heads (a hand-edited cache): to announce. */
  diverged(): string[] {
    this.settle();
    return this.differs.splice(0);
  }

  set(id: string, head: ConversationHead, stamp?: FileStamp): void {
    this.settle();
    this.entries.set(id, stamp ? { head, stamp } : { head });
    this.changed();
  }

  delete(id: string): void {
    this.settle();
    if (this.entries.delete(id)) this.changed();
  }

  private later: {
    ids: Set<string> | null;
    heads: () => Map<string, CachedHead>;
    saved: SavedList;
    list?: ConversationSummary[];
  } | null = null;

  private readonly differs: string[] = [];

  private settle(): void {
    if (!this.later) return;
    const ids = this.named(this.later);
    const list = this.listOf(this.later);
    const { heads } = this.later;
    this.later = null;
    const shown = new Map(list.map((s) => [s.id, s]));
    for (const [id, entry] of heads()) {
      if (!ids.has(id)) continue;
      this.entries.set(id, entry);
      const s = shown.get(id);
      if (!s || JSON.stringify(s) !== JSON.stringify(summaryOf(entry.head))) this.differs.push(id);
    }
    // Listed but without a head: the check replays its file (and announces it).
  }

  /** Something changed: save within SAVE_MS. */
  changed(): void {
    this.dirty = true;
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.save().catch((error: unknown) => this.warn?.(error));
    }, SAVE_MS);
    this.timer.unref();
  }

  /** Writes the cache now (queued behind a save in progress). */
  save(durable = false): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const run = async (): Promise<void> => {
      if (!this.dirty && !durable) return;
      this.settle();
      this.dirty = false;
      let later = false;
      const out: CachedHead[] = [];
      for (const [id, entry] of this.entries) {
        const state = this.live.state(id);
        if (!state) {
          if (entry.stamp) out.push({ head: entry.head, stamp: entry.stamp });
          continue;
        }
        const vouched = await this.vouch(id, state, entry.stamp);
        // Writes still on their way: saved by the next save (a run's last write is followed by none).
        if (vouched === 'later') later = true;
        else if (vouched) {
          entry.stamp = vouched.stamp;
          out.push(vouched);
        }
      }
      try {
        await writeCache(this.dir, out, durable);
      } catch (error) {
        this.dirty = true;
        throw error;
      }
      if (later) this.changed();
    };
    this.saving = this.saving.then(run, run);
    return this.saving;
  }

  private async vouch(
    id: string,
    state: ConversationState,
    last?: FileStamp,
  ): Promise<CachedHead | 'later' | null> {
    const tail = this.live.tail(id);
    if (!tail || !this.live.settled(id)) return 'later';
    // The head as the file holds it now, taken before the stat: records applied while the stat is under
    // way (the streaming path applies at once and writes a moment later) are not in the file yet, and a
    // head saved with them under the file's stamp would outlive a SIGKILL that kept them from it.
    const head = headOf(state);
    const { ino, size } = tail;
    const stat = await fs.stat(path.join(this.dir, `${id}.jsonl`)).catch(() => null);
    if (!stat) return null;
    if (!this.live.settled(id) || this.live.tail(id)?.size !== size) return 'later';
    const stamp = stampOf(stat);
    // Untouched since it was read (a torn last line included, which the replay left out too).
    if (!(last && sameStamp(last, stamp))) {
      if (stat.ino !== ino || stat.size !== size) return null;
      // Our writes only ever make a file longer (a rewrite makes a new one): the same length at another
      // time is someone else's edit in place, which the live state does not hold.
      if (last && last.size === stamp.size) return null;
    }
    this.live.vouched?.(id, state, stamp);
    return { head, stamp };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.save().catch((error: unknown) => this.warn?.(error));
  }
}
