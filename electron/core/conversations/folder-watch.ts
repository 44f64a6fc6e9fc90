// Following conversations another process starts or continues in our folder (a CLI run, a second window
// on the same data folder) while a window shows the list: the store loads the folder once at start and
// catches up with a file only when it is opened or written, so without this a conversation created
// elsewhere appeared only after a restart (and one discovered while its first answer was being written
// kept showing one message).
//
// One plain (non-recursive) watch on the folder: inotify on Linux, FSEvents/kqueue on macOS,
// ReadDirectoryChangesW on Windows; all cheap for one folder. A file's first event may come before its
// first line is written; a later event of the same file (or the next list) finds it complete. Where
// watching fails, a slow poll of the folder's names replaces it.
import { type FSWatcher, promises as fs, watch } from 'node:fs';
import { ID } from './folder-load.js';

/** What following a folder needs of the store. */
interface Followed {
  readonly dir: string;
  has(id: string): boolean;
  discover(): Promise<number>;
  refresh(id: string): Promise<number>;
}

const DEBOUNCE_MS = 50;
const POLL_MS = 5_000;

/** The ids of `dir`'s conversation files that `known` does not know (no file: none). */
export async function unknownFiles(dir: string, known: (id: string) => boolean): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names.flatMap((name) => {
    if (!name.endsWith('.jsonl')) return [];
    const id = name.slice(0, -'.jsonl'.length);
    return !known(id) && ID.test(id) ? [id] : [];
  });
}

/**
 * Calls `onChange` (debounced) with the ids whose files changed in `dir` (null: which is not known, look
 * at them all), until the returned stop is called.
 */
export function watchFolder(dir: string, onChange: (ids: ReadonlySet<string> | null) => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let poll: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  let ids: Set<string> | null = new Set();
  const soon = (id: string | null): void => {
    if (id === null) ids = null;
    else ids?.add(id);
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      const changed = ids;
      ids = new Set();
      onChange(changed);
    }, DEBOUNCE_MS);
    timer.unref();
  };
  const fallBack = (): void => {
    watcher?.close();
    watcher = undefined;
    poll ??= setInterval(() => onChange(null), POLL_MS).unref();
  };
  try {
    watcher = watch(dir, { persistent: false }, (_event, name) => {
      // Our own lock folders and temp files come and go all the time: only conversation files count.
      if (name === null) soon(null);
      else if (String(name).endsWith('.jsonl')) soon(String(name).slice(0, -'.jsonl'.length));
    });
    watcher.on('error', fallBack);
  } catch {
    fallBack();
  }
  return () => {
    watcher?.close();
    clearTimeout(timer);
    clearInterval(poll);
  };
}

/**
 * Follows `store`'s folder: new files are loaded, known ones caught up (a stat when unchanged; a
 * conversation this process is answering in is left to its run). `onCaughtUp` gets each id that got
 * records, so what was computed from the conversation is computed again. Returns the stop.
 */
export function followFolder(store: Followed, onCaughtUp: (id: string) => void): () => void {
  return watchFolder(store.dir, (ids) => {
    void (async () => {
      await store.discover().catch(() => 0);
      for (const id of ids ?? []) {
        if (!store.has(id)) continue;
        // Deleted elsewhere: the catch-up drops it (and tells the list).
        if ((await store.refresh(id).catch(() => 0)) > 0) onCaughtUp(id);
      }
    })();
  });
}
