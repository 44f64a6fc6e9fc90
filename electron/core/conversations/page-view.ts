// Pages of a conversation nobody opened yet in this process, read through its page sidecar (page-file.ts):
// the sidecar says where the last turns start in the file, so the last page is a read of the file's tail
// and a replay of those lines alone, projected by the one projection, and the pages before it, as the
// window scrolls up, reads of the ranges before. It gives exactly what pages.ts gives after a full replay
// (a property test holds it to that): a turn is a run of whole entries that nothing after it changes
// (page-index.ts), every record that still changes one (a truncation, a pin) follows it in the file, and
// the pins come from the sidecar. Whatever does not add up (the file's stat changed, a turn's first line is
// not where the sidecar says, a count differs) gives null, and the caller replays the file.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { TranscriptItem } from '../../../shared/channels/conversations.js';
import { projectEntries } from '../../../shared/projection/project.js';
import { parseLines } from './jsonl.js';
import { type PageFile, readPageFile } from './page-file.js';
import type { Page } from './pages.js';
import type { ConversationRecord } from './records.js';
import type { Entry } from './state.js';
import { type FileStamp, sameStamp, stampOf } from './summary-cache.js';

/** A sidecar in use, and the turns whose first ids were handed out as cursors. */
interface View {
  file: PageFile;
  cursors: Map<string, number>;
}

type Placed = { entry: Entry; at: number };

export class PageViews {
  private readonly views = new Map<string, View>();
  /** Opens served from a sidecar (tests and benchmarks: a first open after a start replays nothing). */
  served = 0;

  constructor(private readonly dir: string) {}

  /** Reads under way, by conversation. */
  private readonly reading = new Map<string, Promise<unknown>>();

  /** Waits for the reads of `id` under way; true if there were any. */
  async settled(id: string): Promise<boolean> {
    const reading = this.reading.get(id);
    if (!reading) return false;
    await reading.catch(() => undefined);
    return true;
  }

  /** The last turns, at least `limit` items (pages.ts's lastPage); `known`: the stat the caller trusts. */
  last(id: string, limit: number, known: FileStamp): Promise<Page | null> {
    return this.track(id, this.readLast(id, limit, known));
  }

  /** The page before the turn a cursor of ours starts (pages.ts's pageAt with `before`). */
  older(id: string, cursor: string, limit: number): Promise<Page | null> {
    const view = this.views.get(id);
    const turn = view?.cursors.get(cursor);
    if (!view || turn === undefined) return Promise.resolve(null);
    return this.track(id, this.before(id, view, turn, limit));
  }

  private track<T>(id: string, reading: Promise<T>): Promise<T> {
    this.reading.set(id, reading);
    return reading.finally(() => {
      if (this.reading.get(id) === reading) this.reading.delete(id);
    });
  }

  private async readLast(id: string, limit: number, known: FileStamp): Promise<Page | null> {
    const stamp = await this.stat(id);
    if (!stamp || !sameStamp(stamp, known)) return null;
    const file = await readPageFile(this.dir, id, stamp);
    if (!file) return null;
    const view: View = { file, cursors: new Map() };
    const page = await this.before(id, view, file.turns.length, limit);
    if (page) this.views.set(id, view);
    return page;
  }

  /** The conversation was opened (replayed) or changed: pages come from its state from now on. */
  drop(id: string): void {
    this.views.delete(id);
  }

  private async stat(id: string): Promise<FileStamp | null> {
    return fs.stat(this.fileOf(id)).then(stampOf, () => null);
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.jsonl`);
  }

  private async before(id: string, view: View, last: number, limit: number): Promise<Page | null> {
    const { turns } = view.file;
    let first = last;
    for (let n = 0; first > 0 && n < limit;) n += turns.items(--first);
    const read = await this.turns(id, view.file, first, last);
    if (!read) return null;
    read.ids.forEach((cursor, i) => view.cursors.set(cursor, first + i));
    this.served += 1;
    return {
      items: read.items,
      older: first > 0 ? read.ids[0]! : null,
      newer: last < turns.length ? cursorAt(view, last) : null,
    };
  }

  /** Turns [first, last) read from the file and projected; null when the file does not match the sidecar. */
  private async turns(
    id: string,
    file: PageFile,
    first: number,
    last: number,
  ): Promise<{ items: TranscriptItem[]; ids: string[] } | null> {
    if (first >= last) return { items: [], ids: [] };
    const { turns } = file;
    const next = last < turns.length ? last + 1 : last;
    if (!turns.sound(first, next, file.stamp.size)) return null;
    const start = turns.offset(first);
    const end = last < turns.length ? turns.offset(last) : file.stamp.size;
    let data: Buffer;
    try {
      const handle = await fs.open(this.fileOf(id), 'r');
      try {
        // Stat, read, stat: the bytes are the sidecar's file only if nothing changed it meanwhile.
        if (!sameStamp(stampOf(await handle.stat()), file.stamp)) return null;
        data = Buffer.alloc(end - start);
        for (let done = 0; done < data.length;) {
          const { bytesRead } = await handle.read(data, done, data.length - done, start + done);
          if (bytesRead === 0) return null;
          done += bytesRead;
        }
        if (!sameStamp(stampOf(await handle.stat()), file.stamp)) return null;
      } finally {
        await handle.close();
      }
    } catch {
      return null;
    }
    const placed = replay(data, start);
    if (!placed) return null;
    // Each turn starts where the sidecar says and holds as many entries.
    const ids: string[] = [];
    let i = 0;
    for (let t = first; t < last; t++) {
      if (placed[i]?.at !== turns.offset(t)) return null;
      ids.push(placed[i]!.entry.record.id);
      i += turns.entries(t);
    }
    if (i !== placed.length) return null;
    const items = projectEntries(
      placed.map((p) => p.entry),
      new Set(file.pinned),
    );
    let expected = 0;
    for (let t = first; t < last; t++) expected += turns.items(t);
    return items.length === expected ? { items, ids } : null;
  }
}

/** The id a turn starts with, if a page handed it out already (a turn after the first page's is). */
function cursorAt(view: View, turn: number): string | null {
  for (const [cursor, t] of view.cursors) if (t === turn) return cursor;
  return null;
}

/**
 * The entries these lines leave, as state.ts's replay leaves them after the records before the range:
 * appended, and cut by a truncation within the range (one that reaches before it would have removed the
 * turn the range starts with, which the sidecar says is there). Null on a record no page may hold.
 */
function replay(data: Buffer, base: number): Placed[] | null {
  const { records, starts } = parseLines<ConversationRecord>(data);
  const out: Placed[] = [];
  for (const [i, r] of records.entries()) {
    if (typeof r !== 'object' || r === null) return null;
    switch (r.t) {
      case 'msg':
      case 'event':
        if (typeof r.id !== 'string') return null;
        out.push({ entry: { type: r.t, record: r } as Entry, at: base + starts[i]! });
        break;
      case 'truncate': {
        const cut = out.findIndex((p) => p.entry.type === 'msg' && p.entry.record.id === r.fromMessageId);
        if (cut >= 0) out.length = cut;
        break;
      }
      case 'meta':
        return null;
      default:
        break;
    }
  }
  return out;
}
