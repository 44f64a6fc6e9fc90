// Conversations on disk: one append-only JSONL file per conversation in DATA_DIR/conversations/. Every
// change is written to the file first and then applied to the in-memory state, the same way a replay of
// the file rebuilds it. What the store knows of its folder, and how it stays in line with the disk and
// with other processes, is in store-base.ts; here are the operations on conversations.
//
// A run holds its conversation's file lock for its whole length (a lease, taken once, so the loop's
// writes pay nothing for it); any other change takes it for that change.
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ContractError } from '../../../shared/errors.js';
import { ID, type Tail, readBody, unchangedSince } from './folder-load.js';
import { followFolder, unknownFiles } from './folder-watch.js';
import { headOf } from './heads.js';
import { HeldRedactions, RedactionMarks } from './held-redactions.js';
import { readJsonl } from './jsonl.js';
import { lockFile } from './lock.js';
import { markWritten, unmark } from './page-marks.js';
import type { ConversationRecord, MetaRecord } from './records.js';
import { type ConversationState, applyRecord, emptyState, rebuild } from './state.js';
import { CHAT_SYNC_MS, LOCK_WAIT_MS, type StoreStats, StoreBase } from './store-base.js';
import { busy, notFound } from './store-errors.js';
import { UNTITLED, byNewest, summarize, titleOf } from './summaries.js';
import { dropCache } from './summary-cache.js';
import { exists, goneForGood, markTrashed, unmarkTrashed, withTrashLock } from './trash.js';

export { CHAT_SYNC_MS, UNTITLED, byNewest, summarize, titleOf, type StoreStats };

/** A run's hold on a conversation, across processes; see ConversationStore.lease. */
export interface ConversationLease {
  /** Records another process had appended, applied to our state when the lease was taken. */
  readonly caughtUp: number;
  /** Waits for our writes to be in the file, then gives the lock back (idempotent). */
  release(): Promise<void>;
}

export class ConversationStore extends StoreBase {
  private readonly held = new HeldRedactions();
  private readonly marks = new RedactionMarks();
  private unwatch: (() => void) | undefined;

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
    if (!options.memory) return this.temporary.create(meta, records);
    // A new id: no other process can know this file yet, so the first write needs no lock.
    const tail: Tail = { ino: undefined, size: 0 };
    this.tails.set(meta.id, tail);
    await this.writer(meta.id).write([meta, ...records]);
    // Which file we wrote: a later rewrite elsewhere replaces it, and our catch-up must see that.
    tail.ino = (await fs.stat(this.fileOf(meta.id))).ino;
    const state = emptyState(meta);
    for (const record of records) applyRecord(state, record);
    this.byId.set(meta.id, state);
    this.book.set(meta.id, headOf(state));
    this.changed(meta.id);
    return state;
  }

  /** Appends records and syncs them, then applies them to the live state. */
  async append(id: string, records: ConversationRecord[]): Promise<ConversationState> {
    const state = await this.open(id);
    if (this.temporary.has(id)) return this.temporary.apply(state, records);
    this.marks.run(id, () => this.held.apply(id, records, state.messages.slice(-1)));
    await this.locked(id, () => this.writer(id).append(records));
    return this.applied(state, records);
  }

  /** Writes records (synced within CHAT_SYNC_MS), then applies them to the live state. */
  async write(id: string, records: ConversationRecord[]): Promise<ConversationState> {
    const state = await this.open(id);
    if (this.temporary.has(id)) return this.temporary.apply(state, records);
    this.marks.run(id, () => this.held.apply(id, records, state.messages.slice(-1)));
    await this.locked(id, () => this.writer(id).write(records));
    return this.applied(state, records);
  }

  private applied(state: ConversationState, records: ConversationRecord[]): ConversationState {
    for (const record of records) applyRecord(state, record);
    this.changed(state.meta.id);
    return state;
  }

  /**
   * Applies records to the live state at once and queues their write behind every earlier one (so the file
   * is always a prefix of the history): written on the next tick, synced within CHAT_SYNC_MS. The loop uses
   * it to send the next request while the disk works; `flushed` syncs at once (before memory writes and
   * before a run ends). Under a lease (every run holds one) it costs no lock at all.
   */
  appendQueued(id: string, records: ConversationRecord[]): ConversationState {
    const state = this.get(id);
    if (this.temporary.has(id)) return this.temporary.apply(state, records);
    this.marks.run(id, () => this.held.apply(id, records, state.messages.slice(-1)));
    if (this.leases.has(id))
      this.writer(id).writeQueued(records); // a failure is reported by flushed()
    else {
      // Applied below at once but written only once the lock is taken: until then the summary cache
      // must not vouch for this conversation's head (store-base.ts's settled).
      this.unwritten.set(id, (this.unwritten.get(id) ?? 0) + 1);
      void this.locked(id, () => this.writer(id).write(records))
        .catch(() => undefined)
        .finally(() => {
          const left = (this.unwritten.get(id) ?? 1) - 1;
          if (left > 0) this.unwritten.set(id, left);
          else this.unwritten.delete(id);
        });
    }
    return this.applied(state, records);
  }

  async flushed(id: string): Promise<void> {
    await this.writers.get(id)?.flushed();
  }

  /**
   * Takes the conversation for a run, across processes, until `release()`: catches up with what other
   * processes appended (applied to the live state first), and from then on nobody else writes the file.
   * Throws "This conversation is answering in another window" (changing nothing) when a run in another
   * process holds it. One lease per conversation per process (the agent's claim keeps runs apart here).
   */
  async lease(id: string): Promise<ConversationLease> {
    await this.open(id);
    // No other process can know it: the agent's claim alone keeps runs apart.
    if (this.temporary.has(id)) return { caughtUp: 0, release: () => Promise.resolve() };
    return this.serial.run(id, async () => {
      if (this.leases.has(id)) throw busy();
      const lock = await lockFile(this.fileOf(id), {
        waitMs: LOCK_WAIT_MS,
        onLost: () => {
          if (this.leases.get(id) === lock) this.dropLease(id);
        },
      });
      if (!lock) throw busy();
      let caughtUp: number;
      try {
        caughtUp = await this.catchUp(id);
      } catch (error) {
        await lock.release();
        throw error;
      }
      this.leases.set(id, lock);
      let released: Promise<void> | undefined;
      return {
        caughtUp,
        release: () => {
          if (released) return released;
          // Everything we wrote is in the file (the run flushed before finishing): give it back at once,
          // so whoever sees the run finish finds the conversation free.
          const writer = this.writers.get(id);
          if (!writer || writer.allWritten) {
            if (this.leases.get(id) === lock) this.dropLease(id);
            lock.releaseSync();
            return (released = Promise.resolve());
          }
          return (released = this.serial.run(id, async () => {
            // Our writes reach the file before another process may read it (a failed write was already
            // reported to whoever made it).
            await writer.written();
            if (this.leases.get(id) === lock) this.dropLease(id);
            await lock.release();
          }));
        },
      };
    });
  }

  /**
   * Applies what other processes appended since we last read or wrote the conversation, without the lock
   * (complete lines only: appends are final once written, and a rewrite replaces the file in one rename),
   * so a window opening it shows their turns. Returns the records applied; a stat when nothing changed.
   */
  async refresh(id: string): Promise<number> {
    await this.open(id);
    return this.serial.run(id, () => (this.leases.has(id) ? Promise.resolve(0) : this.catchUp(id, false)));
  }

  /**
   * Conversations another program changed on disk (sync adds, replaces or removes whole files, under
   * their locks): read them again, so the list and an open conversation show them. A conversation this
   * process holds for a run is left alone (sync never replaces one that is answering).
   */
  async reloadFiles(ids: readonly string[]): Promise<void> {
    await this.init();
    for (const id of ids) {
      if (!ID.test(id)) continue;
      await this.serial.run(id, async () => {
        if (this.leases.has(id)) return;
        const file = this.fileOf(id);
        const stat = await fs.stat(file).catch(() => null);
        if (!stat) {
          await this.pageSaver.drop(id);
          const known = this.book.has(id);
          this.book.delete(id);
          this.redactedHere.delete(id);
          if (!this.byId.delete(id) && !known) return;
          this.tails.delete(id);
          await this.writers.get(id)?.close();
          this.writers.delete(id);
          return;
        }
        if (this.byId.has(id)) {
          await this.catchUp(id, false).catch(() => 0);
          return;
        }
        // Not open here: its head is read again from the file (which is then open).
        const body = await readBody(this.dir, id).catch(() => undefined);
        // Read in meanwhile (an adopt): writes apply to that state, so it is caught up, never replaced.
        if (this.byId.has(id)) return void (await this.catchUp(id, false).catch(() => 0));
        if (body) {
          this.byId.set(id, body.state);
          this.tails.set(id, body.tail);
          this.book.set(id, headOf(body.state), body.stamp);
        } else this.book.delete(id);
      });
      // Each one named: the recall index follows the store by conversation id.
      this.changed(id);
    }
  }

  /** Loads the conversations another process started here since we read the folder; returns how many. */
  async discover(): Promise<number> {
    // The list's own wait (store-base.ts's ready): a start from the cache does not wait for its check.
    await this.ready();
    // Listed again even right after the start's own listing: a file another process created in between
    // would otherwise wait for its next write (a time-based trust of that listing lost a CLI's new chat).
    // Unless the folder's own stat says no name came or went since that listing (the first list of a
    // start, on a folder last changed before it: a thousand names read twice were a good part of it).
    // Kept while it holds (the discover that follows the first list's answer is a stat, too): any name
    // that comes or goes, ours included, moves the folder's time on, and then the names are read.
    const since = this.listedAt;
    this.listedAt = null;
    if (since && unchangedSince(this.dir, since)) {
      this.listedAt = since;
      return 0;
    }
    // A file still being created by us is ours (its tail exists before its first write), not new.
    const fresh = await unknownFiles(this.dir, (id) => this.book.has(id) || this.tails.has(id));
    if (fresh.length > 0) await this.reloadFiles(fresh);
    return fresh.filter((id) => this.book.has(id)).length;
  }

  /**
   * Until close (a window shows the list), new and changed files are followed (folder-watch.ts), from the
   * next turn: a watch on a folder of a thousand files took longer than a first list's own answer. A
   * file come since the list's discover is found by the one that follows the watch's start.
   */
  watchFolder(onCaughtUp: (id: string) => void): void {
    if (this.watching) return;
    this.watching = true;
    setImmediate(() => {
      if (this.closing) return;
      this.unwatch = followFolder(this, onCaughtUp);
      void this.discover().catch(() => 0);
    });
  }

  private watching = false;
  private closing = false;

  /**
   * Replaces a conversation's whole file with `transform(records)` under its lock, after catching up: for
   * rewrites that an append cannot express (e.g. redacting forgotten memory content). Written to a temp
   * file, synced and renamed over the old one, so a crash leaves the old file or the new one; other
   * processes see the new inode at their next catch-up and reload it. Refused while a run in another
   * process holds the conversation.
   */
  async rewrite(
    id: string,
    transform: (records: ConversationRecord[]) => ConversationRecord[],
  ): Promise<ConversationState> {
    const state = await this.open(id);
    if (this.temporary.has(id))
      throw new ContractError(
        'unavailable',
        'A temporary chat is never searched or kept: there is nothing to change.',
      );
    await this.locked(id, async () => {
      const file = this.fileOf(id);
      await this.writers.get(id)?.flushed();
      const { records } = await readJsonl<ConversationRecord>(file);
      const next = transform(records);
      // A new rev tells other processes the file was replaced (see MetaRecord.rev).
      if (next[0]?.t === 'meta') next[0] = { ...next[0], rev: randomUUID() };
      const rebuilt = rebuild(next);
      if (!rebuilt || rebuilt.meta.id !== id) throw new Error('A rewrite must keep the meta record first.');
      const tmp = `${file}.${process.pid}.tmp`;
      const lines = next.map((r) => JSON.stringify(r) + '\n');
      const text = lines.join('');
      const handle = await fs.open(tmp, 'w', 0o600);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await this.writers.get(id)?.reopen();
      await fs.rename(tmp, file);
      const { ino } = await fs.stat(file);
      this.tails.set(id, { ino, size: Buffer.byteLength(text, 'utf8') });
      markWritten(
        next,
        lines.map((l) => Buffer.byteLength(l, 'utf8')),
        0,
      );
      Object.assign(state, rebuilt);
    });
    this.changed(id);
    return state;
  }

  async rename(id: string, title: string): Promise<ConversationState> {
    const state = await this.append(id, [{ t: 'title', title: title.trim(), at: new Date().toISOString() }]);
    if (this.temporary.has(id)) return state;
    // A title is the list's own fact, and a start lists from the summary cache before checking it against
    // the files: saved there before the rename is acknowledged, so a crash right after it cannot show the
    // old title. (The file holds the rename either way; a cache that cannot be saved costs only that.)
    await this.book.save(true).catch(() => undefined);
    return state;
  }

  /**
   * Deletes a conversation: its file moves into the trash (trash.ts) by one rename, under its lock, and it
   * leaves the list and the recall index at once; `restore` brings it back until the trash lets it go.
   */
  async delete(id: string): Promise<void> {
    await this.init();
    if (this.end(id)) return;
    if (!this.has(id)) throw notFound();
    await this.locked(id, async () => {
      await this.writers.get(id)?.flushed();
      await withTrashLock(this.dir, id, async (trashed) => {
        const writer = this.writers.get(id);
        this.writers.delete(id);
        await writer?.close();
        await markTrashed(this.dir, id);
        await fs.rename(this.fileOf(id), trashed);
      });
      this.book.delete(id);
      this.byId.delete(id);
      this.tails.delete(id);
      this.redactedHere.delete(id);
      await this.pageSaver.drop(id);
    });
    this.trash.added(id);
    this.changed(id);
    // Its title leaves the cache before the deletion answers.
    await this.saveSummaries(true);
  }

  /** Undoes a deletion: the file moves back from the trash, and the conversation is listed and indexed again. */
  async restore(id: string): Promise<ConversationState> {
    await this.init();
    if (this.has(id)) return this.get(id);
    if (!ID.test(id)) throw goneForGood();
    await this.serial.run(id, async () => {
      const lock = await lockFile(this.fileOf(id), { waitMs: LOCK_WAIT_MS });
      if (!lock) throw busy();
      try {
        await withTrashLock(this.dir, id, async (trashed) => {
          if (!(await exists(trashed))) throw goneForGood();
          // Brought back meanwhile (another window's Undo): the trash's copy is the same conversation.
          if (await exists(this.fileOf(id))) await fs.rm(trashed, { force: true });
          else await fs.rename(trashed, this.fileOf(id));
          await unmarkTrashed(this.dir, id);
        });
      } finally {
        await lock.release();
      }
    });
    this.trash.cancel(id);
    return this.adopt(id);
  }

  /**
   * Writes the summary cache now. durable (a deletion, a forget): synced, and when that fails (a full
   * disk) the cache is removed instead, so what was deleted or forgotten is not kept in it either way.
   */
  async saveSummaries(durable = false): Promise<void> {
    if (!durable) return this.book.save();
    await this.book.save(true).catch(() => dropCache(this.dir));
  }

  /**
   * Moves the conversation's file to another store's folder (another space); it is then no longer this
   * store's (the other one takes it up with `adopt`). Under its lock, and refused while a run anywhere holds
   * it; the file moves by one rename, so a crash leaves it in one folder or the other.
   */
  async moveTo(id: string, targetDir: string): Promise<void> {
    await this.init();
    if (this.temporary.has(id))
      throw new ContractError('unavailable', 'A temporary chat stays in the space it was started in.');
    if (!this.has(id)) throw notFound();
    if (this.leases.has(id)) throw busy();
    const target = path.join(targetDir, `${id}.jsonl`);
    await this.locked(id, async () => {
      await this.writers.get(id)?.flushed();
      await fs.mkdir(targetDir, { recursive: true, mode: 0o700 });
      if (await exists(target)) {
        throw new ContractError('conflict', 'That space already has a conversation with this id.');
      }
      const writer = this.writers.get(id);
      this.writers.delete(id);
      await writer?.close();
      await fs.rename(this.fileOf(id), target);
      await this.pageSaver.drop(id);
      this.book.delete(id);
      this.byId.delete(id);
      this.tails.delete(id);
      this.redactedHere.delete(id);
    });
    this.changed(id);
  }

  /** Takes up a conversation another store moved into this folder (moveTo). */
  async adopt(id: string): Promise<ConversationState> {
    await this.init(); // a first load finds it anyway
    if (!this.byId.has(id) && ID.test(id)) {
      const body = await readBody(this.dir, id).catch(() => undefined);
      if (!body) throw new ContractError('unavailable', 'The moved conversation cannot be read.');
      // Unless the folder's watcher read it in meanwhile: a write may already hold that state.
      if (!this.byId.has(id)) {
        this.byId.set(id, body.state);
        this.tails.set(id, body.tail);
        this.book.set(id, headOf(body.state), body.stamp);
      }
      this.changed(id);
    }
    return this.get(id);
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
    if (!this.book.has(id)) return false; // deleted meanwhile: its file is gone with it
    // Not open: only its file holds copies (and its head, read again below if the file changed).
    const state = this.byId.get(id);
    // A run here holds it: what the run writes from now on may quote what it read before (held-redactions.ts).
    if (state && this.leases.has(id)) this.held.hold(id, redact);
    const live = state
      ? this.marks.run(id, () =>
          redact([
            ...new Set([...state.messages, ...state.entries.map((e) => e.record), ...state.compactions]),
          ]),
        )
      : false;
    // Marked until the file holds the same: a file part that fails leaves the two different until the
    // next start finishes the forget.
    if (live) this.redactedHere.add(id);
    // Under the conversation's lock (at once under this process's own lease): the file is replaced, which
    // must not happen while another process appends to it; its catch-up then sees the new inode and reloads.
    const onDisk = await this.locked(id, () =>
      this.writer(id).between(() => file(path.join(this.dir, `${id}.jsonl`))),
    );
    if (live || onDisk) {
      // Its lines have new lengths: no sidecar until the file is read again (its catch-up sees the new file).
      if (state) unmark([...state.messages, ...state.entries.map((e) => e.record)]);
      await this.pageSaver.drop(id);
    }
    if (onDisk) this.redactedHere.delete(id);
    if (!state && onDisk) await this.reloadFiles([id]);
    else if (live) this.changed(id);
    return live || onDisk;
  }

  /** Changes whenever a forget may have changed `id`'s live records in place (the recall index's check). */
  redactions(id: string): number {
    return this.marks.of(id);
  }

  /** A temporary conversation ends (the window left it): gone from memory. True when `id` was one. */
  end(id: string): boolean {
    return this.temporary.drop(id);
  }

  private dropLease(id: string): void {
    this.leases.delete(id);
    this.held.release(id);
  }

  async close(): Promise<void> {
    this.closing = true;
    this.temporary.clear();
    this.unwatch?.();
    await this.trash.close();
    const writers = [...this.writers.values()];
    this.writers.clear();
    await Promise.all(writers.map((w) => w.close()));
    // Runs have ended (their leases went back with them); anything still held goes back now.
    for (const lock of this.leases.values()) lock.releaseSync();
    this.leases.clear();
    if (this.loaded) {
      this.cue();
      // A check of the heads still running finishes first (what it found is saved with the rest).
      await this.loaded.catch(() => undefined);
      await this.book.close();
    }
    await this.pageSaver.flushed();
  }
}
