// Checks and listings that read the cached tree: the pre-flight of a new name, and list().
import * as path from 'node:path';
import { MemoryError } from './errors.js';
import { linkError, lstatOrNull } from './fs-safe.js';
import type { MemoryStore } from './memory.js';
import { joinModel, type ParsedPath } from './paths.js';
import { namesFoldingLike } from './tree.js';
import type { MemoryEntry } from './types.js';

/**
 * Before journaling a new file at `p`: every existing parent must be a real folder, and no name may
 * differ from an existing sibling only by case or Unicode form (they would collide on macOS/Windows).
 */
export async function preflightNew(store: MemoryStore, p: ParsedPath, ignore?: string): Promise<void> {
  let host = store.root;
  let dir = store.tree.root;
  for (let i = 0; i < p.segments.length; i++) {
    const seg = p.segments[i]!;
    const isLast = i === p.segments.length - 1;
    host = path.join(host, seg);
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
    if (!isLast) {
      const st = await lstatOrNull(host);
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

export async function listEntries(store: MemoryStore): Promise<MemoryEntry[]> {
  await store.settle();
  const out: MemoryEntry[] = [];
  const now = store.clock();
  const walk = (segs: string[]): void => {
    const node = store.tree.get(segs);
    if (!node || node.kind !== 'dir') return;
    for (const name of [...node.children.keys()].sort()) {
      const child = node.children.get(name)!;
      if (child.kind === 'other' || name.startsWith('.')) continue;
      const s = [...segs, name];
      const p = joinModel(s);
      const lastRead = store.lastRead.get(p) ?? null;
      out.push({
        path: p,
        kind: child.kind,
        size: child.kind === 'file' ? child.size : 0,
        modifiedAt: new Date(child.mtimeMs).toISOString(),
        lastReadAt: lastRead === null ? null : new Date(lastRead).toISOString(),
        stale: child.kind === 'file' && store.isStale(p, child.mtimeMs, now),
      });
      if (child.kind === 'dir') walk(s);
    }
  };
  walk([]);
  return out;
}
