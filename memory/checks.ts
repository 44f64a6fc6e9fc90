// Reads and checks a plan makes under the lock: the file at a path now, the cached hash, the pre-flight of
// a new name, the parent of something to delete; and list(), which reads the cached tree.
import { lstatSync } from 'node:fs';
import * as path from 'node:path';
import { sha256 } from './content.js';
import { MemoryError } from './errors.js';
import { linkError, lstatOrNull, readRegularSync } from './fs-safe.js';
import type { Kernel } from './kernel.js';
import { hasControl, joinModel, type ParsedPath } from './paths.js';
import { isUnnamed, namesFoldingLike, type DirNode, type Unreachable } from './tree.js';
import type { MemoryEntry, UnreachableEntry } from './types.js';

const DAY_MS = 86_400_000;

export interface CurrentFile {
  bytes: Buffer;
  hash: string;
  size: number;
}

/**
 * The file at `p` right now: its bytes and hash, or null when nothing is there. Folders and links are
 * refused with a clear message; the disk is the truth, not the cache.
 */
export async function current(k: Kernel, p: ParsedPath): Promise<CurrentFile | null> {
  let bytes: Buffer;
  try {
    // No lstat first: the open refuses a link (O_NOFOLLOW) and its fstat tells a folder.
    // Held open until the change ends, so the rename over it does not wait for the file to be freed.
    ({ bytes } = readRegularSync(k.hostOf(p.segments), k.realRoot, p.path, (fd) => k.holdReplaced(fd)));
  } catch (err) {
    if (err instanceof MemoryError && err.code === 'not_found') return null;
    throw err;
  }
  return { bytes, hash: sha256(bytes), size: bytes.length };
}

/**
 * The hash the cache holds for the file at `segments`, if the cache entry still describes the file
 * `st` (same size and modification time): saves reading a file we wrote or hashed ourselves.
 */
export function cachedHash(
  k: Kernel,
  segments: readonly string[],
  st: { size: number; mtimeMs: number },
): string | undefined {
  const node = k.tree.get(segments);
  if (node?.kind !== 'file' || !node.hash) return undefined;
  return node.size === st.size && node.mtimeMs === st.mtimeMs ? node.hash : undefined;
}

/**
 * The parent folder of `segments` must be reached without any link (else a delete could act outside):
 * every folder from the root down to it is a real folder. One lstat per level, as a write's folders are
 * checked (fs-safe ensureFolders); a realpath of the parent made one system call per level of the whole
 * host path, above the root too, which the open that made the real root had settled.
 */
export function assertRealParent(k: Kernel, segments: readonly string[]): void {
  const disk = k.tree.diskSegments(segments.slice(0, -1));
  let host = k.root;
  for (let i = 0; i < disk.length; i++) {
    host = path.join(host, disk[i]!);
    let st;
    try {
      st = lstatSync(host, { throwIfNoEntry: false });
    } catch {
      st = undefined; // ENOTDIR: a file on the way
    }
    if (!st?.isDirectory()) throw linkError(joinModel(segments.slice(0, i + 1)), 'symbolic');
  }
}

/**
 * Before journaling a new file at `p`: every existing parent must be a real folder, and no name may
 * differ from an existing sibling only by case or Unicode form (they would collide on macOS/Windows).
 */
export function preflightNew(
  k: Kernel,
  p: ParsedPath,
  ignore?: string,
  /** Leading folders of `p` this change checked already (a rename: the source's, by assertRealParent). */
  checked = 0,
): void {
  let host = k.root;
  let dir = k.tree.root;
  const disk = k.tree.diskSegments(p.segments);
  for (let i = 0; i < p.segments.length; i++) {
    const seg = p.segments[i]!;
    const isLast = i === p.segments.length - 1;
    host = path.join(host, disk[i]!);
    const existing = dir?.children.get(seg);
    if (!existing && dir) {
      for (const name of namesFoldingLike(dir, seg))
        if (joinModel([...p.segments.slice(0, i), name]) !== ignore)
          throw new MemoryError(
            'invalid_path',
            `"${seg}" differs only in letter case or Unicode form from the existing "${name}" in ${joinModel(p.segments.slice(0, i))}; ` +
              'on Windows and macOS they would be the same name. Use the existing name or a different one.',
          );
    }
    if (!isLast && i >= checked) {
      const st = lstatOrNull(host);
      if (st?.isSymbolicLink()) throw linkError(joinModel(p.segments.slice(0, i + 1)), 'symbolic');
      if (st && !st.isDirectory())
        throw new MemoryError(
          'not_a_folder',
          `${joinModel(p.segments.slice(0, i + 1))} is a file, so it cannot contain other files.`,
        );
      if (!st) return;
    }
    dir = existing?.kind === 'dir' ? existing : undefined!;
    if (!dir && !isLast) return;
  }
}

const REASONS: Record<Unreachable, string> = {
  link: 'It is a symbolic link; links are never followed, so what it points to is not included.',
  'hard-link':
    'It has more than one hard link, so it may be another name of a file outside memory; it is never read. ' +
    'Copy it to a regular file to include it.',
  special: 'It is not a regular file (a device, pipe or socket).',
  'not-utf8': 'Its name is not valid UTF-8, so no memory path can name it. Rename it with another program.',
  'bad-name': 'Its name cannot be a memory path.',
  'same-name':
    'Another name in this folder is the same once both are in Unicode NFC form, and only that one can be ' +
    'used. Rename one of them with another program.',
};

/** Control characters of a name on disk, shown as "?" (a report must not carry terminal sequences). */
const printable = (name: string): string => Array.from(name, (ch) => (hasControl(ch) ? '?' : ch)).join('');

export async function listUnreachable(k: Kernel): Promise<UnreachableEntry[]> {
  await k.settle();
  const out: UnreachableEntry[] = [];
  const walk = (dir: DirNode, segs: string[]): void => {
    for (const [name, child] of [...dir.children].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (name.startsWith('.')) continue;
      if (child.kind === 'dir') walk(child, [...segs, name]);
      else if (child.kind === 'other') {
        const shown = printable(isUnnamed(name) ? (child.shown ?? '?') : name);
        const kind = child.isDir ? 'dir' : 'file';
        const what =
          child.why === 'bad-name' && child.detail
            ? `${REASONS['bad-name']} ${child.detail} Rename it with another program.`
            : REASONS[child.why];
        out.push({
          path: `${joinModel(segs)}/${shown}${kind === 'dir' ? '/' : ''}`,
          kind,
          reason: kind === 'dir' ? `${what} Nothing in this folder is included.` : what,
        });
      }
    }
  };
  walk(k.tree.root, []);
  return out;
}

export function isStale(k: Kernel, p: string, mtimeMs: number, now = k.clock()): boolean {
  const last = Math.max(k.lastRead.get(p) ?? 0, mtimeMs);
  return now - last > k.limits.staleAfterDays * DAY_MS;
}

export async function listEntries(k: Kernel): Promise<MemoryEntry[]> {
  await k.settle();
  const out: MemoryEntry[] = [];
  const now = k.clock();
  const walk = (segs: string[]): void => {
    const node = k.tree.get(segs);
    if (!node || node.kind !== 'dir') return;
    for (const name of [...node.children.keys()].sort()) {
      const child = node.children.get(name)!;
      if (child.kind === 'other' || name.startsWith('.')) continue;
      const s = [...segs, name];
      const p = joinModel(s);
      const lastRead = k.lastRead.get(p) ?? null;
      out.push({
        path: p,
        kind: child.kind,
        size: child.kind === 'file' ? child.size : 0,
        modifiedAt: new Date(child.mtimeMs).toISOString(),
        lastReadAt: lastRead === null ? null : new Date(lastRead).toISOString(),
        stale: child.kind === 'file' && isStale(k, p, child.mtimeMs, now),
      });
      if (child.kind === 'dir') walk(s);
    }
  };
  walk([]);
  return out;
}
