// After "Forget permanently", the space's git folder keeps no version of what was forgotten: git objects
// are addressed by their content, so erasing means building a new folder from the objects still wanted and
// putting it in the old one's place. Every commit the device keeps (its head, the remote head it last
// merged, the backups) becomes a root commit of its tree without the forgotten files and with the
// conversations redacted; the old history goes. The remote's history still holds the versions until this
// device's next sync pushes a root of its own in place of the remote's head (`rewritePending`, push in
// engine.ts), which the other devices re-join by its marker (history.ts).
import { copyFileSync, existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isWithin } from '../../../memory/index.js';
import { crashPoint } from '../../../memory/fs-safe.js';
import { lockFile } from '../conversations/lock.js';
import type { SyncPaths } from './config.js';
import { finishSwap, GitStore, SWAP_READY, swapPaths, type TreeEntry } from './git-store.js';
import { areaOf } from './merge.js';
import { SET_ASIDE_FILE } from './object-size.js';
import { writePack } from './pack-writer.js';
import { memoryPathOf } from './space-io.js';
import { loadState, saveState } from './state.js';

/** What one forget erased, as the git folder needs it. */
export interface Forgotten {
  /** The memory paths forgotten (a file or a folder, and every earlier name). */
  paths: readonly string[];
  /** A conversation's bytes with every copy redacted; null when nothing in them changed. */
  redactConversation(content: Buffer): Buffer | null;
}

/**
 * Git folders whose sync lock this process holds right now: a forget made meanwhile (a tombstone the sync
 * applies) is purged when the sync ends, under the same lock, and not in the middle of it.
 */
const syncing = new Map<string, Forgotten[]>();

export function syncStarted(gitdir: string): void {
  syncing.set(gitdir, []);
}

/** The forgets to purge that arrived while the sync ran. */
export function syncEnded(gitdir: string): Forgotten[] {
  const deferred = syncing.get(gitdir) ?? [];
  syncing.delete(gitdir);
  return deferred;
}

const NOTHING: Forgotten = { paths: [], redactConversation: () => null };

/** The sync pushed a new root: the history before it leaves the git folder when the sync ends. */
export function deferPurge(gitdir: string): void {
  syncing.get(gitdir)?.push(NOTHING);
}

const LOCK_WAIT_MS = 10_000;

/** The sync lock of a space (engine.ts takes the same). */
export function syncLockFile(paths: SyncPaths, spaceId: string): string {
  return path.join(path.dirname(paths.lockFile), spaceId);
}

/** Purges the space's git folder of `forgotten` now, or when this process's sync of it ends. */
export async function purgeForgotten(paths: SyncPaths, spaceId: string, forgotten: Forgotten): Promise<void> {
  const deferred = syncing.get(paths.gitdir);
  if (deferred) {
    deferred.push(forgotten);
    return;
  }
  if (!existsSync(paths.gitdir) && !existsSync(swapPaths(paths.gitdir).next)) return;
  const lock = await lockFile(syncLockFile(paths, spaceId), { waitMs: LOCK_WAIT_MS });
  if (!lock) throw Object.assign(new Error('The space is syncing in another window.'), { code: 'EBUSY' });
  try {
    await purgeLocked(paths, [forgotten]);
  } finally {
    lock.releaseSync();
  }
}

/** The purge itself; the caller holds the sync lock. True when the kept history changed. */
export async function purgeLocked(paths: SyncPaths, forgotten: readonly Forgotten[]): Promise<boolean> {
  finishSwap(paths.gitdir);
  if (!existsSync(path.join(paths.gitdir, 'HEAD'))) return false;
  const git = new GitStore(paths.gitdir);
  const state = loadState(paths.stateFile);
  const clean = cleaner(git, forgotten);

  const mainOld = await git.ref('refs/heads/main');
  const main = mainOld ? await clean.commit(mainOld) : null;
  const base = state.lastRemote ? await clean.commit(state.lastRemote) : null;
  const backups = new Map<string, string>();
  for (const ref of await git.listRefs('refs/sync')) {
    const oid = await git.ref(ref);
    const kept = oid ? await clean.commit(oid) : null;
    if (kept) backups.set(ref, kept);
  }
  const foreign: typeof state.foreign = {};
  for (const [key, f] of Object.entries(state.foreign))
    if ((await clean.entry({ segs: f.segs, mode: f.mode, oid: f.oid })).keep) foreign[key] = f;

  const keep = [main, base, ...backups.values()].filter((x): x is string => x !== null);
  // A set-aside stand-in is as large as what it stands for and never read: it stays behind, and so does
  // its record (readBlobCapped refuses it by that record, not by its content).
  const leave = new Set([...clean.tainted, ...git.setAsideIds()]);
  const objects = await reachable(
    git,
    keep,
    Object.values(foreign).map((f) => f.oid),
    leave,
  );
  const { next, old } = swapPaths(paths.gitdir);
  rmSync(next, { recursive: true, force: true });
  const fresh = new GitStore(next);
  await fresh.init();
  for (const type of ['blob', 'tree', 'commit'] as const) {
    const ofType = new Map(
      [...objects].filter(([, o]) => o.type === type).map(([oid, o]) => [oid, o.content]),
    );
    if (ofType.size > 0) writePack(next, ofType, type);
  }
  if (main) await fresh.setRef('refs/heads/main', main);
  for (const [ref, oid] of backups) await fresh.setRef(ref, oid);
  const aside = path.join(paths.gitdir, SET_ASIDE_FILE);
  if (existsSync(aside)) copyFileSync(aside, path.join(next, SET_ASIDE_FILE));
  writeFileSync(path.join(next, SWAP_READY), '');
  crashPoint('purge-before-swap');
  renameSync(paths.gitdir, old);
  crashPoint('purge-mid-swap');
  renameSync(next, paths.gitdir);
  rmSync(old, { recursive: true, force: true });

  const changed = main !== mainOld || (base ?? undefined) !== state.lastRemote;
  if (base) state.lastRemote = base;
  else delete state.lastRemote;
  state.foreign = foreign;
  if (changed) {
    // The hashes it cached name blobs that may be gone: every file is read again at the next sync.
    state.stat = {};
    if (state.lastRemote || main) state.rewritePending = true;
  }
  saveState(paths.stateFile, state);
  return changed;
}

/**
 * Rewrites commits and trees without the forgotten files, and finds the conversation blobs that quote them
 * (`tainted`: never copied into the new folder). A tree keeps naming a tainted blob: what the merge needs
 * of the past is which version a file had, and a conversation is never merged by its text, so the name of
 * a version that is gone still tells "unchanged since" from "changed". A commit whose history holds nothing
 * forgotten is kept as it is; any other becomes a root commit of its cleaned tree.
 */
function cleaner(git: GitStore, forgotten: readonly Forgotten[]) {
  const tainted = new Set<string>();
  const checked = new Set<string>();
  const trees = new Map<string, { oid: string; dirty: boolean }>();
  const gone = (segs: readonly string[]): boolean =>
    areaOf(segs) === 'memory' && forgotten.some((f) => f.paths.some((p) => isWithin(memoryPathOf(segs), p)));
  /** True when the blob quotes something forgotten (it is then left behind). */
  const taints = async (oid: string): Promise<boolean> => {
    if (!checked.has(oid)) {
      checked.add(oid);
      if (await git.hasObject(oid)) {
        const content = await git.readBlob(oid);
        if (forgotten.some((f) => f.redactConversation(content) !== null)) tainted.add(oid);
      }
    }
    return tainted.has(oid);
  };
  const entry = async (e: TreeEntry): Promise<{ keep: boolean; dirty: boolean }> => {
    if (gone(e.segs)) return { keep: false, dirty: true };
    const dirty = areaOf(e.segs) === 'conversation' && (await taints(e.oid));
    return { keep: true, dirty };
  };
  // Level by level, each sub-tree once per place: the trees a long history shares cost one read.
  const tree = async (
    oid: string,
    prefix: readonly string[] = [],
  ): Promise<{ oid: string; dirty: boolean }> => {
    const key = `${prefix[0] ?? ''}\0${prefix.length}\0${oid}`;
    const known = trees.get(key);
    if (known) return known;
    const rows: TreeEntry[] = [];
    let changed = false;
    let dirty = false;
    for (const e of await git.readTreeLevel(oid)) {
      const segs = [...prefix, e.name];
      if (e.mode === '40000' && prefix.length < 16) {
        if (gone(segs)) {
          changed = dirty = true;
          continue;
        }
        const sub = await tree(e.oid, segs);
        if (sub.oid !== e.oid) changed = true;
        dirty ||= sub.dirty;
        rows.push({ segs: [e.name], mode: e.mode, oid: sub.oid });
        continue;
      }
      const r = await entry({ segs, mode: e.mode, oid: e.oid });
      dirty ||= r.dirty;
      if (r.keep) rows.push({ segs: [e.name], mode: e.mode, oid: e.oid });
      else changed = true;
    }
    const out = { oid: changed ? await git.writeTreeLevel(rows) : oid, dirty };
    trees.set(key, out);
    return out;
  };
  const kept = new Map<string, boolean>();
  /** True when the commit and all its history hold nothing forgotten (and every object is here). */
  const clean = async (top: string): Promise<boolean> => {
    const stack = [top];
    while (stack.length > 0) {
      const oid = stack[stack.length - 1]!;
      if (kept.has(oid)) {
        stack.pop();
        continue;
      }
      if (!(await git.hasObject(oid))) {
        kept.set(oid, false);
        stack.pop();
        continue;
      }
      const c = await git.readCommit(oid);
      const todo = c.parents.filter((p) => !kept.has(p));
      if (todo.length > 0) {
        stack.push(...todo);
        continue;
      }
      stack.pop();
      kept.set(oid, !(await tree(c.tree)).dirty && c.parents.every((p) => kept.get(p) === true));
    }
    return kept.get(top) === true;
  };
  const commit = async (oid: string): Promise<string | null> => {
    if (!(await git.hasObject(oid))) return null;
    if (await clean(oid)) return oid;
    return git.commit({
      tree: (await tree((await git.readCommit(oid)).tree)).oid,
      parents: [],
      message: "Mnemo: this device's copy, without the versions of forgotten files\n",
      device: 'Mnemo',
      at: Date.now(),
    });
  };
  return { commit, entry, tainted };
}

/** True when a commit of `head`'s history holds a file at (or inside) one of `paths`. */
export async function historyHolds(git: GitStore, head: string, paths: readonly string[]): Promise<boolean> {
  const seen = new Set<string>();
  const queue = [head];
  while (queue.length > 0) {
    const oid = queue.pop()!;
    if (seen.has(oid) || !(await git.hasObject(oid))) continue;
    seen.add(oid);
    const c = await git.readCommit(oid);
    for (const p of paths)
      if (await treeHas(git, c.tree, ['memories', ...p.split('/').slice(2)])) return true;
    queue.push(...c.parents);
  }
  return false;
}

async function treeHas(git: GitStore, tree: string, segs: readonly string[]): Promise<boolean> {
  let oid = tree;
  for (const [i, seg] of segs.entries()) {
    const e = (await git.readTreeLevel(oid)).find((x) => x.name === seg);
    if (!e) return false;
    if (i === segs.length - 1) return true;
    if (e.mode !== '40000') return false;
    oid = e.oid;
  }
  return false;
}

/** Every object reachable from `commits`, plus the loose `blobs`, but those to `leave`: oid → type and content. */
async function reachable(
  git: GitStore,
  commits: readonly string[],
  blobs: readonly string[],
  leave: ReadonlySet<string>,
): Promise<Map<string, { type: 'blob' | 'tree' | 'commit'; content: Buffer }>> {
  const out = new Map<string, { type: 'blob' | 'tree' | 'commit'; content: Buffer }>();
  const add = async (oid: string, type: 'blob' | 'tree' | 'commit'): Promise<Buffer | null> => {
    if (out.has(oid) || leave.has(oid) || !(await git.hasObject(oid))) return null;
    const o = await git.readObject(oid);
    if (o.type !== type) return null;
    out.set(oid, { type, content: o.content });
    return o.content;
  };
  const walkTree = async (oid: string): Promise<void> => {
    if (!(await add(oid, 'tree'))) return;
    for (const e of await git.readTreeLevel(oid)) {
      if (e.mode === '40000') await walkTree(e.oid);
      else if (e.mode !== '160000') await add(e.oid, 'blob');
    }
  };
  // A commit kept as it is has a clean history: its parents come along.
  const queue = [...commits];
  while (queue.length > 0) {
    const c = queue.pop()!;
    if (!(await add(c, 'commit'))) continue;
    const { tree, parents } = await git.readCommit(c);
    await walkTree(tree);
    queue.push(...parents);
  }
  for (const b of blobs) await add(b, 'blob');
  return out;
}
