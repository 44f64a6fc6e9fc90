// Export: the memory folder as a .zip, folders preserved, optionally with the journal. Only what the
// memory itself lists goes in, read through Memory.read (no last-read side effect; links in any component
// and hard links refused), so an export cannot carry anything from outside the root. Whatever is left
// out (what Memory.unreachable reports, a listed file that cannot be read, a journal file that is a hard
// link) is named in the result's `skipped` with the reason: an export never drops anything silently.
import { lstat, readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { isMemoryError } from '../errors.js';
import type { Memory } from '../types.js';
import { JOURNAL_PREFIX, TOP_FOLDER } from './limits.js';

export interface ExportOptions {
  includeJournal: boolean;
  /** For the file name (tests). */
  now?: Date;
}

export interface ExportResult {
  data: Uint8Array;
  fileName: string;
  files: number;
  folders: number;
  journalFiles: number;
  /** What was not included, by display path (`memories/...` as in the zip), and why. */
  skipped: SkippedEntry[];
}

export interface SkippedEntry {
  path: string;
  reason: string;
}

// Unix mode bits in the high half of the external attributes, so unzip restores private permissions.
const FILE_ATTRS = (0o100600 << 16) >>> 0;
const DIR_ATTRS = ((0o040700 << 16) | 0x10) >>> 0;

function validDate(iso: string): Date {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? new Date() : d;
}

function segmentsOf(modelPath: string): string[] {
  return modelPath.split('/').slice(2); // '/memories/a/b.md' -> ['a', 'b.md']
}

async function readJournalFile(host: string): Promise<{ data: Uint8Array; mtime: Date } | undefined> {
  const stat = await lstat(host).catch(() => undefined);
  // A hard link may be a planted alias of a file outside the root: never export it.
  if (!stat?.isFile() || stat.nlink > 1) return undefined;
  const data = await readFile(host).catch(() => undefined);
  return data ? { data, mtime: stat.mtime } : undefined;
}

/**
 * A streaming zip writer that yields to the event loop now and then, so exporting thousands of files does
 * not stall the app (the chat stream and the WebSocket share this process).
 */
class ZipWriter {
  private readonly chunks: Uint8Array[] = [];
  private readonly zip: Zip;
  private readonly done: Promise<Uint8Array>;
  private added = 0;

  constructor() {
    let resolve: (data: Uint8Array) => void = () => undefined;
    let reject: (error: Error) => void = () => undefined;
    this.done = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.zip = new Zip((error, chunk, final) => {
      if (error) return reject(error);
      this.chunks.push(chunk);
      if (final) resolve(Buffer.concat(this.chunks));
    });
  }

  async file(name: string, data: Uint8Array, mtime: Date): Promise<void> {
    const entry = new ZipDeflate(name, { level: 6 });
    Object.assign(entry, { os: 3, attrs: FILE_ATTRS, mtime });
    this.zip.add(entry);
    entry.push(data, true);
    if (++this.added % 64 === 0) await new Promise((r) => setImmediate(r));
  }

  folder(name: string): void {
    const entry = new ZipPassThrough(`${name}/`);
    Object.assign(entry, { os: 3, attrs: DIR_ATTRS });
    this.zip.add(entry);
    entry.push(new Uint8Array(0), true);
  }

  finish(): Promise<Uint8Array> {
    this.zip.end();
    return this.done;
  }
}

async function walkJournal(
  dir: string,
  rel: string,
  out: ZipWriter,
  skipped: SkippedEntry[],
): Promise<number> {
  let count = 0;
  const items = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const item of items.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const host = path.join(dir, item.name);
    const name = rel + item.name;
    if (item.isDirectory()) count += await walkJournal(host, `${name}/`, out, skipped);
    else if (item.isFile()) {
      const file = await readJournalFile(host);
      if (file) {
        await out.file(JOURNAL_PREFIX + name, file.data, file.mtime);
        count++;
      } else
        skipped.push({
          path: JOURNAL_PREFIX + name,
          reason: 'A journal file that has more than one hard link or could not be read.',
        });
    }
  }
  return count;
}

/** A memory refusal says why in words fit to show; anything else gets a generic reason (no host path). */
function skipReason(err: unknown): string {
  return isMemoryError(err) ? err.message : 'It could not be read.';
}

export function exportFileName(now: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `mnemo-memory-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.zip`;
}

export async function exportMemory(
  memory: Pick<Memory, 'journalDir' | 'list' | 'read' | 'unreachable'>,
  options: ExportOptions,
): Promise<ExportResult> {
  const entries = await memory.list();
  const skipped: SkippedEntry[] = (await memory.unreachable()).map((u) => ({
    path: TOP_FOLDER + segmentsOf(u.path).join('/'),
    reason: u.reason,
  }));
  const zip = new ZipWriter();
  let files = 0;
  let folders = 0;
  for (const entry of entries) {
    const segments = segmentsOf(entry.path);
    if (segments.length === 0) continue;
    const name = TOP_FOLDER + segments.join('/');
    if (entry.kind === 'dir') {
      zip.folder(name);
      folders++;
      continue;
    }
    // The memory's own read: links (in any component) and hard links are refused, so nothing from
    // outside the root can ride along. A file that vanished or is not text is left out, and said so.
    let file;
    try {
      file = await memory.read(entry.path);
    } catch (err) {
      skipped.push({ path: name, reason: skipReason(err) });
      continue;
    }
    await zip.file(name, Buffer.from(file.content, 'utf8'), validDate(entry.modifiedAt));
    files++;
  }
  const journalFiles = options.includeJournal ? await walkJournal(memory.journalDir, '', zip, skipped) : 0;
  const data = await zip.finish();
  return {
    data,
    fileName: exportFileName(options.now ?? new Date()),
    files,
    folders,
    journalFiles,
    skipped,
  };
}
