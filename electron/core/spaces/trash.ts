// Deleted spaces: DIR/spaces/.trash/<deletedAtMs>-<id>/, moved there whole by one rename. Emptying renames
// an entry to a ".gone-" name first, so a removal a crash cut short is never offered for restore, and the
// next emptying finishes it.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { TRASH_KEEP_DAYS } from '../../../shared/channels/spaces.js';
import { spaceCrashPoint } from './durable.js';
import { SPACE_FILE, spaceFileSchema, toSpace, type Space } from './model.js';

export const TRASH_FOLDER = '.trash';
/** How long a deleted space stays restorable (the window says how long: shared/channels/spaces.ts). */
export const TRASH_KEEP_MS = TRASH_KEEP_DAYS * 24 * 60 * 60 * 1000;
const GONE = '.gone-';
const ENTRY = /^(\d{1,16})-([a-z0-9]{4,32})$/;

export interface TrashedSpace extends Space {
  /** ISO time of the deletion. */
  deletedAt: string;
  /** ISO time from which the trash may erase it. */
  keptUntil: string;
  /** Absolute; never shown to a user or the model. */
  folder?: string;
}

export function keptUntil(deletedAtMs: number): string {
  return new Date(deletedAtMs + TRASH_KEEP_MS).toISOString();
}

/** Newest deletion first. */
export async function listTrash(trashDir: string): Promise<(TrashedSpace & { folder: string })[]> {
  const names = await fsp.readdir(trashDir).catch(() => [] as string[]);
  const out: (TrashedSpace & { folder: string })[] = [];
  for (const name of names) {
    const match = ENTRY.exec(name);
    if (!match) continue;
    const folder = path.join(trashDir, name);
    try {
      const parsed = spaceFileSchema.safeParse(
        JSON.parse(await fsp.readFile(path.join(folder, SPACE_FILE), 'utf8')),
      );
      if (!parsed.success || parsed.data.id !== match[2]) continue;
      const deletedAt = Number(match[1]);
      out.push({
        ...toSpace(parsed.data),
        deletedAt: new Date(deletedAt).toISOString(),
        keptUntil: keptUntil(deletedAt),
        folder,
      });
    } catch {
      continue;
    }
  }
  return out.sort((a, b) => (a.deletedAt < b.deletedAt ? 1 : -1));
}

/** Erases what a space owns outside its folder (sync's files); see registry.ts's OutsideFiles. */
export type EraseOutside = (id: string) => void | Promise<void>;

/**
 * Erases the entries deleted before `before`. What a space owns outside its folder goes once its entry is
 * renamed to ".gone-" and before the folder itself, so a crash between the two leaves a ".gone-" entry whose
 * next emptying erases both, never a space restorable without its sync.
 */
export async function emptyTrash(trashDir: string, before: number, erase?: EraseOutside): Promise<number> {
  const names = await fsp.readdir(trashDir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const match = ENTRY.exec(name);
    if (name.startsWith(GONE)) {
      const id = ENTRY.exec(name.slice(GONE.length))?.[2];
      if (id) await erase?.(id);
      await fsp.rm(path.join(trashDir, name), { recursive: true, force: true });
    } else if (match && Number(match[1]) < before) {
      const gone = path.join(trashDir, `${GONE}${name}`);
      await fsp.rename(path.join(trashDir, name), gone);
      spaceCrashPoint('space-trash-after-rename');
      await erase?.(match[2]!);
      await fsp.rm(gone, { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}
