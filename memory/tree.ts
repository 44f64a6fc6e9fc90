// The cached tree of the memory folder: what `view` of a folder and list() answer from, without touching
// the disk. Kept current by our own writes, by the journal of other processes, and by the watcher.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { TEMP_PREFIX } from './fs-safe.js';
import { foldName } from './paths.js';

export interface FileNode {
  kind: 'file';
  size: number;
  mtimeMs: number;
  /** sha256 hex, when known (we wrote it, or hashed it). */
  hash?: string;
}
export interface DirNode {
  kind: 'dir';
  mtimeMs: number;
  children: Map<string, Node>;
}
/** A symbolic link, a hard-linked file or anything else we never follow. Only deletion is allowed. */
export interface OtherNode {
  kind: 'other';
  mtimeMs: number;
}
export type Node = FileNode | DirNode | OtherNode;

export const newDir = (mtimeMs = Date.now()): DirNode => ({ kind: 'dir', mtimeMs, children: new Map() });

/**
 * Per folder, its names by folded form (case and Unicode form ignored), built on first use and kept
 * current by Tree.set/remove: the check that a new name does not collide with a sibling on macOS or
 * Windows then costs one lookup instead of folding every name in the folder.
 */
const foldedIndex = new WeakMap<DirNode, Map<string, Set<string>>>();

/** The names in `dir` whose folded form is that of `name` (`name` itself included if present). */
export function namesFoldingLike(dir: DirNode, name: string): ReadonlySet<string> {
  let index = foldedIndex.get(dir);
  if (!index) {
    index = new Map();
    for (const child of dir.children.keys()) addFolded(index, child);
    foldedIndex.set(dir, index);
  }
  return index.get(foldName(name)) ?? new Set();
}

function addFolded(index: Map<string, Set<string>>, name: string): void {
  const key = foldName(name);
  let names = index.get(key);
  if (!names) index.set(key, (names = new Set()));
  names.add(name);
}

function putChild(dir: DirNode, name: string, node: Node): void {
  if (!dir.children.has(name)) {
    const index = foldedIndex.get(dir);
    if (index) addFolded(index, name);
  }
  dir.children.set(name, node);
}

function deleteChild(dir: DirNode, name: string): void {
  if (!dir.children.delete(name)) return;
  const names = foldedIndex.get(dir)?.get(foldName(name));
  names?.delete(name);
}

export class Tree {
  root: DirNode = newDir();
  private bytes = 0;

  get totalBytes(): number {
    return this.bytes;
  }

  get(segments: readonly string[]): Node | undefined {
    let node: Node = this.root;
    for (const seg of segments) {
      if (node.kind !== 'dir') return undefined;
      const next = node.children.get(seg);
      if (!next) return undefined;
      node = next;
    }
    return node;
  }

  /** Put a node at `segments`, creating parent folders; replaces what was there. */
  set(segments: readonly string[], node: Node): void {
    if (segments.length === 0) {
      if (node.kind === 'dir') {
        this.root = node;
        this.bytes = sumBytes(node);
      }
      return;
    }
    let dir = this.root;
    for (const seg of segments.slice(0, -1)) {
      let next = dir.children.get(seg);
      if (!next || next.kind !== 'dir') {
        if (next) this.bytes -= sumBytes(next);
        next = newDir();
        putChild(dir, seg, next);
      }
      dir = next;
    }
    const name = segments[segments.length - 1]!;
    const old = dir.children.get(name);
    if (old) this.bytes -= sumBytes(old);
    putChild(dir, name, node);
    this.bytes += sumBytes(node);
  }

  remove(segments: readonly string[]): Node | undefined {
    if (segments.length === 0) return undefined;
    const parent = this.get(segments.slice(0, -1));
    if (!parent || parent.kind !== 'dir') return undefined;
    const name = segments[segments.length - 1]!;
    const old = parent.children.get(name);
    if (old) {
      deleteChild(parent, name);
      this.bytes -= sumBytes(old);
    }
    return old;
  }

  /** Every file below `segments` (or the file itself), as segment lists. */
  files(segments: readonly string[] = []): { segments: string[]; node: FileNode }[] {
    const out: { segments: string[]; node: FileNode }[] = [];
    const start = this.get(segments);
    const walk = (node: Node, segs: string[]): void => {
      if (node.kind === 'file') out.push({ segments: segs, node });
      else if (node.kind === 'dir')
        for (const [name, child] of [...node.children].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
          walk(child, [...segs, name]);
    };
    if (start) walk(start, [...segments]);
    return out;
  }
}

export function sumBytes(node: Node): number {
  if (node.kind === 'file') return node.size;
  if (node.kind === 'other') return 0;
  let total = 0;
  for (const child of node.children.values()) total += sumBytes(child);
  return total;
}

/**
 * Read a folder from disk with lstat only (links are recorded as 'other', never followed). Temp files of
 * interrupted writes are removed on the way when `removeTemps` is set (startup, under the process lock).
 */
export async function scanDir(hostDir: string, removeTemps: boolean): Promise<DirNode | undefined> {
  let st;
  try {
    st = await fsp.lstat(hostDir);
  } catch {
    return undefined;
  }
  if (!st.isDirectory()) return undefined;
  const dir = newDir(st.mtimeMs);
  const entries = await fsp.readdir(hostDir, { withFileTypes: true }).catch(() => []);
  await Promise.all(
    entries.map(async (e) => {
      const p = path.join(hostDir, e.name);
      if (e.name.startsWith(TEMP_PREFIX)) {
        if (removeTemps && e.isFile()) await fsp.unlink(p).catch(() => undefined);
        return;
      }
      if (e.isDirectory()) {
        const child = await scanDir(p, removeTemps);
        if (child) dir.children.set(e.name, child);
        return;
      }
      const s = await fsp.lstat(p).catch(() => undefined);
      if (!s) return;
      if (s.isFile() && s.nlink === 1)
        dir.children.set(e.name, { kind: 'file', size: s.size, mtimeMs: s.mtimeMs });
      else dir.children.set(e.name, { kind: 'other', mtimeMs: s.mtimeMs });
    }),
  );
  return dir;
}

/** A node for one path on disk (lstat), or undefined if nothing is there. */
export async function scanPath(hostPath: string): Promise<Node | undefined> {
  const s = await fsp.lstat(hostPath).catch(() => undefined);
  if (!s) return undefined;
  if (s.isDirectory()) return scanDir(hostPath, false);
  if (s.isFile() && s.nlink === 1) return { kind: 'file', size: s.size, mtimeMs: s.mtimeMs };
  return { kind: 'other', mtimeMs: s.mtimeMs };
}

export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  const units = ['K', 'M', 'G'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)}${units[i]}`;
}
