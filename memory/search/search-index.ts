// Full-text search over the memory folder, from an in-memory copy of every file.
//
// The first query builds the index (every file read once). After that a query only scans the cached text:
// changes reach the index through the memory's change events (agent, user, import and the watcher's
// external edits), and a periodic background rescan (the memory's list(); a file is re-read when its size
// or modification time moved) catches anything an event missed. Queries never wait for that rescan.
//
// Files come only through the memory's API (list and read), by the paths the memory lists: search never
// builds a host path. What is indexed is what the memory tool itself can read: links, hard links, hidden
// names, files that are not UTF-8 text and files larger than `maxFileBytes` are not.
import type { FileContent, MemoryEntry } from '../types.js';
import { buildGrams, mayContain, queryGrams, type GramFilter } from './grams.js';
import { countLines, countLinesAfter, findInText, fold, type LineHit } from './match.js';

export const ROOT = '/memories';

export interface SearchHit extends LineHit {
  /** The model's path, e.g. /memories/notes/a.md. */
  path: string;
}

export interface SearchResult {
  hits: SearchHit[];
  /** More lines matched than `limit`. */
  truncated: boolean;
  /** Matching lines in all files, counted up to `countCap` (see `countCapped`). */
  total: number;
  countCapped: boolean;
  filesSearched: number;
}

type SourceEntry = Pick<MemoryEntry, 'path' | 'kind' | 'size' | 'modifiedAt'>;

/** What search needs of a Memory (a Memory is one). */
export interface SearchSource {
  list(): Promise<readonly SourceEntry[]>;
  read(path: string): Promise<Pick<FileContent, 'content'>>;
}

export interface SearchOptions {
  /** Where the files come from: the memory's own list() and read(), never the disk directly. */
  source: SearchSource;
  /** Files above this size are not indexed. Default 1 MiB (the tool's per-file cap is far lower). */
  maxFileBytes?: number;
  /** Background rescan at most this often, ms. Default 60 s; 0 = before every query (tests). */
  rescanIntervalMs?: number;
  /** Stop counting matches past this many. Default 10,000. */
  countCap?: number;
  clock?: () => number;
}

interface Entry {
  content: string;
  folded: string;
  grams: GramFilter;
  size: number;
  modifiedAt: string;
}

const READ_BATCH = 64;

export class MemorySearch {
  private readonly source: SearchSource;
  private readonly maxFileBytes: number;
  private readonly rescanIntervalMs: number;
  private readonly countCap: number;
  private readonly clock: () => number;
  private readonly entries = new Map<string, Entry>();
  private sorted: string[] | undefined;
  private readonly pending = new Set<string>();
  private built: Promise<void> | undefined;
  private rescanning: Promise<void> | undefined;
  private lastScan = 0;
  private closed = false;

  constructor(options: SearchOptions) {
    this.source = options.source;
    this.maxFileBytes = options.maxFileBytes ?? 1024 * 1024;
    this.rescanIntervalMs = options.rescanIntervalMs ?? 60_000;
    this.countCap = options.countCap ?? 10_000;
    this.clock = options.clock ?? Date.now;
  }

  /** A path changed (file or folder, any actor): it is re-read before the next query. */
  invalidate(modelPath: string): void {
    this.pending.add(modelPath);
  }

  /**
   * Drop the cached text at or under `modelPath` at once (a forget: the content must not stay in this
   * process's memory until the next query); the next query rescans it as usual.
   */
  dropNow(modelPath: string): void {
    for (const key of [...this.entries.keys()])
      if (key === modelPath || key.startsWith(modelPath + '/')) {
        this.entries.delete(key);
        this.sorted = undefined;
      }
    this.pending.add(modelPath);
  }

  /** Build the index now (e.g. at startup) instead of on the first query. */
  warm(): Promise<void> {
    this.built ??= this.scan([ROOT], false);
    return this.built;
  }

  /** Re-stat everything and re-read what moved. */
  async refresh(): Promise<void> {
    await this.warm();
    await this.scan([ROOT], false);
  }

  /** Stop: a scan in progress ends at its next step (so a short CLI run does not wait for the index). */
  close(): void {
    this.closed = true;
  }

  get fileCount(): number {
    return this.entries.size;
  }

  async search(query: string, limit: number): Promise<SearchResult> {
    await this.warm();
    if (this.rescanIntervalMs === 0) await this.scan([ROOT], false);
    else this.maybeRescan();
    await this.applyPending();
    // Lines are the unit of a hit, so a line break in the query cannot match; treat it as a space.
    const needle = fold(query.replace(/[\r\n]+/g, ' '));
    const hits: SearchHit[] = [];
    let total = 0;
    let countCapped = false;
    const paths = this.sortedPaths();
    const grams = queryGrams(needle);
    for (const p of paths) {
      const entry = this.entries.get(p);
      if (!entry || !mayContain(entry.grams, grams)) continue;
      if (hits.length >= limit) {
        // Past the limit only the count is needed: no snippets, no ranges.
        total += countLines(entry.folded, needle, this.countCap - total);
      } else {
        findInText(entry.content, entry.folded, needle, (hit) => {
          total++;
          if (hits.length < limit) hits.push({ path: p, ...hit });
          return total < this.countCap && hits.length < limit;
        });
        // The file may have more matching lines than were detailed before the limit.
        if (hits.length >= limit) {
          const last = hits[hits.length - 1];
          if (last?.path === p)
            total += countLinesAfter(entry.folded, needle, last.line, this.countCap - total);
        }
      }
      if (total >= this.countCap) {
        countCapped = true;
        break;
      }
    }
    return { hits, truncated: total > hits.length, total, countCapped, filesSearched: paths.length };
  }

  private sortedPaths(): string[] {
    this.sorted ??= [...this.entries.keys()].sort();
    return this.sorted;
  }

  private maybeRescan(): void {
    if (this.rescanning || this.clock() - this.lastScan < this.rescanIntervalMs) return;
    this.rescanning = this.scan([ROOT], false)
      .catch(() => undefined)
      .finally(() => {
        this.rescanning = undefined;
      });
  }

  private async applyPending(): Promise<void> {
    if (this.pending.size === 0) return;
    const paths = [...this.pending];
    this.pending.clear();
    // A folder rename or delete arrives as one event: rescanning the subtree covers its files. What an
    // event names is read again even if its size and time look the same (two edits within a millisecond).
    await this.scan(paths, true);
  }

  /** Bring everything at or under each of `paths` up to date with what the memory lists. */
  private async scan(paths: readonly string[], force: boolean): Promise<void> {
    const under = (key: string, p: string): boolean => p === ROOT || key === p || key.startsWith(p + '/');
    if (paths.includes(ROOT)) this.lastScan = this.clock();
    const listed = await this.source.list().catch(() => undefined);
    if (!listed || this.closed) return; // a partial scan must not drop what it did not reach
    const files = listed.filter((e) => e.kind === 'file' && paths.some((p) => under(e.path, p)));
    const seen = new Set<string>();
    for (let i = 0; i < files.length; i += READ_BATCH) {
      if (this.closed) return;
      await Promise.all(files.slice(i, i + READ_BATCH).map((f) => this.update(f, seen, force)));
    }
    // Whatever was cached under these paths and is gone (or no longer indexable) leaves the index.
    for (const key of this.entries.keys())
      if (paths.some((p) => under(key, p)) && !seen.has(key)) this.drop(key);
  }

  private async update(file: SourceEntry, seen: Set<string>, force: boolean): Promise<void> {
    if (file.size > this.maxFileBytes) return;
    const cached = this.entries.get(file.path);
    if (!force && cached && cached.size === file.size && cached.modifiedAt === file.modifiedAt) {
      seen.add(file.path);
      return;
    }
    // The memory's own read: links, hard links and text that is not UTF-8 are refused there.
    const read = await this.source.read(file.path).catch(() => undefined);
    if (!read) return;
    if (!cached) this.sorted = undefined;
    const folded = fold(read.content);
    this.entries.set(file.path, {
      content: read.content,
      folded,
      grams: buildGrams(folded),
      size: file.size,
      modifiedAt: file.modifiedAt,
    });
    seen.add(file.path);
  }

  private drop(key: string): void {
    this.entries.delete(key);
    this.sorted = undefined;
  }
}
