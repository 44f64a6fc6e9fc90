// Rewriting the remote's history after "Forget permanently" (issue 16, point 5), and recognising such a
// rewrite on the other devices. A forget travels as a tombstone, but every earlier commit still holds the
// forgotten file's versions (and the conversations that quoted it). The rewrite replaces the remote's
// history by one root commit holding the space as it is now (the forget applied everywhere it reached),
// pushed with a ref update that names the head it replaces (so it never overwrites what another device
// pushed meanwhile). Its message carries a marker trailer; a device whose last merged head is no longer
// in the remote's history but which finds a marker it has not seen re-joins by itself: a three-way merge
// against the tree it last merged, with the new root as the only parent, so its unsynced changes are
// kept and the old history is never pushed back. A force-push without a marker still stops the sync and
// asks (push mine / take theirs).
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { applyDecisions, type ApplyContext } from './apply-remote.js';
import type { SyncPaths } from './config.js';
import type { GitStore, RemoteAuth, TreeEntry } from './git-store.js';
import type { Decision } from './merge.js';
import { commitMessage, parseCommit, type ChangeProvenance } from './provenance.js';
import type { SyncConflict, SyncReport } from './report.js';
import type { SyncSpace } from './space-io.js';
import type { SyncState } from './state.js';

/** What these steps need of the engine (SpaceSync hands its own, bound; no import back, no cycle). */
export interface HistoryParts {
  dataDir: string;
  space: SyncSpace;
  paths: SyncPaths;
  git: GitStore;
  device(): string;
  conflicts(): SyncConflict[];
  flat(tree: string): Promise<Map<string, TreeEntry>>;
  push(
    auth: RemoteAuth,
    oid: string,
    state: SyncState,
    report: SyncReport,
    remoteHead: string | null,
    force?: boolean,
  ): Promise<string>;
  walkProvenance(
    head: string,
    base: string | null,
  ): Promise<{ device: string; changes: Map<string, ChangeProvenance> }>;
  done(report: SyncReport, state: SyncState, remote: string, pushed: boolean): SyncReport;
  remote<T>(fn: () => Promise<T>): Promise<T>;
}

const stampNow = (): string => new Date().toISOString().replace(/[:.]/g, '-');

/** A folder of the data folder as the person may be told it (never the absolute host path). */
function relative(e: HistoryParts, p: string): string {
  return `${path.relative(e.dataDir, p).split(path.sep).join('/')}/ in the app's data folder`;
}

const TRAILER_REWRITE = 'Mnemo-Rewrite';
const ID = /^[0-9a-f]{24}$/;
/** How many commits are searched for a marker (a rewrite is a root, so it is the oldest one). */
const MAX_SEARCH = 20_000;

export interface RewriteMarker {
  id: string;
  device: string;
}

export function newRewriteId(): string {
  return randomBytes(12).toString('hex');
}

/** The new root's message: what happened, for a person reading `git log`, and the marker trailer. */
export function rewriteMessage(device: string, at: number, id: string): string {
  const message = commitMessage(
    device,
    at,
    [],
    `Mnemo sync on ${device}: history rewritten without the versions of forgotten files`,
  );
  return `${message}${TRAILER_REWRITE}: ${id}\n`;
}

export function markerOf(message: string): string | null {
  for (const line of message.split('\n')) {
    if (!line.startsWith(`${TRAILER_REWRITE}: `)) continue;
    const id = line.slice(TRAILER_REWRITE.length + 2).trim();
    if (ID.test(id)) return id;
  }
  return null;
}

/** A rewrite marker in `head`'s history that this device has not re-joined yet (null: none). */
export async function unseenRewrite(
  git: GitStore,
  head: string,
  seen: readonly string[],
): Promise<RewriteMarker | null> {
  const done = new Set<string>();
  const queue = [head];
  while (queue.length > 0 && done.size < MAX_SEARCH) {
    const oid = queue.pop()!;
    if (done.has(oid)) continue;
    done.add(oid);
    const c = await git.readCommit(oid);
    // Only a root can be a rewrite: a marker copied into an ordinary commit's message means nothing.
    if (c.parents.length === 0) {
      const id = markerOf(c.message);
      if (id && !seen.includes(id)) return { id, device: parseCommit(c.message).device ?? 'another device' };
    }
    queue.push(...c.parents);
  }
  return null;
}

/**
 * After a force-push elsewhere. push-mine: this device's copy replaces the remote's (whose head stays in
 * this device's git folder as refs/sync/backup-…). take-theirs: this space is copied aside first
 * (DIR/sync/<id>.backups/<time>/), then takes the remote's copy, deletions included.
 */
export async function resolveRewritten(
  e: HistoryParts,
  auth: RemoteAuth,
  how: 'push-mine' | 'take-theirs',
  head: string,
  remoteHead: string,
  state: SyncState,
  report: SyncReport,
  local: Map<string, TreeEntry>,
): Promise<SyncReport> {
  const stamp = stampNow();
  const backupRef = `refs/sync/backup-${stamp}`;
  await e.git.setRef(backupRef, how === 'push-mine' ? remoteHead : head);
  if (how === 'push-mine') {
    report.backup = `the remote's copy, kept on this device as ${backupRef} in ${relative(e, e.paths.gitdir)}`;
    await e.push(auth, head, state, report, remoteHead, true);
    report.notes.push("This device's copy replaced the remote's rewritten history.");
    report.outcome = 'synced';
    return report;
  }
  const backup = path.join(e.paths.backupsDir, stamp);
  report.backup = `this space as it was, in ${relative(e, backup)}`;
  mkdirSync(backup, { recursive: true, mode: 0o700 });
  if (existsSync(e.space.memory.root))
    cpSync(e.space.memory.root, path.join(backup, 'memories'), { recursive: true });
  if (existsSync(e.space.conversationsDir))
    cpSync(e.space.conversationsDir, path.join(backup, 'conversations'), {
      recursive: true,
      filter: (src) => !src.endsWith('.lock'),
    });
  const remoteEntries = await e.flat((await e.git.readCommit(remoteHead)).tree);
  const decisions: Decision[] = [...new Set([...local.keys(), ...remoteEntries.keys()])]
    .filter((k) => local.get(k)?.oid !== remoteEntries.get(k)?.oid && k !== 'space.json')
    .map((key) => ({ kind: 'take', key, remote: remoteEntries.get(key) ?? null }));
  const { device, changes } = await e.walkProvenance(remoteHead, null);
  const ctx: ApplyContext = {
    dataDir: e.dataDir,
    space: e.space,
    git: e.git,
    state,
    remoteDevice: device,
    provenance: changes,
    conflictsDir: e.paths.conflictsDir,
    conflicts: e.conflicts(),
    report,
    base: local,
    local,
  };
  const result = await applyDecisions(ctx, decisions);
  const tree = await e.git.writeTree(result.values());
  const at = Date.now();
  const merged =
    tree === (await e.git.readCommit(remoteHead)).tree
      ? remoteHead
      : await e.git.commit({
          tree,
          parents: [remoteHead],
          message: commitMessage(
            e.device(),
            at,
            [],
            "Mnemo sync: took the remote's copy (kept what it refused)",
          ),
          device: e.device(),
          at,
        });
  await e.git.setRef('refs/heads/main', merged);
  const pushed = merged !== remoteHead ? await e.push(auth, merged, state, report, remoteHead) : merged;
  report.notes.push(
    "This space took the remote's copy; its previous contents are in a backup beside the space.",
  );
  state.stat = {};
  return e.done(report, state, pushed, true);
}
