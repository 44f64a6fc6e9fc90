// Append-only JSONL files, crash-safe: every line is written whole, in order; on load a torn last line (a
// crash mid-write) is ignored and cut off so the next append starts on a fresh line. Two ways to add lines:
// `append` resolves once they are synced to the disk (synced at once); `write` resolves once they are
// written (an app crash can no longer lose them) and syncs them within a few milliseconds, sharing the sync
// with every write made meanwhile. Lines added in the same tick, or while a write is in flight, share one
// write and one sync (group commit).
import {
  close,
  closeSync,
  constants,
  fdatasync,
  fstatSync,
  promises as fs,
  openSync,
  statSync,
  writeSync,
} from 'node:fs';
import { promisify } from 'node:util';
import { diskMessage } from '../disk-errors.js';

const datasyncFd = promisify(fdatasync);
const closeFd = promisify(close);

export interface ReadResult<T> {
  records: T[];
  /** Lines that did not parse (a torn last line, or garbage); they are skipped. */
  skipped: number;
  /** Bytes of complete lines read (where the next complete line starts, from the offset read at). */
  bytes: number;
  /** The read ended inside a line (a crash mid-write, or a write in progress in another process). */
  torn: boolean;
  /** Where each record's line starts, in bytes from the offset read at (the page index's offsets). */
  starts: number[];
}

export interface ReadOptions {
  /**
   * Cut a torn last line off the file (default true). Only a reader that holds the conversation's lock
   * may: without it, the "torn" line may be another process's write in progress.
   */
  repair?: boolean;
}

/** Reads every complete line; repairs a torn tail so later appends stay line-aligned. */
export async function readJsonl<T>(file: string, options: ReadOptions = {}): Promise<ReadResult<T>> {
  const result = parseLines<T>(await fs.readFile(file));
  if (result.torn && options.repair !== false) await fs.truncate(file, result.bytes);
  return result;
}

/**
 * The complete lines from byte `offset` on: another process's appends since we last read or wrote. Never
 * repairs (the caller truncates a torn tail under the lock, where it knows the writer is gone).
 */
export async function readJsonlFrom<T>(file: string, offset: number): Promise<ReadResult<T>> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const data = Buffer.alloc(Math.max(0, size - offset));
    let done = 0;
    while (done < data.length) {
      const { bytesRead } = await handle.read(data, done, data.length - done, offset + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return parseLines<T>(data.subarray(0, done));
  } finally {
    await handle.close();
  }
}

/** The first line's record (undefined if it is not complete or not JSON); reads little more than that line. */
export async function readFirstJsonl<T>(file: string, max = 64 * 1024): Promise<T | undefined> {
  const handle = await fs.open(file, 'r');
  try {
    let buffer = Buffer.alloc(Math.min(max, 4096));
    let done = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, done, buffer.length - done, done);
      done += bytesRead;
      const newline = buffer.subarray(0, done).indexOf(0x0a);
      if (newline >= 0) return JSON.parse(buffer.subarray(0, newline).toString('utf8')) as T;
      if (bytesRead === 0 || buffer.length >= max) return undefined;
      const bigger = Buffer.alloc(Math.min(max, buffer.length * 4));
      buffer.copy(bigger, 0, 0, done);
      buffer = bigger;
    }
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

export function parseLines<T>(data: Buffer): ReadResult<T> {
  const lastNewline = data.lastIndexOf(0x0a);
  const bytes = lastNewline + 1;
  const torn = bytes < data.length;
  const records: T[] = [];
  const starts: number[] = [];
  let skipped = torn ? 1 : 0;
  // Line by line on the bytes (a newline byte never occurs inside a UTF-8 character), so each record
  // knows where its line starts.
  for (let start = 0; start < bytes;) {
    const end = data.indexOf(0x0a, start);
    const line = data.toString('utf8', start, end);
    if (line.trim() !== '') {
      try {
        records.push(JSON.parse(line) as T);
        starts.push(start);
      } catch {
        skipped += 1;
      }
    }
    start = end + 1;
  }
  return { records, skipped, bytes, torn, starts };
}

const IDLE_CLOSE_MS = 1_000;

/** The next turn of the event loop (setImmediate), after the caller's tick and its microtasks. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Writes every byte (a write may take fewer than asked; a full disk then throws ENOSPC). */
function writeAll(fd: number, text: string): number {
  const data = Buffer.from(text, 'utf8');
  for (let done = 0; done < data.length;) done += writeSync(fd, data, done);
  return data.length;
}

/**
 * Whether the file was replaced since `fd` was opened (a forget's redaction renames a rewritten file over
 * it, maybe in another process): appending to the old one would lose the lines. Two stats, microseconds;
 * a file that is gone (the conversation was deleted) keeps the old descriptor, as before.
 */
function replaced(fd: number, file: string): boolean {
  try {
    return fstatSync(fd).ino !== statSync(file).ino;
  } catch {
    return false;
  }
}

export interface WriterOptions {
  /**
   * How long a `write` may wait for its sync (default 0: at once). Its line is written at once either way
   * (an app crash loses nothing); the sync, which only a power loss or an OS crash needs, is shared by
   * every write made meanwhile.
   */
  syncWithinMs?: number;
  /**
   * Told the byte count of each write once it is in the file (the store tracks where the file ends), with
   * the records written and each one's line length in bytes (where each line starts: the page index).
   */
  onWrite?: (bytes: number, records: readonly unknown[], lengths: readonly number[]) => void;
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

interface Entry {
  records: unknown[];
  /** Settled once written (`write`). */
  written?: Waiter;
  /** Settled once synced (`append`), which also syncs at once. */
  durable?: Waiter;
}

/** One open descriptor per file, with a queue; appends are whole lines, written in order, then synced. */
export class JsonlWriter {
  private fd: number | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private idle: NodeJS.Timeout | undefined;
  private closed = false;
  private failed: Error | null = null;
  private readonly syncWithinMs: number;
  private readonly onWrite: WriterOptions['onWrite'];
  /** Entries waiting for the next write (group commit). */
  private pending: Entry[] = [];
  /** Written since the last sync, and the appends waiting for that sync. */
  private dirty = false;
  private unsynced: Waiter[] = [];
  private syncTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly file: string,
    options: WriterOptions = {},
  ) {
    this.syncWithinMs = options.syncWithinMs ?? 0;
    this.onWrite = options.onWrite;
  }

  /**
   * Resolves once the records are written and synced, at once. Entries added in the same tick or while a
   * write is in flight are written together by the next one, with one sync for all (group commit).
   */
  append(records: unknown[]): Promise<void> {
    return new Promise<void>((resolve, reject) => this.add({ records, durable: { resolve, reject } }));
  }

  /**
   * Resolves once the records are written, so an app crash can no longer lose them; their sync follows
   * within `syncWithinMs`, shared with every write made meanwhile (a fast agent loop shares one sync among
   * many turns). `flushed()` syncs at once and reports a failed sync.
   */
  write(records: unknown[]): Promise<void> {
    return new Promise<void>((resolve, reject) => this.add({ records, written: { resolve, reject } }));
  }

  /** `write` for a caller that does not wait: no promise per call (the agent loop, twice a turn). */
  writeQueued(records: unknown[]): void {
    this.add({ records });
  }

  /** Entries added and not yet written (or failed). */
  private outstanding = 0;

  /** Nothing added is still waiting to be written (a sync may still follow). */
  /** The write or sync that failed (a full disk): nothing more is appended by this writer. */
  get failure(): Error | null {
    return this.failed;
  }

  get allWritten(): boolean {
    return this.outstanding === 0;
  }

  private add(entry: Entry): void {
    this.outstanding += 1;
    this.pending.push(entry);
    if (this.pending.length > 1) return; // joins the batch already queued
    // The batch is written on the next turn of the event loop: entries added in the same tick (a reply and
    // its tool results, a message and its title) share one write, and the caller's own work (such as
    // sending the next request) goes first.
    void this.enqueue(() => nextTurn().then(() => this.writeBatch()));
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.queue.then(step);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async writeBatch(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.outstanding -= batch.length;
    try {
      // After a failure nothing more is appended, so the file stays a prefix of the history.
      if (this.failed) throw this.failed;
      if (this.closed) throw new Error('The conversation was deleted.');
      try {
        clearTimeout(this.idle);
        // Opened, and written, on this thread: both are page-cache operations of microseconds, and each trip
        // through the thread pool costs a thread hand-off (bench/loop: a new conversation's first write).
        // Syncs, which wait for the disk, never run on this thread. Serialized here, after the caller's tick
        // (records never change once added).
        if (this.fd !== null && replaced(this.fd, this.file)) {
          closeSync(this.fd);
          this.fd = null;
        }
        this.fd ??= openSync(this.file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
        const records = batch.flatMap((b) => b.records);
        const lines = records.map((r) => JSON.stringify(r) + '\n');
        const bytes = writeAll(this.fd, lines.join(''));
        if (this.onWrite)
          this.onWrite(
            bytes,
            records,
            lines.map((l) => Buffer.byteLength(l, 'utf8')),
          );
      } catch (error) {
        throw this.fail(error);
      }
    } catch (error) {
      for (const b of batch) (b.written ?? b.durable)?.reject(error as Error);
      throw error;
    }
    for (const b of batch) b.written?.resolve();
    const waiting = batch.flatMap((b) => (b.durable ? [b.durable] : []));
    this.dirty = true;
    this.unsynced.push(...waiting);
    if (this.syncWithinMs === 0 || waiting.length > 0) await this.sync();
    else this.syncTimer ??= setTimeout(() => void this.enqueue(() => this.sync()), this.syncWithinMs);
    this.armIdleClose();
  }

  /** Syncs what was written; settles every append that waited for it. */
  private async sync(): Promise<void> {
    clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    if (!this.dirty) return;
    const waiting = this.unsynced;
    this.unsynced = [];
    this.dirty = false;
    try {
      if (this.failed) throw this.failed;
      try {
        await datasyncFd(this.fd!);
      } catch (error) {
        throw this.fail(error);
      }
    } catch (error) {
      for (const w of waiting) w.reject(error as Error);
      throw error;
    }
    for (const w of waiting) w.resolve();
  }

  private fail(error: unknown): Error {
    const code = (error as NodeJS.ErrnoException).code;
    this.failed = Object.assign(
      new Error(
        diskMessage(error, 'the conversation') ??
          `The conversation could not be saved (${code ?? 'I/O error'}).`,
      ),
      { code },
    );
    return this.failed;
  }

  /** An idle conversation does not keep a descriptor open (nor leave one to the garbage collector). */
  private armIdleClose(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => void this.closeHandle(), IDLE_CLOSE_MS);
    this.idle.unref();
  }

  /** Resolves when everything added so far is in the file (not necessarily synced); never rejects. */
  async written(): Promise<void> {
    while (this.pending.length > 0) await this.queue;
    await this.queue;
  }

  /** Resolves when everything added so far is written and synced (syncing at once); rejects if one failed. */
  async flushed(): Promise<void> {
    await this.queue;
    if (this.dirty) await this.enqueue(() => this.sync()).catch(() => undefined);
    if (this.failed) throw this.failed;
  }

  /**
   * Runs `task` between two writes, with everything before it synced and the file closed: the task may
   * replace the file (a forget's redaction), and the next write opens the new one.
   */
  between<T>(task: () => T | Promise<T>): Promise<T> {
    let result: T;
    return this.enqueue(async () => {
      await this.sync();
      clearTimeout(this.idle);
      const fd = this.fd;
      this.fd = null;
      if (fd !== null) await closeFd(fd);
      result = await task();
    }).then(() => result);
  }

  /**
   * Closes the descriptor once everything queued is written, so the next write opens the path again: the
   * file was replaced (rewritten by another process) and the old descriptor points at the old file.
   */
  async reopen(): Promise<void> {
    clearTimeout(this.idle);
    await this.closeHandle();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    clearTimeout(this.idle);
    await this.closeHandle();
  }

  private closeHandle(): Promise<void> {
    return this.enqueue(async () => {
      await this.sync().catch(() => undefined); // a failed sync was reported to whoever waited for it
      const fd = this.fd;
      this.fd = null;
      if (fd !== null) await closeFd(fd);
    });
  }
}
