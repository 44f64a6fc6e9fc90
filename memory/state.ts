// Lazily persisted per-file state: last-read times (for staleness) and the size, mtime and hash we last saw
// (so startup can tell an external edit without hashing every file). A cache: losing it costs a rehash and
// the last few seconds of read times, never data.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { FILE_MODE } from './fs-safe.js';
import type { Kernel } from './kernel.js';
import { joinModel } from './paths.js';

export interface SavedFile {
  /** sha256 */
  h?: string;
  s?: number;
  m?: number;
  /** last read, ms */
  r?: number;
}
export interface SavedState {
  existed: boolean;
  files: Record<string, SavedFile>;
}

const fileOf = (dir: string): string => path.join(dir, 'state.json');

export async function loadState(journalDir: string): Promise<SavedState> {
  try {
    const parsed = JSON.parse(await fsp.readFile(fileOf(journalDir), 'utf8')) as {
      files?: Record<string, SavedFile>;
    };
    return { existed: true, files: parsed.files && typeof parsed.files === 'object' ? parsed.files : {} };
  } catch {
    return { existed: false, files: {} };
  }
}

/** Write the state (temp + rename). Last-read times merge with what another process saved (max wins). */
export async function saveState(store: Kernel): Promise<void> {
  // A saved entry without its hash would read as an outside edit at the next start.
  await store.hashPending();
  const previous = await loadState(store.journalDir);
  const files: Record<string, SavedFile> = {};
  for (const f of store.tree.files()) {
    const p = joinModel(f.segments);
    const r = Math.max(store.lastRead.get(p) ?? 0, previous.files[p]?.r ?? 0);
    if (r) store.lastRead.set(p, r);
    files[p] = { h: f.node.hash, s: f.node.size, m: f.node.mtimeMs, ...(r ? { r } : {}) };
  }
  const tmp = `${fileOf(store.journalDir)}.tmp-${process.pid}`;
  await fsp.writeFile(tmp, JSON.stringify({ version: 1, files }), { mode: FILE_MODE });
  await fsp.rename(tmp, fileOf(store.journalDir));
}
