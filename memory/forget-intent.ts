// The intent record of a forget: before a forget erases anything, it writes down what it is about to erase
// (every name the file had and every version of its content), so that the app can erase the copies it keeps
// elsewhere (conversations, logs, indexes) and so that a forget cut short by a crash is finished at the next
// start. The record holds the very content being forgotten: it lives only until the forget is complete
// (settleForget removes it), in memory-journal/forget-pending/, owner-only.
import { randomUUID } from 'node:crypto';
import { constants, type FSWatcher, mkdirSync, promises as fsp, watch } from 'node:fs';
import * as path from 'node:path';
import { DIR_MODE, FILE_MODE, fsyncDir, lstatOrNull } from './fs-safe.js';
import type { Kernel } from './kernel.js';
import { isWithin, ROOT } from './paths.js';
import type { ForgetTrace } from './types.js';

const PENDING = 'forget-pending';
const SUFFIX = '.json';
const ID = /^[0-9a-f-]{36}$/;

const pendingDir = (store: Kernel): string => path.join(store.journalDir, PENDING);

/** Every name `p` had: its own, and every name a rename chain into it started from. */
export function namesOf(store: Kernel, p: string): Set<string> {
  const names = new Set([p]);
  const touches = (x: string | undefined): boolean =>
    x !== undefined && [...names].some((n) => isWithin(x, n));
  for (let grew = true; grew;) {
    grew = false;
    for (const r of store.wal.entries)
      if (r.newPath && touches(r.newPath) && !touches(r.path)) {
        names.add(r.path);
        grew = true;
      }
  }
  return names;
}

/** Every content the journal holds for these names, and what is on disk under `host` now. */
async function versionsOf(store: Kernel, names: Set<string>, host: string): Promise<string[]> {
  const touches = (x: string | undefined): boolean =>
    x !== undefined && [...names].some((n) => isWithin(x, n));
  const hashes = new Set<string>();
  for (const r of store.wal.entries)
    if (touches(r.path) || touches(r.newPath)) for (const h of [r.before, r.after]) if (h) hashes.add(h);
  const out = new Set<string>();
  for (const h of hashes) {
    const bytes = await store.wal.blob(h);
    if (bytes) out.add(bytes.toString('utf8'));
  }
  for (const text of await readTree(host)) out.add(text);
  out.delete('');
  return [...out];
}

/** The regular files at or under `host` (links are never followed), as text. */
async function readTree(host: string): Promise<string[]> {
  const st = lstatOrNull(host);
  if (!st) return [];
  if (st.isFile()) return [await fsp.readFile(host, 'utf8').catch(() => '')];
  if (!st.isDirectory()) return [];
  const out: string[] = [];
  for (const name of await fsp.readdir(host).catch(() => [] as string[]))
    out.push(...(await readTree(path.join(host, name))));
  return out;
}

/** Collects what forgetting `p` erases and writes it down durably; called under the memory lock. */
export async function writeForgetIntent(
  store: Kernel,
  p: string,
  names: Set<string>,
  host: string,
): Promise<ForgetTrace> {
  const trace: ForgetTrace = {
    id: randomUUID(),
    path: p,
    paths: [...names],
    versions: await versionsOf(store, names, host),
  };
  await writeIntent(store, trace);
  return trace;
}

/**
 * The memory part is done (and on disk): a later start must not redo it, since by then a new file may
 * have been made at the same path.
 */
export async function markMemoryDone(store: Kernel, trace: ForgetTrace): Promise<ForgetTrace> {
  const done = { ...trace, memoryDone: true };
  await writeIntent(store, done);
  return done;
}

async function writeIntent(store: Kernel, trace: ForgetTrace): Promise<void> {
  const dir = pendingDir(store);
  await fsp.mkdir(dir, { mode: DIR_MODE }).catch((err: { code?: string }) => {
    if (err.code !== 'EEXIST') throw err;
  });
  const file = path.join(dir, trace.id + SUFFIX);
  const tmp = `${file}.tmp`;
  const fd = await fsp.open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, FILE_MODE);
  try {
    await fd.writeFile(JSON.stringify(trace));
    await fd.sync();
  } finally {
    await fd.close();
  }
  await fsp.rename(tmp, file);
  await fsyncDir(dir);
}

/** Forgets whose intent was written but that were not settled (a crash, or a failure on the way). */
export async function readForgetIntents(store: Kernel, tidy = true): Promise<ForgetTrace[]> {
  const dir = pendingDir(store);
  const out: ForgetTrace[] = [];
  for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
    const file = path.join(dir, name);
    // A temp file was never renamed into place: its forget had not started erasing anything (at a start;
    // while the app runs, another process may be writing it).
    if (!name.endsWith(SUFFIX)) {
      if (tidy) await fsp.rm(file, { force: true });
      continue;
    }
    try {
      const t = JSON.parse(await fsp.readFile(file, 'utf8')) as Partial<ForgetTrace>;
      if (
        typeof t.id === 'string' &&
        ID.test(t.id) &&
        typeof t.path === 'string' &&
        (t.path === ROOT || t.path.startsWith(ROOT + '/')) &&
        Array.isArray(t.paths) &&
        Array.isArray(t.versions)
      )
        out.push({
          id: t.id,
          path: t.path,
          paths: t.paths.filter((x): x is string => typeof x === 'string'),
          versions: t.versions.filter((x): x is string => typeof x === 'string'),
          ...(t.memoryDone === true ? { memoryDone: true } : {}),
        });
    } catch {
      // Unreadable: nothing can be finished from it, and it may hold forgotten text.
      if (tidy) await fsp.rm(file, { force: true });
    }
  }
  return out;
}

const WATCH_DEBOUNCE_MS = 50;
const WATCH_POLL_MS = 2_000;

/**
 * Follows the intent records' folder (made if missing, so it can be watched): one plain watch, debounced;
 * where watching fails, a slow poll replaces it. The callback looks at the records itself.
 */
export function watchForgetIntents(store: Kernel, onChange: () => void): () => void {
  const dir = pendingDir(store);
  let timer: NodeJS.Timeout | undefined;
  let poll: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;
  const soon = (): void => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      onChange();
    }, WATCH_DEBOUNCE_MS);
    timer.unref();
  };
  const fallBack = (): void => {
    watcher?.close();
    watcher = undefined;
    poll ??= setInterval(onChange, WATCH_POLL_MS).unref();
  };
  try {
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    watcher = watch(dir, { persistent: false }, soon);
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

/** The forget is complete everywhere: its record, the last copy of the content, goes. */
export async function removeForgetIntent(store: Kernel, id: string): Promise<void> {
  if (!ID.test(id)) return;
  const dir = pendingDir(store);
  await fsp.rm(path.join(dir, id + SUFFIX), { force: true });
  await fsyncDir(dir).catch(() => undefined);
}

/** A journal rewrite cut short by a crash leaves its temp file, full of old contents: remove it. */
export async function removeRewriteLeftovers(store: Kernel): Promise<void> {
  const base = path.basename(store.wal.file) + '.rewrite-';
  for (const name of await fsp.readdir(store.journalDir).catch(() => [] as string[]))
    if (name.startsWith(base)) await fsp.rm(path.join(store.journalDir, name), { force: true });
}
