// The recall index on disk: a folder in the space's conversations folder (a dot name, so nothing lists it
// as a conversation), one file per shard (conversations are spread over SHARDS by a hash of their id, so
// saving after a change writes a sixteenth of the index). A shard file is JSON lines, each short, so it
// is read and written in slices that never hold the event loop for long (one JSON document of a
// sixteenth of 200,000 messages took a third of a second to parse, another to build, under load). Each
// file is written whole to a temp file, synced and renamed over the old one, so a crash leaves the old
// shard or the new one; anything unreadable (torn, hand-edited, another version or text scheme) is simply
// rebuilt from the conversations, which are the truth.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import MiniSearch, { type Options } from 'minisearch';
import type { Slicer } from './slices.js';
import { TEXT_SCHEME } from './text.js';

export const INDEX_DIR = '.recall-index';
export const SHARDS = 16;

export function shardFile(dir: string, shard: number): string {
  return path.join(dir, `shard-${String(shard).padStart(2, '0')}.json`);
}

/** Which shard holds a conversation: FNV-1a of its id. */
export function shardOf(conversationId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < conversationId.length; i++) h = Math.imul(h ^ conversationId.charCodeAt(i), 0x01000193);
  return (h >>> 0) % SHARDS;
}
/**
 * 3: a second field, the stop pairs a quoted phrase of stop words is found by (an index of 2 has none, so
 * it is rebuilt). 2: JSON lines, read and written in slices (1 was one JSON document, parsed in one go).
 */
const VERSION = 3;

/** Per conversation: the cheap key it was indexed at, and each indexed document's id and text hash. */
export type Manifest = Record<string, [key: string, docs: [docId: string, hash: string][]]>;

/** What of a MiniSearch the file holds: the fields its own toJSON/loadJS carry (MiniSearch 7.2.0, pinned). */
interface Internals {
  _documentCount: number;
  _nextId: number;
  _fieldIds: Record<string, number>;
  _avgFieldLength: number[];
  _documentIds: Map<number, string>;
  _idToShortId: Map<string, number>;
  _fieldLength: Map<number, number[]>;
  _storedFields: Map<number, unknown>;
  _index: {
    set(term: string, data: Map<number, Map<number, number>>): void;
    [Symbol.iterator](): Iterator<[string, Map<number, Map<number, number>>]>;
  };
}

interface Header {
  v: number;
  scheme: string;
  documentCount: number;
  nextId: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
}

/**
 * The lines after the header: a conversation's manifest entry, a run of documents (short id, id, field
 * lengths, stored fields), a run of terms (each with, per field, its documents and frequencies, flat),
 * and an end line, so a file cut short is never taken for a whole one. None is long: each parses in
 * well under a slice.
 */
type Line =
  | ['c', id: string, key: string, docs: [string, string][]]
  | ['d', docs: [number, string, number[], unknown][]]
  | ['t', terms: [string, [number, number[]][]][]]
  | ['end', documents: number];

const RUN = 500;
const POSTINGS_PER_LINE = 5_000;

/** The stored shard, or null when there is none or it cannot be used (then it is rebuilt). */
export async function readShard<T>(
  file: string,
  options: Options<T>,
  slicer?: Slicer,
): Promise<{ data: { mini: MiniSearch<T>; manifest: Manifest } | null; problem?: string }> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { data: null };
    return { data: null, problem: 'unreadable' };
  }
  slicer?.restart();
  let at = 0;
  const next = (): unknown => {
    if (at >= text.length) throw new Error('cut short');
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const line = text.slice(at, end);
    at = end + 1;
    return JSON.parse(line);
  };
  try {
    const header = next() as Partial<Header> | null;
    if (!header || header.v !== VERSION || header.scheme !== TEXT_SCHEME)
      return { data: null, problem: 'old' };
    const mini = MiniSearch.loadJS<T>(
      {
        documentCount: header.documentCount!,
        nextId: header.nextId!,
        fieldIds: header.fieldIds!,
        averageFieldLength: header.averageFieldLength!,
        documentIds: {},
        fieldLength: {},
        storedFields: {},
        dirtCount: 0,
        index: [],
        serializationVersion: 2,
      },
      options,
    );
    const s = mini as unknown as Internals;
    if (
      !Number.isInteger(s._documentCount) ||
      !Number.isInteger(s._nextId) ||
      !Array.isArray(s._avgFieldLength) ||
      typeof s._fieldIds !== 'object'
    )
      throw new Error('header');
    const manifest = Object.create(null) as Manifest;
    for (;;) {
      if (slicer?.due()) await slicer.pause();
      const line = next() as Line;
      if (!Array.isArray(line)) throw new Error('line');
      if (line[0] === 'c') {
        manifest[line[1]] = [line[2], line[3]];
      } else if (line[0] === 'd') {
        for (const [shortId, id, lengths, stored] of line[1]) {
          if (!Number.isInteger(shortId) || typeof id !== 'string' || !Array.isArray(lengths))
            throw new Error('document');
          s._documentIds.set(shortId, id);
          s._idToShortId.set(id, shortId);
          s._fieldLength.set(shortId, lengths);
          if (stored !== null) s._storedFields.set(shortId, stored);
        }
      } else if (line[0] === 't') {
        for (const [term, fields] of line[1]) {
          const data = new Map<number, Map<number, number>>();
          for (const [fieldId, flat] of fields) {
            const freqs = new Map<number, number>();
            for (let i = 0; i + 1 < flat.length; i += 2) freqs.set(flat[i]!, flat[i + 1]!);
            data.set(fieldId, freqs);
          }
          s._index.set(term, data);
        }
      } else if (line[0] === 'end') {
        if (line[1] !== s._documentIds.size || s._documentIds.size !== s._documentCount)
          throw new Error('count');
        return { data: { mini, manifest } };
      } else throw new Error('line');
    }
  } catch {
    return { data: null, problem: 'corrupt' };
  }
}

/**
 * Writes a shard whole to a temp file, synced, then renamed over the old one. Only live documents go in:
 * postings of discarded ones (kept in memory until a vacuum) and terms only they held are left out, so
 * the file never holds a word nobody's conversation holds now. The shard must not change meanwhile.
 */
export async function writeShard<T>(
  file: string,
  mini: MiniSearch<T>,
  manifest: Manifest,
  slicer?: Slicer,
): Promise<void> {
  const s = mini as unknown as Internals;
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const handle = await fs.open(tmp, 'w', 0o600);
  try {
    let buffer: string[] = [];
    let size = 0;
    const flush = async (): Promise<void> => {
      if (buffer.length === 0) return;
      const chunk = `${buffer.join('\n')}\n`;
      buffer = [];
      size = 0;
      await handle.write(chunk);
      slicer?.restart();
    };
    const put = async (line: Header | Line): Promise<void> => {
      const text = JSON.stringify(line);
      buffer.push(text);
      size += text.length;
      if (size >= 1 << 18) await flush();
      else if (slicer?.due()) await slicer.pause();
    };
    await put({
      v: VERSION,
      scheme: TEXT_SCHEME,
      documentCount: s._documentCount,
      nextId: s._nextId,
      fieldIds: s._fieldIds,
      averageFieldLength: s._avgFieldLength,
    });
    for (const [id, [key, docs]] of Object.entries(manifest)) await put(['c', id, key, docs]);
    let docs: [number, string, number[], unknown][] = [];
    for (const [shortId, id] of s._documentIds) {
      docs.push([shortId, id, s._fieldLength.get(shortId) ?? [], s._storedFields.get(shortId) ?? null]);
      if (docs.length >= RUN) {
        await put(['d', docs]);
        docs = [];
      }
    }
    if (docs.length > 0) await put(['d', docs]);
    let terms: [string, [number, number[]][]][] = [];
    let postings = 0;
    for (const [term, data] of s._index) {
      const fields: [number, number[]][] = [];
      for (const [fieldId, freqs] of data) {
        const flat: number[] = [];
        for (const [shortId, tf] of freqs) if (s._documentIds.has(shortId)) flat.push(shortId, tf);
        if (flat.length > 0) fields.push([fieldId, flat]);
        postings += flat.length;
      }
      if (fields.length > 0) terms.push([term, fields]);
      if (postings >= POSTINGS_PER_LINE) {
        await put(['t', terms]);
        terms = [];
        postings = 0;
      }
    }
    if (terms.length > 0) await put(['t', terms]);
    await put(['end', s._documentIds.size]);
    await flush();
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, file);
}

/**
 * Temp files of a save cut short (a crash between write and rename): they may hold text since deleted or
 * forgotten. Removed at the next load once older than any save in progress could be.
 */
export async function removeLeftovers(dir: string, olderThanMs = 60_000): Promise<void> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.tmp'))) {
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > olderThanMs) await fs.rm(file, { force: true });
  }
}

/** FNV-1a over UTF-16 code units: tells a message's text changed in place (a redaction) from unchanged. */
export function textHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${(h >>> 0).toString(36)}.${text.length.toString(36)}`;
}
