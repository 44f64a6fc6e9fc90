// What a space's sync keeps outside the space's folder: everything in DIR/sync/ named after its id (the git
// folder, remote and token, state, lock, conflicts, tombstones, backups, and temp files of these). While
// the space is in the trash they stay, so that restoring it syncs again as before; when the trash erases
// the space, they are erased with it. Matched by the `<id>.` prefix, so a file sync adds later goes too:
// a space's id is 12 hex characters and never a prefix of another's.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { SYNC_FOLDER } from './config.js';

const OWNED = /^([0-9a-f]{12})\./;

/** The trash's view of them (spaces/registry.ts's OutsideFiles): who owns some, and erasing one's. */
export function syncFilesOf(dataDir: string): { owners(): string[]; erase(id: string): void } {
  const dir = path.join(dataDir, SYNC_FOLDER);
  const names = (): string[] => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };
  return {
    owners: () => [...new Set(names().flatMap((n) => OWNED.exec(n)?.[1] ?? []))],
    erase(id) {
      if (!/^[0-9a-f]{12}$/.test(id)) return;
      for (const name of names())
        if (name.startsWith(`${id}.`)) rmSync(path.join(dir, name), { recursive: true, force: true });
    },
  };
}
