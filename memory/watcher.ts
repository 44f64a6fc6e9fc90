// Notices edits made outside the app (the user's own editor, a sync tool) and journals them as 'external'.
// macOS and Windows: one recursive fs.watch on the root (FSEvents / ReadDirectoryChangesW). Linux: Node 20
// emulates `recursive` by stat-polling every file (fs.watchFile), which costs thousands of stats a second
// at 10,000 files, so there we put one plain inotify watch on each folder instead. Events are debounced;
// if watching is not possible, a slow poll of the whole tree replaces it.
import { watch, type FSWatcher } from 'node:fs';
import * as path from 'node:path';
import { TEMP_PREFIX, readRegular } from './fs-safe.js';
import type { JournalRecord } from './journal.js';
import { sha256 } from './content.js';
import type { Kernel } from './kernel.js';
import { joinModel, ROOT } from './paths.js';
import { diskName, scanPath, type Node } from './tree.js';

const POLL_MS = 5000;
const MAX_FOLDER_WATCHES = 4000;

export class Watcher {
  private fsw: FSWatcher | undefined;
  private readonly folders = new Map<string, FSWatcher>();
  private poll: NodeJS.Timeout | undefined;
  private timer: NodeJS.Timeout | undefined;
  private pending = new Set<string>();
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly store: Kernel,
    private readonly debounceMs: number,
  ) {}

  start(): void {
    if (process.platform !== 'linux') {
      try {
        this.fsw = watch(this.store.root, { recursive: true, persistent: false }, (_event, filename) =>
          this.note(filename === null ? '' : String(filename)),
        );
        this.fsw.on('error', () => this.fallBackToPolling());
      } catch {
        this.fallBackToPolling();
      }
      return;
    }
    this.syncFolderWatches();
  }

  /** Linux: one watch per folder of the cached tree; called at start and after every reconcile. */
  private syncFolderWatches(): void {
    if (this.stopped || this.poll || process.platform !== 'linux') return;
    const wanted = new Set<string>();
    const walk = (node: Node | undefined, rel: string): void => {
      if (node?.kind !== 'dir') return;
      wanted.add(rel);
      for (const [name, child] of node.children) {
        const disk = diskName(node, name);
        if (!name.startsWith('.') && name !== 'node_modules') walk(child, rel ? path.join(rel, disk) : disk);
      }
    };
    walk(this.store.tree.root, '');
    if (wanted.size > MAX_FOLDER_WATCHES) return this.fallBackToPolling();
    for (const [rel, w] of this.folders)
      if (!wanted.has(rel)) {
        w.close();
        this.folders.delete(rel);
      }
    for (const rel of wanted) {
      if (this.folders.has(rel)) continue;
      try {
        const w = watch(path.join(this.store.root, rel), { persistent: false }, (_event, filename) =>
          this.note(filename === null ? rel : rel ? path.join(rel, String(filename)) : String(filename)),
        );
        w.on('error', () => {
          w.close();
          this.folders.delete(rel);
        });
        this.folders.set(rel, w);
      } catch {
        // the folder went away meanwhile; the next reconcile will tell
      }
    }
  }

  private fallBackToPolling(): void {
    this.fsw?.close();
    this.fsw = undefined;
    for (const w of this.folders.values()) w.close();
    this.folders.clear();
    if (this.poll || this.stopped) return;
    this.poll = setInterval(() => this.note(''), POLL_MS);
    this.poll.unref();
  }

  private note(rel: string): void {
    if (this.stopped) return;
    if (path.basename(rel).startsWith(TEMP_PREFIX)) return;
    this.pending.add(rel);
    // Every change of ours is an event too (two for a rename): restart the pending timer rather than
    // make a new one for each.
    if (this.timer) this.timer.refresh();
    else {
      this.timer = setTimeout(() => void this.kick(), this.debounceMs);
      this.timer.unref();
    }
  }

  private kick(): Promise<void> {
    this.timer = undefined;
    const batch = [...this.pending];
    this.pending.clear();
    if (batch.length === 0) return this.running;
    this.running = this.running.then(() => this.reconcile(batch)).catch(() => undefined);
    return this.running;
  }

  /** Process what is pending now (list() calls this so a just-saved external edit shows up). */
  async drain(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      await this.kick();
    }
    await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.poll);
    this.fsw?.close();
    for (const w of this.folders.values()) w.close();
    this.folders.clear();
    await this.running;
  }

  /**
   * Compare the named paths (relative host paths; '' = everything) with the cache, and journal the
   * differences: a change another program made, recorded through the kernel's one path (plan 'outside').
   */
  private async reconcile(rels: string[]): Promise<void> {
    const store = this.store;
    // Events name paths by their disk names; a name that is not its own key (decomposed, not UTF-8)
    // is rescanned from its folder, which learns the mapping from the disk.
    const topsNow = (): string[][] =>
      rels.includes('') ? [[]] : rels.map((r) => store.tree.keysOfDisk(r.split(path.sep).filter(Boolean)));
    await store.transact({
      paths: topsNow().map(joinModel),
      errorPath: ROOT,
      journal: 'outside',
      prepare: async () => {
        const records: JournalRecord[] = [];
        const blobs = new Map<string, Buffer>();
        for (const segs of topsNow()) {
          if (segs.some((s) => s.startsWith('.') || s === 'node_modules')) continue;
          const fresh = await scanPath(store.hostOf(segs));
          const old = store.tree.get(segs);
          // The fresh nodes go in first: compare reads new files through hostOf, by their disk names.
          if (segs.length === 0) {
            if (fresh?.kind === 'dir') store.tree.set([], fresh);
          } else if (fresh) store.tree.set(segs, fresh);
          else store.tree.remove(segs);
          await this.compare(segs, old, fresh, records, blobs);
        }
        this.syncFolderWatches();
        return { records, blobs, steps: [], result: undefined };
      },
    });
  }

  private async compare(
    segs: string[],
    old: Node | undefined,
    fresh: Node | undefined,
    records: JournalRecord[],
    blobs: Map<string, Buffer>,
  ): Promise<void> {
    const store = this.store;
    if (segs.some((s) => s.startsWith('.'))) return;
    if (old?.kind === 'dir' || fresh?.kind === 'dir') {
      const names = new Set([
        ...(old?.kind === 'dir' ? old.children.keys() : []),
        ...(fresh?.kind === 'dir' ? fresh.children.keys() : []),
      ]);
      for (const name of names)
        await this.compare(
          [...segs, name],
          old?.kind === 'dir' ? old.children.get(name) : undefined,
          fresh?.kind === 'dir' ? fresh.children.get(name) : undefined,
          records,
          blobs,
        );
      if (old?.kind === 'file' || fresh?.kind === 'file')
        await this.compare(
          segs,
          old?.kind === 'file' ? old : undefined,
          fresh?.kind === 'file' ? fresh : undefined,
          records,
          blobs,
        );
      return;
    }
    const before = old?.kind === 'file' ? (old.hash ?? null) : null;
    let after: string | null = null;
    if (fresh?.kind === 'file') {
      if (old?.kind === 'file' && old.size === fresh.size && old.mtimeMs === fresh.mtimeMs) {
        fresh.hash = old.hash;
        return;
      }
      try {
        const { bytes } = await readRegular(store.hostOf(segs), store.realRoot, joinModel(segs));
        after = sha256(bytes);
        fresh.hash = after;
        blobs.set(after, bytes);
      } catch {
        return; // gone again or turned into a link: the next event will tell
      }
    }
    if (before === after) return;
    if (!old && !fresh) return;
    records.push(store.record({ kind: 'external' }, 'external', joinModel(segs), before, after));
  }
}
