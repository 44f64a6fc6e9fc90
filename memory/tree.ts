// The cached tree of the memory folder: what `view` of a folder and list() answer from, without touching
// the disk. Kept current by our own writes, by the journal of other processes, and by the watcher.
import { promises as fsp, type Stats } from 'node:fs';
import * as path from 'node:path';
import { TEMP_PREFIX } from './fs-safe.js';
import { checkMemoryPath, foldName, ROOT } from './paths.js';

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
  /** Keyed by the name in NFC, the form every memory path takes (paths.ts normalises input). */
  children: Map<string, Node>;
  /**
   * A child's name on disk where it is not that NFC key: macOS and some editors write names decomposed
   * (NFD), and the disk must be addressed by the bytes it holds.
   */
  diskNames?: Map<string, string>;
}
/**
 * Why a name on disk cannot be used as a memory file: a link (never followed), a file with more than one
 * hard link (it may be a name of a file outside), a device, pipe or socket, a name that is not UTF-8 (no
 * memory path can name it), a name that equals another one of the folder once both are in NFC, or a
 * name that paths.ts refuses (so it could be listed but never opened).
 */
export type Unreachable = 'link' | 'hard-link' | 'special' | 'not-utf8' | 'same-name' | 'bad-name';
/** Something on disk that is never read or followed. Links can be deleted; nothing else is acted on. */
export interface OtherNode {
  kind: 'other';
  mtimeMs: number;
  why: Unreachable;
  isDir?: boolean;
  /** The name to show for a 'not-utf8' or 'same-name' entry, whose key is no name. */
  shown?: string;
  /** For 'bad-name': why paths.ts refuses the name (a reserved character, a device name, ...). */
  detail?: string;
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
  dir.diskNames?.delete(name);
  const names = foldedIndex.get(dir)?.get(foldName(name));
  names?.delete(name);
}

/** The name of `key` on disk in `dir`. */
export function diskName(dir: DirNode | undefined, key: string): string {
  return dir?.diskNames?.get(key) ?? key;
}

/**
 * Names that can never be a memory path segment (paths.ts refuses NUL), for the entries that have no
 * usable name: they stay in the tree, so listings and exports can say what was left out and why.
 */
const UNNAMED = '\u0000';
export function isUnnamed(key: string): boolean {
  return key.startsWith(UNNAMED);
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

  /** The segments as they are on disk (a key the tree does not hold is its own disk name). */
  diskSegments(segments: readonly string[]): string[] {
    const out: string[] = [];
    let node: Node | undefined = this.root;
    for (const seg of segments) {
      const dir: DirNode | undefined = node?.kind === 'dir' ? node : undefined;
      out.push(diskName(dir, seg));
      node = dir?.children.get(seg);
    }
    return out;
  }

  /**
   * The keys of a path named by its disk names (a watcher event), as far as they map one to one: the
   * path is cut at the first name that is not its own key (decomposed, not UTF-8, or shadowed by a
   * mapping), so the caller rescans that name's folder and learns the mapping from the disk.
   */
  keysOfDisk(diskSegs: readonly string[]): string[] {
    let node: Node | undefined = this.root;
    for (let i = 0; i < diskSegs.length; i++) {
      const seg = diskSegs[i]!;
      const dir: DirNode | undefined = node?.kind === 'dir' ? node : undefined;
      if (seg !== seg.normalize('NFC') || seg.includes('\ufffd') || dir?.diskNames?.has(seg))
        return diskSegs.slice(0, i);
      node = dir?.children.get(seg);
    }
    return [...diskSegs];
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

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A folder's names; `raw` holds the bytes of a name that is not UTF-8 (`name` is then a lossy form). */
async function readNames(hostDir: string): Promise<{ name: string; raw?: Buffer }[]> {
  const names = await fsp.readdir(hostDir).catch(() => [] as string[]);
  // Node decodes names lossily; only a replacement character can hide bytes that are not UTF-8.
  if (!names.some((n) => n.includes('\ufffd'))) return names.map((name) => ({ name }));
  const raw = await fsp.readdir(hostDir, { encoding: 'buffer' }).catch(() => [] as Buffer[]);
  return raw.map((bytes) => {
    try {
      return { name: utf8.decode(bytes) };
    } catch {
      return { name: bytes.toString('utf8'), raw: bytes };
    }
  });
}

/** Why no memory path can name `key` (an NFC name), or undefined. Hidden names are listings' business. */
function refusedName(key: string): string | undefined {
  if (key.startsWith('.')) return undefined;
  const checked = checkMemoryPath(`${ROOT}/${key}`);
  return checked.ok ? undefined : checked.message;
}

function badName(s: Stats, detail: string): OtherNode {
  const node: OtherNode = { kind: 'other', mtimeMs: s.mtimeMs, why: 'bad-name', detail };
  if (s.isDirectory()) node.isDir = true;
  return node;
}

function leafOf(s: Stats): Node {
  if (s.isFile() && s.nlink === 1) return { kind: 'file', size: s.size, mtimeMs: s.mtimeMs };
  const why: Unreachable = s.isSymbolicLink() ? 'link' : s.isFile() ? 'hard-link' : 'special';
  return { kind: 'other', mtimeMs: s.mtimeMs, why };
}

/**
 * Read a folder from disk with lstat only (links are recorded as 'other', never followed). Temp files of
 * interrupted writes are removed on the way when `removeTemps` is set (startup, under the process lock).
 * Children are keyed by their NFC name; where several names of the folder have the same NFC form, the one
 * already in NFC (else the first) holds the key and the others are kept as unreachable 'same-name'
 * entries, so that neither is silently merged into the other nor silently dropped.
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
  const names = await readNames(hostDir);
  const order = (a: string, b: string): number => {
    const an = a === a.normalize('NFC') ? 0 : 1;
    const bn = b === b.normalize('NFC') ? 0 : 1;
    return an - bn || (a < b ? -1 : a > b ? 1 : 0);
  };
  const keyed: { key: string; disk: string | Buffer; shown?: string; twin?: boolean }[] = [];
  const claimed = new Set<string>();
  for (const n of names.sort((a, b) => order(a.name, b.name))) {
    if (n.raw) {
      keyed.push({ key: `${UNNAMED}bytes:${n.raw.toString('hex')}`, disk: n.raw, shown: n.name });
      continue;
    }
    const key = n.name.normalize('NFC');
    if (claimed.has(key)) keyed.push({ key: `${UNNAMED}same:${n.name}`, disk: n.name, twin: true });
    else {
      claimed.add(key);
      keyed.push({ key, disk: n.name });
    }
  }
  await Promise.all(
    keyed.map(async ({ key, disk, shown, twin }) => {
      if (typeof disk === 'string' && disk.startsWith(TEMP_PREFIX)) {
        if (removeTemps) {
          const s = await fsp.lstat(path.join(hostDir, disk)).catch(() => undefined);
          if (s?.isFile()) await fsp.unlink(path.join(hostDir, disk)).catch(() => undefined);
        }
        return;
      }
      const p =
        typeof disk === 'string'
          ? path.join(hostDir, disk)
          : Buffer.concat([Buffer.from(hostDir + path.sep), disk]);
      const s = await fsp.lstat(p).catch(() => undefined);
      if (!s) return;
      let node: Node | undefined;
      const refusal = typeof disk === 'string' && !twin ? refusedName(key) : undefined;
      if (typeof disk !== 'string' || twin) {
        node = { kind: 'other', mtimeMs: s.mtimeMs, why: twin ? 'same-name' : 'not-utf8' };
        if (s.isDirectory()) node.isDir = true;
        node.shown = shown ?? (disk as string);
      } else if (refusal) node = badName(s, refusal);
      else node = s.isDirectory() ? await scanDir(p as string, removeTemps) : leafOf(s);
      if (!node) return;
      dir.children.set(key, node);
      if (typeof disk === 'string' && disk !== key) (dir.diskNames ??= new Map()).set(key, disk);
    }),
  );
  return dir;
}

/** A node for one path on disk (lstat), or undefined if nothing is there. */
export async function scanPath(hostPath: string): Promise<Node | undefined> {
  const s = await fsp.lstat(hostPath).catch(() => undefined);
  if (!s) return undefined;
  const refusal = refusedName(path.basename(hostPath).normalize('NFC'));
  if (refusal) return badName(s, refusal);
  if (s.isDirectory()) return scanDir(hostPath, false);
  return leafOf(s);
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
