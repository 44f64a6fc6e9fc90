// Open sync conflicts of a space: both versions of a memory file changed in the same place on two devices.
// This device's file stayed as it was; the other device's waits in DIR/sync/<space-id>.conflicts/ (outside
// what the model reads) with a merged draft, until the user keeps one, the other, or an edited text. The
// record goes only after the chosen text is saved, so neither version can vanish before that.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { isMemoryError, type Memory } from '../../../memory/index.js';
import { readJson, writePrivate, type SyncPaths } from './config.js';
import type { SyncConflict } from './report.js';

export interface ConflictDetail extends SyncConflict {
  /** This device's file now (null: it was deleted meanwhile). */
  mine: string | null;
  theirs: string;
  /** Both versions with conflict markers, as a starting point for an edit. Never written to memory as is. */
  draft: string;
}

export type Resolution = { keep: 'mine' } | { keep: 'theirs' } | { text: string };

export function listConflicts(paths: SyncPaths): SyncConflict[] {
  const list = readJson(paths.conflictsFile);
  return Array.isArray(list) ? (list as SyncConflict[]) : [];
}

export async function conflictDetail(paths: SyncPaths, memory: Memory, id: string): Promise<ConflictDetail> {
  const c = listConflicts(paths).find((x) => x.id === id);
  if (!c) throw new Error('That sync conflict is resolved already.');
  const read = (ext: string): string => readFileSync(path.join(paths.conflictsDir, `${c.id}.${ext}`), 'utf8');
  let mine: string | null = null;
  try {
    mine = (await memory.read(c.path)).content;
  } catch (error) {
    if (!(isMemoryError(error) && error.code === 'not_found')) throw error;
  }
  return { ...c, mine, theirs: read('theirs'), draft: read('draft') };
}

/** Saves the chosen text (through the memory's guarded write, as the user), then drops the record. */
export async function resolveConflict(
  paths: SyncPaths,
  memory: Memory,
  id: string,
  how: Resolution,
): Promise<void> {
  const detail = await conflictDetail(paths, memory, id);
  const text = 'keep' in how ? (how.keep === 'mine' ? detail.mine : detail.theirs) : how.text;
  if (text !== null && text !== detail.mine) await memory.write(detail.path, text, 'any', { kind: 'user' });
  writePrivate(paths.conflictsFile, JSON.stringify(listConflicts(paths).filter((x) => x.id !== id)));
  for (const ext of ['theirs', 'draft'])
    rmSync(path.join(paths.conflictsDir, `${id}.${ext}`), { force: true });
}
