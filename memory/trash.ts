// Deleted files and folders leave the memory folder by a rename into `<dataDir>/memory-journal/trash/` and
// are removed from the disk a little later (after the next checkpoint, at close, and at the next start if a
// crash left any). A rename only changes two folder entries; unlinking a file whose blocks are on the disk
// also frees them, about 0.3 ms more per file on ext4 (bench/memory), on the path the user or the model
// waits for. Nothing in the trash is ever read: the deleted content is in the journal before the rename
// (that is what Undo and Restore use), and a folder put there is gone from the tree at once.
import { randomId } from './ids.js';
import { promises as fsp, renameSync } from 'node:fs';
import * as path from 'node:path';
import { DIR_MODE, fsyncDir } from './fs-safe.js';

export class Trash {
  /** Whether something was put in the trash since it was last emptied by this process. */
  private filled = false;
  private emptying: Promise<void> = Promise.resolve();

  constructor(readonly dir: string) {}

  /** Creates the trash folder and removes what a crash left in it. */
  async open(): Promise<void> {
    await fsp.mkdir(this.dir, { mode: DIR_MODE }).catch((err: { code?: string }) => {
      if (err.code !== 'EEXIST') throw err;
    });
    this.filled = true;
    await this.empty();
  }

  /**
   * Takes `host` (a file, a link or a folder) out of the memory folder. Where a rename is not possible (the
   * trash is on another disk, or was removed by hand), it is removed at once instead: the promise of that
   * removal is returned (undefined when the rename took it).
   */
  take(host: string, isFolder: boolean): Promise<void> | undefined {
    const name = `${Date.now().toString(36)}-${randomId()}`;
    try {
      renameSync(host, path.join(this.dir, name)); // a metadata change: synchronous, as in renamePath
      this.filled = true;
      return undefined; // done: the caller need not wait for a turn of the event loop
    } catch {
      return isFolder ? fsp.rm(host, { recursive: true, force: true }) : fsp.unlink(host);
    }
  }

  /**
   * Removes everything in the trash (every entry, never the folder itself: another process on the same data
   * folder may be renaming into it). Failures are left for the next time. `always` also empties what
   * another process put there (a forget leaves no copy anywhere).
   */
  empty(always = false): Promise<void> {
    if (this.filled || always) {
      this.filled = false;
      this.emptying = this.emptying.then(() => this.removeAll());
    }
    return this.emptying;
  }

  private async removeAll(): Promise<void> {
    const names = await fsp.readdir(this.dir).catch(() => [] as string[]);
    for (const name of names)
      await fsp.rm(path.join(this.dir, name), { recursive: true, force: true }).catch(() => undefined);
    // Durably gone: a forget empties the trash so that no copy of what it erased survives a power cut.
    if (names.length > 0) await fsyncDir(this.dir).catch(() => undefined);
  }
}
