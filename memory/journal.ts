// The journal: one append-only JSONL file holding every change (who, when, which conversation, command,
// paths, content hashes before and after) and, in the same file, the contents those hashes name (blob
// lines, written once per distinct content). One file means one fdatasync makes a change and the content
// needed to redo or undo it durable together. Checkpoint lines mark the point up to which every change is
// known to be on disk; recovery redoes what follows (README.md).
import { isUtf8 } from 'node:buffer';
import { constants, promises as fsp, writeSync, type Stats } from 'node:fs';
import * as path from 'node:path';
import { datasync, FILE_MODE, fsyncDir } from './fs-safe.js';
import type { ActorKind } from './types.js';

export interface JournalRecord {
  id: string;
  /** ms since epoch */
  at: number;
  actor: ActorKind;
  conversationId?: string;
  conversationTitle?: string;
  toolUseId?: string;
  messageId?: string;
  /** Arrived by sync (actor 'sync'): from which device, made there by whom. */
  device?: string;
  origin?: 'agent' | 'user' | 'external' | 'import' | 'system';
  command: string;
  path: string;
  newPath?: string;
  /** sha256 of the content before (null: nothing was there) and after (null: removed). */
  before: string | null;
  after: string | null;
  /** Entries written by one operation (a folder delete or rename) share a batch id; revert undoes all. */
  batch?: string;
  revertOf?: string;
  /** A copy or move between spaces: the other space ({id, name}, types.ts SpaceRef). */
  fromSpace?: { id: string; name: string };
  toSpace?: { id: string; name: string };
}

/**
 * Writes every byte: on a filling disk a write is cut short (and only the next one fails with ENOSPC), and
 * a short write taken for a whole one left half a line in the middle of the journal.
 */
async function writeAll(handle: fsp.FileHandle, data: Buffer): Promise<void> {
  for (let done = 0; done < data.length;) {
    const { bytesWritten } = await handle.write(data, done, data.length - done);
    if (bytesWritten === 0)
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    done += bytesWritten;
  }
}

/** writeAll for the append: into the page cache, synchronously (microseconds); the sync follows apart. */
function writeAllSync(fd: number, data: Buffer): void {
  for (let done = 0; done < data.length;) {
    const n = writeSync(fd, data, done, data.length - done);
    if (n === 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    done += n;
  }
}

const BLOB_PREFIX = '{"t":"b","h":"';
const NL = 0x0a;

export class Journal {
  readonly file: string;
  entries: JournalRecord[] = [];
  private byId = new Map<string, JournalRecord>();
  private blobs = new Map<string, { off: number; len: number }>();
  /** Index in `entries` of the first change not covered by a checkpoint. */
  unsettledFrom = 0;
  private size = 0;
  private ino = 0;
  private appendFd: fsp.FileHandle | undefined;
  private readFd: fsp.FileHandle | undefined;
  /** The last append, while it is the journal's tail: where it starts, its records and its new blobs. */
  private last: { start: number; end: number; ids: string[]; blobs: string[] } | undefined;

  /**
   * `syncChanged` makes the changes journaled so far durable in the folders they touched (fsync of the
   * folders renamed in or out of). It runs before every checkpoint record is written, by checkpoint() and
   * by a rewrite (prune, forget), which ends with one: a checkpoint says recovery need not redo what
   * precedes it, so written before that sync, a power cut could lose a change the journal no longer redoes.
   */
  constructor(
    readonly dir: string,
    private readonly syncChanged: () => Promise<void> = () => Promise.resolve(),
  ) {
    this.file = path.join(dir, 'journal.jsonl');
  }

  get bytes(): number {
    return this.size;
  }

  private async openHandles(): Promise<void> {
    await this.closeHandles();
    this.appendFd = await fsp.open(
      this.file,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT,
      FILE_MODE,
    );
    this.readFd = await fsp.open(this.file, constants.O_RDONLY);
  }

  async closeHandles(): Promise<void> {
    await this.appendFd?.close().catch(() => undefined);
    await this.readFd?.close().catch(() => undefined);
    this.appendFd = this.readFd = undefined;
  }

  /** Read the whole journal. With `repair`, a torn last line (a crash mid-append) is cut off. */
  async load(repair: boolean): Promise<void> {
    await this.openHandles();
    const st = await this.readFd!.stat();
    const buf = st.size > 0 ? await this.readAt(0, st.size) : Buffer.alloc(0);
    this.entries = [];
    this.byId.clear();
    this.blobs.clear();
    this.unsettledFrom = 0;
    this.size = 0;
    this.last = undefined;
    this.ino = st.ino;
    const good = this.ingest(buf, 0);
    if (good < buf.length && repair) await this.appendFd!.truncate(good);
    this.size = good;
  }

  /**
   * Pick up what other processes appended since we last looked. Returns the new change records, or
   * 'reloaded' when the file was rewritten (compaction) and everything was read again.
   */
  async catchUp(): Promise<JournalRecord[] | 'reloaded'> {
    let st: Stats;
    try {
      st = await fsp.stat(this.file);
    } catch {
      return [];
    }
    if (st.ino !== this.ino) {
      await this.load(false);
      return 'reloaded';
    }
    if (st.size <= this.size) return [];
    const before = this.entries.length;
    const buf = await this.readAt(this.size, st.size - this.size);
    this.size += this.ingest(buf, this.size);
    return this.entries.slice(before);
  }

  /** Parse complete lines; returns the number of bytes consumed. */
  private ingest(buf: Buffer, base: number): number {
    let pos = 0;
    while (pos < buf.length) {
      const nl = buf.indexOf(NL, pos);
      if (nl < 0) break;
      const len = nl - pos;
      const head = buf.toString('utf8', pos, Math.min(nl, pos + 80));
      if (head.startsWith(BLOB_PREFIX)) {
        this.blobs.set(head.slice(BLOB_PREFIX.length, BLOB_PREFIX.length + 64), { off: base + pos, len });
      } else {
        let rec: { t?: string } & Partial<JournalRecord>;
        try {
          rec = JSON.parse(buf.toString('utf8', pos, nl)) as typeof rec;
        } catch {
          rec = {}; // a damaged line (not the torn tail, which has no newline): skip it
        }
        if (rec.t === 'e' && typeof rec.id === 'string') {
          const { t: _t, ...entry } = rec;
          this.entries.push(entry as JournalRecord);
          this.byId.set(entry.id!, entry as JournalRecord);
        } else if (rec.t === 'c') {
          // A checkpoint covers every change before it, or (upTo) the changes up to that record: the ones
          // a checkpoint synced outside the lock, while later changes went on.
          const upTo = (rec as { upTo?: unknown }).upTo;
          const covered = typeof upTo === 'string' ? this.indexOf(upTo) + 1 : this.entries.length;
          this.unsettledFrom = Math.max(this.unsettledFrom, covered);
        } else if (rec.t === 'x' && Array.isArray((rec as { ids?: unknown }).ids))
          this.dropIds((rec as { ids: string[] }).ids);
      }
      pos = nl + 1;
    }
    return pos;
  }

  private async readAt(off: number, len: number): Promise<Buffer> {
    const buf = Buffer.alloc(len);
    let done = 0;
    while (done < len) {
      const { bytesRead } = await this.readFd!.read(buf, done, len - done, off + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return buf.subarray(0, done);
  }

  get(id: string): JournalRecord | undefined {
    return this.byId.get(id);
  }

  hasBlob(hash: string): boolean {
    return this.blobs.has(hash);
  }

  async blob(hash: string | null): Promise<Buffer | null> {
    if (!hash) return null;
    const at = this.blobs.get(hash);
    if (!at) return null;
    const line = JSON.parse((await this.readAt(at.off, at.len)).toString('utf8')) as {
      d?: string;
      x?: string;
    };
    return line.d !== undefined ? Buffer.from(line.d, 'utf8') : Buffer.from(line.x ?? '', 'base64');
  }

  /**
   * Append change records (and the contents they name that the journal does not hold yet) in one write,
   * then fdatasync. When this resolves, the change is durable and can be redone by recovery.
   *
   * The write goes to the page cache synchronously and only the fdatasync, which waits for the disk, takes
   * the thread pool: one round trip (an O_DSYNC write through the FileHandle cost as much and a FileHandle
   * write's own overhead on top, bench/memory). Both happen before the first await: when append returns its
   * promise, the records are written and their sync is under way, so the kernel writes the change's temp
   * files meanwhile and they cost nothing on top of the sync.
   */
  async append(records: readonly JournalRecord[], contents: ReadonlyMap<string, Buffer>): Promise<void> {
    const parts: string[] = [];
    const newBlobs: { hash: string; rel: number; len: number }[] = [];
    let rel = 0;
    for (const [hash, bytes] of contents) {
      if (this.blobs.has(hash) || newBlobs.some((b) => b.hash === hash)) continue;
      const line = blobLine(hash, bytes);
      const len = Buffer.byteLength(line, 'utf8');
      newBlobs.push({ hash, rel, len });
      parts.push(line, '\n');
      rel += len + 1;
    }
    for (const r of records) parts.push(entryLine(r), '\n');
    const data = Buffer.from(parts.join(''), 'utf8');
    const fd = this.appendFd!.fd;
    let synced: Promise<void>;
    try {
      writeAllSync(fd, data);
      synced = datasync(fd);
    } catch (err) {
      await this.cutBack();
      throw err;
    }
    try {
      await synced;
    } catch (err) {
      await this.cutBack();
      throw err;
    }
    for (const b of newBlobs) this.blobs.set(b.hash, { off: this.size + b.rel, len: b.len });
    this.last = {
      start: this.size,
      end: this.size + data.length,
      ids: records.map((r) => r.id),
      blobs: newBlobs.map((b) => b.hash),
    };
    this.size += data.length;
    for (const r of records) {
      this.entries.push(r);
      this.byId.set(r.id, r);
    }
  }

  /** Never leave half a record (or one that did not become durable) for the next append to glue onto. */
  private async cutBack(): Promise<void> {
    await this.appendFd!.truncate(this.size).catch(() => undefined);
  }

  /**
   * Withdraw records whose change could not be applied (the file write failed after the journal append),
   * so that recovery does not redo them later.
   */
  async cancel(ids: readonly string[]): Promise<void> {
    const data = Buffer.from(JSON.stringify({ t: 'x', ids }) + '\n');
    try {
      await writeAll(this.appendFd!, data);
      await this.appendFd!.datasync();
    } catch (error) {
      // A full disk refuses the cancel line too. If these records are the journal's last lines, cut them
      // off instead (a truncate needs no space): recovery must not redo a change reported as failed.
      if (!(await this.cutLast(ids))) throw error;
      return;
    }
    this.size += data.length;
    this.dropIds(ids);
  }

  private async cutLast(ids: readonly string[]): Promise<boolean> {
    const last = this.last;
    if (!last || last.end !== this.size || (await this.appendFd!.stat()).size !== this.size) return false;
    if (last.ids.length !== ids.length || !last.ids.every((id, i) => id === ids[i])) return false;
    await this.appendFd!.truncate(last.start);
    this.size = last.start;
    for (const h of last.blobs) this.blobs.delete(h);
    this.last = undefined;
    this.dropIds(ids);
    // Best effort: should the cut be lost with a power cut, recovery finds the rename undone and the temp
    // file deleted, and redoes the change the caller was told failed; there is no better way left.
    await this.appendFd!.datasync().catch(() => undefined);
    return true;
  }

  private dropIds(ids: readonly string[]): void {
    const drop = new Set(ids);
    const before = this.entries.length;
    this.entries = this.entries.filter((r) => !drop.has(r.id));
    this.unsettledFrom = Math.max(0, this.unsettledFrom - (before - this.entries.length));
    for (const id of ids) this.byId.delete(id);
  }

  private indexOf(id: string): number {
    for (let i = this.entries.length - 1; i >= 0; i--) if (this.entries[i]!.id === id) return i;
    return -1;
  }

  /**
   * Record that every change up to and including `lastId` is on disk: the caller synced their files and
   * folders itself (outside the lock). Nothing is written when that record is gone (a rewrite, which ends
   * with its own checkpoint) or already covered.
   */
  async checkpointUpTo(lastId: string): Promise<void> {
    const covered = this.indexOf(lastId) + 1;
    if (covered <= this.unsettledFrom) return;
    // Always named: another process may have appended records since we last read the journal.
    const data = Buffer.from(JSON.stringify({ t: 'c', upTo: lastId }) + '\n');
    await this.appendFd!.write(data);
    this.size += data.length;
    this.unsettledFrom = covered;
  }

  /** Everything before this point is on disk (syncChanged, first, fsyncs the folders renamed in). */
  async checkpoint(): Promise<void> {
    await this.syncChanged();
    if (this.unsettledFrom === this.entries.length) return;
    const data = Buffer.from('{"t":"c"}\n');
    try {
      await writeAll(this.appendFd!, data);
    } catch (error) {
      await this.appendFd!.truncate(this.size).catch(() => undefined);
      throw error;
    }
    this.last = undefined;
    this.size += data.length;
    this.unsettledFrom = this.entries.length;
  }

  /**
   * Rewrite the journal keeping only `keep`ed entries and the blobs they reference (forget, size cap).
   * Written to a temp file, fsynced and renamed over the journal; other processes notice the new inode.
   */
  async rewrite(keep: (r: JournalRecord) => boolean): Promise<void> {
    await this.syncChanged(); // the rewritten journal ends with a checkpoint
    const kept = this.entries.filter(keep);
    const needed = new Set<string>();
    for (const r of kept) {
      if (r.before) needed.add(r.before);
      if (r.after) needed.add(r.after);
    }
    const tmp = `${this.file}.rewrite-${process.pid}`;
    const out = await fsp.open(tmp, 'w', FILE_MODE);
    try {
      for (const hash of needed) {
        const bytes = await this.blob(hash);
        if (bytes) await out.write(blobLine(hash, bytes) + '\n');
      }
      for (const r of kept) await out.write(entryLine(r) + '\n');
      await out.write('{"t":"c"}\n');
      await out.sync();
    } finally {
      await out.close();
    }
    await fsp.rename(tmp, this.file);
    await fsyncDir(this.dir);
    await this.load(false);
  }

  /** Drop the oldest entries until the journal fits in ~75% of `capBytes`. */
  async prune(capBytes: number): Promise<boolean> {
    if (this.size <= capBytes) return false;
    const target = capBytes * 0.75;
    const seen = new Set<string>();
    let total = 0;
    let cut = this.entries.length;
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const r = this.entries[i]!;
      let cost = JSON.stringify(r).length + 10;
      for (const h of [r.before, r.after])
        if (h && !seen.has(h)) {
          seen.add(h);
          cost += this.blobs.get(h)?.len ?? 0;
        }
      if (total + cost > target) break;
      total += cost;
      cut = i;
    }
    const keepFrom = new Set(this.entries.slice(cut));
    await this.rewrite((r) => keepFrom.has(r));
    return true;
  }
}

/** `{"t":"e",...r}` without making that object: a change record's line. */
function entryLine(r: JournalRecord): string {
  return `{"t":"e",${JSON.stringify(r).slice(1)}`;
}

function blobLine(hash: string, bytes: Buffer): string {
  // Content that is not valid UTF-8 (an external binary file being deleted) is kept as base64.
  return isUtf8(bytes)
    ? `${BLOB_PREFIX}${hash}","d":${JSON.stringify(bytes.toString('utf8'))}}`
    : `${BLOB_PREFIX}${hash}","x":"${bytes.toString('base64')}"}`;
}
