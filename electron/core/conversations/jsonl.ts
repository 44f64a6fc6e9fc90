// Append-only JSONL files, crash-safe: each append is one complete line written and fdatasync'd before it
// reports success; on load a torn last line (a crash mid-write) is ignored and cut off so the next append
// starts on a fresh line. Appends to one file are queued so lines never interleave; appends that arrive
// while a write is in flight share the next write and fdatasync.
import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

export interface ReadResult<T> {
  records: T[];
  /** Lines that did not parse (a torn last line, or garbage); they are skipped. */
  skipped: number;
}

/** Reads every complete line; repairs a torn tail so later appends stay line-aligned. */
export async function readJsonl<T>(file: string): Promise<ReadResult<T>> {
  const raw = await fs.readFile(file, 'utf8');
  const records: T[] = [];
  let skipped = 0;
  const lastNewline = raw.lastIndexOf('\n');
  const complete = lastNewline < 0 ? '' : raw.slice(0, lastNewline);
  if (lastNewline < raw.length - 1) {
    // A torn last line: drop it from the file (never from the middle, which is complete by construction).
    skipped += 1;
    await fs.truncate(file, Buffer.byteLength(complete, 'utf8') + (lastNewline < 0 ? 0 : 1));
  }
  for (const line of complete.split('\n')) {
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line) as T);
    } catch {
      skipped += 1;
    }
  }
  return { records, skipped };
}

const IDLE_CLOSE_MS = 1_000;

// Where the platform has O_DSYNC (Linux, macOS), a durable append is one write that returns once the data
// is on disk: one thread-pool round trip instead of a write and then an fdatasync (as memory/journal.ts).
const DSYNC = (constants as { O_DSYNC?: number }).O_DSYNC ?? 0;

/** One open handle per file, with a queue; durable appends. */
export class JsonlWriter {
  private handle: FileHandle | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private idle: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly durable = true,
  ) {}

  private failed: Error | null = null;

  /** Appends waiting for the next write (group commit). */
  private pending: { data: string; resolve: () => void; reject: (error: Error) => void }[] = [];

  /**
   * Resolves once the records are written and fdatasync'd. Appends made while a write is in flight are
   * written together by the next one, with one fdatasync for all (group commit): each still resolves only
   * once durable, but a fast loop is not held back by one disk sync per message.
   */
  append(records: unknown[]): Promise<void> {
    const data = records.map((r) => JSON.stringify(r) + '\n').join('');
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ data, resolve, reject });
      if (this.pending.length > 1) return; // joins the batch already queued
      const next = this.queue.then(() => this.writeBatch());
      this.queue = next.catch(() => undefined);
    });
  }

  private async writeBatch(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    try {
      // After a failed write nothing more is appended, so the file stays a prefix of the history.
      if (this.failed) throw this.failed;
      if (this.closed) throw new Error('The conversation was deleted.');
      try {
        clearTimeout(this.idle);
        const sync = this.durable ? DSYNC : 0;
        this.handle ??= await fs.open(
          this.file,
          constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | sync,
          0o600,
        );
        await this.handle.write(batch.map((b) => b.data).join(''));
        if (this.durable && !sync) await this.handle.datasync();
        // An idle conversation does not keep a descriptor open (nor leave one to the garbage collector).
        this.idle = setTimeout(() => void this.closeHandle(), IDLE_CLOSE_MS);
        this.idle.unref();
      } catch (error) {
        this.failed = new Error(
          `The conversation could not be saved (${(error as NodeJS.ErrnoException).code ?? 'I/O error'}).`,
        );
        throw this.failed;
      }
      for (const b of batch) b.resolve();
    } catch (error) {
      for (const b of batch) b.reject(error as Error);
      throw error;
    }
  }

  /** Resolves when every append so far is durable; rejects if one failed. */
  async flushed(): Promise<void> {
    await this.queue;
    if (this.failed) throw this.failed;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.queue;
    clearTimeout(this.idle);
    await this.closeHandle();
  }

  private closeHandle(): Promise<void> {
    const next = this.queue.then(async () => {
      const handle = this.handle;
      this.handle = null;
      await handle?.close();
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
