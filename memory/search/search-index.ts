// Full-text search over the memory folder, from an in-memory copy of every file.
//
// The first query builds the index (every file read once). After that a query only scans the cached text:
// changes reach the index through the memory's change events (agent, user, import and the watcher's
// external edits), and a periodic background rescan (stat only; a file is re-read when its size, mtime,
// ctime or inode moved) catches anything an event missed. Queries never wait for that rescan.
//
// What is indexed: the files the memory tool itself can read. Links (symbolic, and hard links, which could
// be a planted alias of a file outside the root), hidden names (leftover temp files) and files that are
// not UTF-8 text or are larger than `maxFileBytes` are skipped.
import { lstat, readdir, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { readRegular } from '../fs-safe.js';
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

export interface SearchOptions {
  /** Host path of the memory root (Memory.root). Never shown. */
  root: string;
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
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

const decoder = new TextDecoder('utf-8', { fatal: true });
const READ_BATCH = 64;

export class MemorySearch {
  private readonly root: string;
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
  private rootReal: Promise<string> | undefined;

  constructor(options: SearchOptions) {
    this.root = options.root;
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
    this.built ??= this.scan(ROOT);
    return this.built;
  }

  /** Re-stat everything and re-read what moved. */
  async refresh(): Promise<void> {
    await this.warm();
    await this.scan(ROOT);
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
    if (this.rescanIntervalMs === 0) await this.scan(ROOT);
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
    this.rescanning = this.scan(ROOT)
      .catch(() => undefined)
      .finally(() => {
        this.rescanning = undefined;
      });
  }

  private async applyPending(): Promise<void> {
    if (this.pending.size === 0) return;
    const paths = [...this.pending];
    this.pending.clear();
    // A folder rename or delete arrives as one event: rescanning the subtree covers its files.
    for (const p of paths) await this.scan(p);
  }

  /**
   * The host path of a model path (NFC). A name written decomposed on disk (macOS, some editors) is found
   * by its NFC form: where the plain join leads nowhere, each missing name is looked up in its folder.
   */
  private async toHost(modelPath: string): Promise<string | undefined> {
    if (modelPath === ROOT) return this.root;
    if (!modelPath.startsWith(ROOT + '/')) return undefined;
    const segments = modelPath.slice(ROOT.length + 1).split('/');
    if (segments.some((s) => s === '' || s === '.' || s === '..' || s.startsWith('.'))) return undefined;
    const joined = path.join(this.root, ...segments);
    const exists = await lstat(joined).then(
      () => true,
      () => false,
    );
    if (exists) return joined;
    let host = this.root;
    for (const seg of segments) {
      const names = await readdir(host).catch(() => [] as string[]);
      host = path.join(
        host,
        names.includes(seg) ? seg : (names.find((n) => n.normalize('NFC') === seg) ?? seg),
      );
    }
    return host;
  }

  /** Bring everything at or under `modelPath` up to date with the disk. */
  private async scan(modelPath: string): Promise<void> {
    const host = await this.toHost(modelPath);
    if (host === undefined) return;
    if (modelPath === ROOT) this.lastScan = this.clock();
    const seen = new Set<string>();
    const files: { model: string; host: string }[] = [];
    const stat = await lstat(host).catch(() => undefined);
    if (stat?.isDirectory()) await this.walk(host, modelPath, files);
    else if (stat?.isFile()) files.push({ model: modelPath, host });
    if (this.closed) return; // a partial walk must not drop what it did not reach
    for (let i = 0; i < files.length; i += READ_BATCH) {
      if (this.closed) return;
      await Promise.all(files.slice(i, i + READ_BATCH).map((f) => this.update(f.model, f.host, seen)));
    }
    if (stat?.isFile()) {
      if (!seen.has(modelPath) && this.entries.has(modelPath)) this.drop(modelPath);
      return;
    }
    // Whatever was cached under this path and is gone (or no longer indexable) leaves the index.
    const prefix = modelPath === ROOT ? ROOT + '/' : modelPath + '/';
    for (const key of this.entries.keys()) {
      if ((key === modelPath || key.startsWith(prefix)) && !seen.has(key)) this.drop(key);
    }
  }

  private async walk(dir: string, model: string, out: { model: string; host: string }[]): Promise<void> {
    if (this.closed) return;
    const items = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const sub: Promise<void>[] = [];
    // Two names equal in NFC are one model path: the one already in NFC (else the first) is indexed, as
    // the memory's tree reaches it; the other is not merged into it.
    const nfcFirst = (a: string): number => (a === a.normalize('NFC') ? 0 : 1);
    items.sort((a, b) => nfcFirst(a.name) - nfcFirst(b.name) || (a.name < b.name ? -1 : 1));
    const taken = new Set<string>();
    for (const item of items) {
      if (item.name.startsWith('.')) continue; // temp files of interrupted writes, hidden files
      // Model paths are NFC, as the memory lists them; the host path keeps the name as it is on disk.
      const name = item.name.normalize('NFC');
      if (taken.has(name)) continue;
      taken.add(name);
      const childModel = model === ROOT ? `${ROOT}/${name}` : `${model}/${name}`;
      const childHost = path.join(dir, item.name);
      if (item.isDirectory()) sub.push(this.walk(childHost, childModel, out));
      else if (item.isFile()) out.push({ model: childModel, host: childHost });
      // Symbolic links and special files are never followed.
    }
    await Promise.all(sub);
  }

  private async update(model: string, host: string, seen: Set<string>): Promise<void> {
    const stat = await lstat(host).catch(() => undefined);
    if (!stat?.isFile() || stat.nlink > 1 || stat.size > this.maxFileBytes) return;
    const cached = this.entries.get(model);
    if (
      cached &&
      cached.size === stat.size &&
      cached.mtimeMs === stat.mtimeMs &&
      cached.ctimeMs === stat.ctimeMs &&
      cached.ino === stat.ino
    ) {
      seen.add(model);
      return;
    }
    // The memory's own safe read: no link in the last component, the real path inside the real root (a
    // folder swapped for a link after the walk leads nowhere), no hard links.
    this.rootReal ??= realpath(this.root).catch(() => this.root);
    const read = await readRegular(host, await this.rootReal, model).catch(() => undefined);
    if (!read) return;
    const bytes = read.bytes;
    let content: string;
    try {
      content = decoder.decode(bytes);
    } catch {
      return; // not text
    }
    if (!cached) this.sorted = undefined;
    const folded = fold(content);
    this.entries.set(model, {
      content,
      folded,
      grams: buildGrams(folded),
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      ctimeMs: stat.ctimeMs,
      ino: stat.ino,
    });
    seen.add(model);
  }

  private drop(key: string): void {
    this.entries.delete(key);
    this.sorted = undefined;
  }
}
