// What a process did to folders it should leave alone: a snapshot of every entry's bytes and stat (taken
// when nothing runs there), and a watch on every folder of the tree while it runs, so a file that comes
// and goes between two snapshots (a lock taken and given back) is seen too.
import { createHash } from 'node:crypto';
import { type FSWatcher, watch } from 'node:fs';
import { lstat, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface EntryState {
  kind: 'dir' | 'file' | 'link' | 'other';
  mode: number;
  size: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  /** sha256 of a file's bytes. */
  sha256?: string;
}

/** Which entries of the root belong to the tree: a predicate on the root's entry names. */
export type RootFilter = (name: string) => boolean;

/** Every entry under `root` whose first segment passes `keep`: relative path -> its state. */
export async function snapshotTree(root: string, keep: RootFilter): Promise<Record<string, EntryState>> {
  const out: Record<string, EntryState> = {};
  const walk = async (rel: string): Promise<void> => {
    const names = (await readdir(path.join(root, rel))).sort();
    for (const name of rel === '' ? names.filter(keep) : names) {
      const r = path.join(rel, name);
      const st = await lstat(path.join(root, r));
      const kind = st.isDirectory() ? 'dir' : st.isFile() ? 'file' : st.isSymbolicLink() ? 'link' : 'other';
      out[r] = {
        kind,
        mode: st.mode,
        size: st.size,
        ino: st.ino,
        mtimeMs: st.mtimeMs,
        ctimeMs: st.ctimeMs,
        ...(kind === 'file'
          ? {
              sha256: createHash('sha256')
                .update(await readFile(path.join(root, r)))
                .digest('hex'),
            }
          : {}),
      };
      if (kind === 'dir') await walk(r);
    }
  };
  await walk('');
  return out;
}

export interface TreeWatch {
  /** Every change seen so far, as `relative/path (event)`, once all the changes made before the call are in. */
  changes(): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Watches the root (its entries that pass `keep`, and any new one that does) and every folder under those
 * entries. One inotify queue serves every watcher of a process, so a probe written after the watched
 * process ended arrives after all of that process's changes: `changes()` waits for it instead of sleeping.
 */
export async function watchTree(root: string, keep: RootFilter): Promise<TreeWatch> {
  const seen: string[] = [];
  const watchers: FSWatcher[] = [];
  const add = (rel: string, filter: (name: string) => boolean): void => {
    const w = watch(path.join(root, rel), (event, name) => {
      const n = name?.toString() ?? '?';
      if (filter(n)) seen.push(`${path.join(rel, n)} (${event})`);
    });
    watchers.push(w);
  };
  add('', keep);
  const dirs = Object.entries(await snapshotTree(root, keep)).filter(([, s]) => s.kind === 'dir');
  for (const [rel] of dirs) add(rel, () => true);
  const probeDir = await mkdtemp(path.join(tmpdir(), 'mnemo-watch-probe-'));
  let probes = 0;
  let arrived: (() => void) | undefined;
  watchers.push(watch(probeDir, () => arrived?.()));
  return {
    async changes() {
      const came = new Promise<void>((resolve) => (arrived = resolve));
      await writeFile(path.join(probeDir, `probe-${probes++}`), '');
      await came;
      return [...seen];
    },
    async close() {
      for (const w of watchers) w.close();
      await rm(probeDir, { recursive: true, force: true });
    },
  };
}
