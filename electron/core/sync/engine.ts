// One space's sync with its remote. Order, so that a kill at any point loses nothing and a rerun
// completes: (1) this device's changes become a commit in its own git folder; (2) the remote's head is
// asked for (one request when idle) and fetched when new; (3) the remote's changes are merged per file
// and applied to the space through its guarded paths; (4) a merge commit records what the space now
// holds; (5) it is pushed. A rerun after (3) finds the applied files equal on both sides.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { lockFile, type FileLock } from '../conversations/lock.js';
import {
  conflictDetail,
  listConflicts,
  resolveConflict,
  type ConflictDetail,
  type Resolution,
} from './conflicts.js';
import { applyDecisions, displayOf, parseSpaceInfo, type ApplyContext } from './apply-remote.js';
import { SyncConfigStore, syncPaths, writePrivate, type SyncPaths } from './config.js';
import { GitStore, RemoteError, type RemoteAuth, type TreeEntry } from './git-store.js';
import { flatTree } from './names.js';
import { areaOf, decide, type Decision } from './merge.js';
import { commitMessage, parseCommit, type ChangeProvenance } from './provenance.js';
import { emptyReport, SyncError, type SyncConflict, type SyncReport } from './report.js';
import { pushCommit } from './push.js';
import { SPACE_INFO_CAP_BYTES } from './limits.js';
import { snapshot } from './snapshot.js';
import { memoryPathOf, Refused, type SyncSpace } from './space-io.js';
import {
  newRewriteId,
  resolveRewritten,
  rewriteMessage,
  unseenRewrite,
  type HistoryParts,
} from './history.js';
import { deferPurge, historyHolds, purgeLocked, syncEnded, syncStarted } from './purge.js';
import { applyRemoteForgets, incomingRedactor, unseenForgets } from './remote-forgets.js';
import { localTombstones } from './tombstones.js';
import { isWithin } from '../../../memory/index.js';
import { loadState, saveState, type SyncState } from './state.js';
import type { KeyCipher } from '../key-vault.js';

/** What a person chose for one sync: the way on after the remote's history was rewritten elsewhere. */
export type SyncChoice = Pick<SyncOptions, 'resolve'>;

export interface SyncOptions {
  /** After a force-push elsewhere: push this device's copy over it, or take the remote's (after a backup). */
  resolve?: 'push-mine' | 'take-theirs';
  onProgress?: (phase: string, done: number, total: number) => void;
}

const LOCK_WAIT_MS = 10_000;
const LOCK_LOST =
  'Another window took over syncing this space while this sync was held up, so it stopped without writing more; nothing is lost, and the next sync carries on.';
const MAX_WALK = 200;

export class SpaceSync {
  readonly paths: SyncPaths;
  readonly config: SyncConfigStore;
  private readonly git: GitStore;
  /** The sync lock while a sync runs: checked between its steps (`owned`). */
  private lock: FileLock | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly space: SyncSpace,
    cipher?: KeyCipher,
  ) {
    this.paths = syncPaths(dataDir, space.id);
    this.config = new SyncConfigStore(this.paths, cipher);
    this.git = new GitStore(this.paths.gitdir);
  }

  configured(): boolean {
    return this.config.remote() !== undefined;
  }

  conflicts(): SyncConflict[] {
    return listConflicts(this.paths);
  }

  /** One open conflict with both versions and a merged draft (the memory panel's card). */
  conflict(id: string): Promise<ConflictDetail> {
    return conflictDetail(this.paths, this.space.memory, id);
  }

  /** Keep mine, keep theirs, or an edited text; the next sync sends the result. */
  resolve(id: string, how: Resolution): Promise<void> {
    return resolveConflict(this.paths, this.space.memory, id, how);
  }

  private auth(): RemoteAuth {
    const remote = this.config.remote();
    if (!remote) throw new SyncError('not_configured', 'This space has no sync remote yet.');
    const token = this.config.token();
    if (!token)
      throw new SyncError(
        'not_configured',
        'The sync token is missing on this device: set the remote again with its token.',
      );
    return { url: remote.url, username: remote.username, token };
  }

  /**
   * Before joining: what the remote holds. `otherSpace` is set when it holds a space with another id
   * than this one (joining merges the two: ask first).
   */
  async inspectRemote(): Promise<{ empty: boolean; otherSpace?: { id: string; name: string } }> {
    const auth = this.auth();
    await this.git.init();
    const head = await this.remote(() => this.git.remoteHead(auth));
    if (!head) return { empty: true };
    await this.remote(() => this.git.fetch(auth));
    const info = await this.remoteInfo(head);
    const mine = this.config.remote()?.remoteSpaceId ?? this.space.id;
    return info && info.id !== mine
      ? { empty: false, otherSpace: { id: info.id, name: info.name } }
      : { empty: false };
  }

  /** Accept the remote's space as this one's (after the person said yes). */
  adoptRemoteSpace(id: string): void {
    const remote = this.config.remote();
    if (remote) this.config.setRemote({ ...remote, remoteSpaceId: id });
  }

  async sync(options: SyncOptions = {}): Promise<SyncReport> {
    const auth = this.auth();
    mkdirSync(path.dirname(this.paths.lockFile), { recursive: true, mode: 0o700 });
    const lock = await lockFile(path.join(path.dirname(this.paths.lockFile), this.space.id), {
      waitMs: LOCK_WAIT_MS,
    });
    if (!lock) throw new SyncError('busy', 'Another window is syncing this space; try again in a moment.');
    this.lock = lock;
    syncStarted(this.paths.gitdir);
    try {
      await this.git.init();
      for (let attempt = 0; ; attempt++) {
        try {
          return await this.once(auth, options);
        } catch (error) {
          // Someone pushed between our fetch and our push: merge that too (a few times at most).
          if (error instanceof SyncError && error.kind === 'rejected' && attempt < 3) continue;
          throw error;
        }
      }
    } finally {
      // What a forget during this sync erased (a tombstone applied) leaves this device's git folder now,
      // whether or not the sync got through: its next push then rewrites the remote's history.
      const forgotten = syncEnded(this.paths.gitdir);
      try {
        if (forgotten.length > 0 && lock.held()) await purgeLocked(this.paths, forgotten);
      } finally {
        // Synchronously: an async release waits behind libuv's threads on every idle sync.
        lock.releaseSync();
        this.lock = undefined;
      }
    }
  }

  /**
   * Stops the sync once its lock is no longer ours (held up past the lock's stale time, another process
   * took it over): two syncs of one space would move the same refs and state. Before every write of refs,
   * state or the space, and after every wait for the remote.
   */
  private owned(): void {
    if (this.lock && !this.lock.held()) throw new SyncError('busy', LOCK_LOST);
  }

  private async once(auth: RemoteAuth, options: SyncOptions): Promise<SyncReport> {
    const report = emptyReport();
    const state = loadState(this.paths.stateFile);
    const remoteConfig = this.config.remote()!;
    const device = remoteConfig.device;
    const treeSpaceId = remoteConfig.remoteSpaceId ?? this.space.id;
    await this.retryPending(state, report);

    // (1) this device's changes, as a commit.
    let local = await this.localEntries(state, device, treeSpaceId, report);
    let head = await this.git.ref('refs/heads/main');
    const headTree = head ? (await this.git.readCommit(head)).tree : null;
    const localTree = await this.git.writeTree(local.values(), false);
    this.owned();
    if (localTree !== headTree) {
      const headEntries = headTree ? await this.flat(headTree) : new Map<string, TreeEntry>();
      await this.git.writeTree(local.values());
      const changes = changedKeys(headEntries, local).map((key) =>
        provenanceOf(key, this.journalProvenance, device),
      );
      const at = Date.now();
      head = await this.git.commit({
        tree: localTree,
        parents: head ? [head] : [],
        message: commitMessage(device, at, changes),
        device,
        at,
      });
      await this.git.setRef('refs/heads/main', head);
    }
    saveState(this.paths.stateFile, state);

    // (2) the remote.
    const remoteHead = await this.remote(() => this.git.remoteHead(auth));
    if (!remoteHead) {
      if (head) await this.push(auth, head, state, report, null);
      return finish(report, 'synced');
    }
    if (remoteHead === head && !state.rewritePending)
      return this.done(report, state, remoteHead, report.sent.length > 0);
    if (!(await this.git.hasObject(remoteHead)) || !(await this.git.isAncestor(remoteHead, head ?? ''))) {
      await this.remote(() => this.git.fetch(auth, options.onProgress));
    }
    const info = await this.remoteInfo(remoteHead);
    if (info && info.id !== treeSpaceId) {
      throw new SyncError(
        'other_space',
        `The remote now holds another space (“${info.name}”); nothing was changed here. Disconnect, or join it again to merge the two.`,
      );
    }
    let rejoin = false;
    if (
      !state.rewritePending &&
      state.lastRemote &&
      !(await this.git.isAncestor(state.lastRemote, remoteHead))
    ) {
      // Rewritten after a forget on another device (history.ts): re-join, keeping this device's changes.
      const marker = await unseenRewrite(this.git, remoteHead, state.rejoined ?? []);
      if (!marker || !(await this.git.hasObject(state.lastRemote))) {
        if (!options.resolve) {
          throw new SyncError(
            'rewritten',
            "The remote's history was rewritten (a force-push from elsewhere); nothing here was overwritten. Choose: push this device's copy over it, or take the remote's copy (this space is backed up first).",
          );
        }
        return resolveRewritten(this.parts(), auth, options.resolve, head!, remoteHead, state, report, local);
      }
      report.notes.push(
        `${marker.device} rewrote the remote's history without the versions of forgotten files; this device joined the new history and kept its own changes.`,
      );
      state.rejoined = [...(state.rejoined ?? []), marker.id];
      rejoin = true;
    }

    // (3) What another device forgot is forgotten here first, before anything of the remote is decided:
    // every version and copy on this device goes (even edits made here since), and what this device then
    // holds is what it merges and sends.
    const forgotten = await applyRemoteForgets(
      { dataDir: this.dataDir, space: this.space, git: this.git },
      await this.flat((await this.git.readCommit(remoteHead)).tree),
      report,
    );
    if (forgotten.length > 0) {
      report.held = [];
      local = await this.localEntries(state, device, treeSpaceId, report);
      // A merge on top of a history that holds the versions (this device's own, or a remote's nobody
      // rewrote) would send them back: what this device pushes is a new root instead.
      if (!rejoin || (await historyHolds(this.git, remoteHead, forgotten))) state.rewritePending = true;
    }
    // This device's forgets the remote has not seen: where its history holds versions of them (written
    // on other devices before the forget reached them), this device's push replaces that history too.
    const unseen = unseenForgets(
      localTombstones(this.dataDir, this.space.id),
      await this.flat((await this.git.readCommit(remoteHead)).tree),
    );
    if (!state.rewritePending && unseen.length > 0 && (await historyHolds(this.git, remoteHead, unseen)))
      state.rewritePending = true;
    if (state.rewritePending) {
      // This device's history was purged after a forget: the merge is against the remote head it last
      // merged (kept, purged, as a root), and the push makes the remote's history start again.
      const base =
        state.lastRemote && (await this.git.hasObject(state.lastRemote))
          ? state.lastRemote
          : head
            ? await this.git.mergeBase(head, remoteHead)
            : null;
      return this.merge(
        auth,
        { head, remoteHead, base, rejoin: true, forgotten },
        state,
        report,
        local,
        options,
      );
    }
    if (rejoin)
      return this.merge(
        auth,
        { head, remoteHead, base: state.lastRemote!, rejoin },
        state,
        report,
        local,
        options,
      );
    if (head && (await this.git.isAncestor(remoteHead, head))) {
      await this.push(auth, head, state, report, remoteHead);
      return finish(report, 'synced');
    }
    const base = head ? await this.git.mergeBase(head, remoteHead) : null;
    return this.merge(auth, { head, remoteHead, base }, state, report, local, options);
  }

  /** Provenance of the memory files the journal says changed since the last sync (the last snapshot's). */
  private journalProvenance = new Map<string, ChangeProvenance>();

  /**
   * The space as a tree now. A memory file held back (a credential another program wrote into it) keeps
   * what the remote last had of it (or nothing), never the new text.
   */
  private async localEntries(
    state: SyncState,
    device: string,
    treeSpaceId: string,
    report: SyncReport,
  ): Promise<Map<string, TreeEntry>> {
    const snap = await snapshot(this.dataDir, this.space, this.git, state, device, treeSpaceId);
    this.journalProvenance = snap.provenance;
    if (snap.held.length > 0) {
      const head = await this.git.ref('refs/heads/main');
      const before = head
        ? await this.flat((await this.git.readCommit(head)).tree)
        : new Map<string, TreeEntry>();
      for (const h of snap.held) {
        const e = before.get(h.key);
        if (e) snap.entries.set(h.key, e);
        report.held.push({ path: h.path, reason: `${h.reason}; not sent: take it out and it syncs` });
      }
    }
    state.lastJournalId = snap.journalHead;
    return snap.entries;
  }

  /**
   * (3) merge per file against `base`; (4) a commit of what the space now holds; (5) push it. A re-join
   * (the remote rewritten after a forget) merges against the tree this device last merged and gives the
   * commit the new root as its only parent: the old history never goes back.
   */
  private async merge(
    auth: RemoteAuth,
    m: {
      head: string | null;
      remoteHead: string;
      base: string | null;
      rejoin?: boolean;
      /** Paths forgotten by this sync's tombstones: what the base held there is no longer anyone's. */
      forgotten?: readonly string[];
    },
    state: SyncState,
    report: SyncReport,
    local: Map<string, TreeEntry>,
    options: SyncOptions,
  ): Promise<SyncReport> {
    const { head, remoteHead, base } = m;
    const device = this.config.remote()!.device;
    const baseEntries = base
      ? await this.flat((await this.git.readCommit(base)).tree)
      : new Map<string, TreeEntry>();
    const remoteEntries = await this.flat((await this.git.readCommit(remoteHead)).tree);
    // This device's forgets the remote has not seen yet (its tombstone is not there): what the remote
    // holds at those paths are versions of the forgotten files, never taken, and its conversations lose
    // the memory tool's copies of them on the way in.
    const unseen = unseenForgets(localTombstones(this.dataDir, this.space.id), remoteEntries);
    const under = (e: TreeEntry, paths: readonly string[]): boolean =>
      areaOf(e.segs) === 'memory' && paths.some((p) => isWithin(memoryPathOf(e.segs), p));
    for (const [key, e] of remoteEntries) if (under(e, unseen)) remoteEntries.delete(key);
    // A file created at a path forgotten by this sync's tombstones (on the remote, afterwards) arrives as
    // the new file it is.
    for (const [key, e] of baseEntries)
      if (under(e, [...unseen, ...(m.forgotten ?? [])])) baseEntries.delete(key);
    const { device: remoteDevice, changes } = await this.walkProvenance(remoteHead, m.rejoin ? null : base);
    const conflicts = this.conflicts();
    const ctx: ApplyContext = {
      dataDir: this.dataDir,
      space: this.space,
      git: this.git,
      state,
      remoteDevice,
      provenance: changes,
      conflictsDir: this.paths.conflictsDir,
      conflicts,
      report,
      base: baseEntries,
      local,
      ...(unseen.length > 0 ? { redactIncoming: incomingRedactor(unseen) } : {}),
      ...(options.onProgress
        ? { progress: (done: number, total: number) => options.onProgress!('applying', done, total) }
        : {}),
    };
    const decisions = decide(baseEntries, local, remoteEntries);
    this.owned();
    options.onProgress?.('applying', 0, decisions.length);
    const result = await applyDecisions(ctx, decisions);
    writePrivate(this.paths.conflictsFile, JSON.stringify(conflicts));
    // Hashes of files sync wrote are taken again next time (their times changed).
    for (const d of decisions) if (d.kind !== 'keep') delete state.stat[d.key];

    const tree = await this.git.writeTree(result.values());
    this.owned();
    const remoteTree = (await this.git.readCommit(remoteHead)).tree;
    const onTop = m.rejoin || !head || (await this.git.isAncestor(head, remoteHead));
    let merged: string;
    if (onTop && tree === remoteTree && !state.rewritePending) merged = remoteHead;
    else {
      const at = Date.now();
      const message = commitMessage(
        device,
        at,
        [],
        `Mnemo sync on ${device}: merged the changes of ${remoteDevice}`,
      );
      merged = await this.git.commit({
        tree,
        parents: head && !m.rejoin ? [head, remoteHead] : [remoteHead],
        message,
        device,
        at,
      });
    }
    await this.git.setRef('refs/heads/main', merged);
    state.lastRemote = remoteHead;
    saveState(this.paths.stateFile, state);
    if (merged !== remoteHead) merged = await this.push(auth, merged, state, report, remoteHead);
    return this.done(report, state, merged, false);
  }

  private done(report: SyncReport, state: SyncState, remote: string, pushed: boolean): SyncReport {
    state.lastRemote = remote;
    state.lastSyncAt = Date.now();
    saveState(this.paths.stateFile, state);
    const moved =
      pushed ||
      report.sent.length + report.received.length + report.conflicts.length + report.notes.length > 0;
    return finish(report, moved ? 'synced' : 'up-to-date');
  }

  /**
   * Pushes `oid` (a root of its tree instead, after a forget); returns what was pushed. What the remote
   * gains by it (this device's changes) is what the report calls sent.
   */
  private async push(
    auth: RemoteAuth,
    oid: string,
    state: SyncState,
    report: SyncReport,
    remoteHead: string | null,
    force = false,
  ): Promise<string> {
    const before =
      remoteHead && (await this.git.hasObject(remoteHead))
        ? await this.flat((await this.git.readCommit(remoteHead)).tree)
        : new Map<string, TreeEntry>();
    const after = await this.flat((await this.git.readCommit(oid)).tree);
    let rewriteId: string | undefined;
    if (state.rewritePending) {
      // After a forget, what goes is a root commit of the same tree, with the marker the other devices
      // re-join by: the remote's history then holds no version of what was forgotten. Its ref update names
      // the head it replaces, so a device that pushed meanwhile is merged first, never overwritten.
      rewriteId = newRewriteId();
      const device = this.config.remote()!.device;
      const at = Date.now();
      oid = await this.git.commit({
        tree: (await this.git.readCommit(oid)).tree,
        parents: [],
        message: rewriteMessage(device, at, rewriteId),
        device,
        at,
      });
    }
    this.owned();
    await this.git.setRef('refs/heads/main', oid);
    await this.remote(() => pushCommit(this.git, auth, oid, remoteHead, force));
    if (rewriteId) {
      state.rejoined = [...(state.rejoined ?? []), rewriteId];
      delete state.rewritePending;
      report.notes.push(
        "The remote's history now starts again without the versions of forgotten files; the other devices re-join it at their next sync, keeping their own changes.",
      );
      // The history before the root leaves this device's git folder at the end of the sync.
      deferPurge(this.paths.gitdir);
    }
    for (const key of changedKeys(before, after)) {
      const segs = (after.get(key) ?? before.get(key))!.segs;
      if (areaOf(segs) !== 'other' && key !== 'space.json') report.sent.push(displayOf(segs));
    }
    state.lastRemote = oid;
    state.lastSyncAt = Date.now();
    saveState(this.paths.stateFile, state);
    return oid;
  }

  /** Entries set aside only because they could not be applied then: applied now if they can be. */
  private async retryPending(state: SyncState, report: SyncReport): Promise<void> {
    const pending = Object.entries(state.foreign).filter(([, f]) => f.retry);
    if (pending.length === 0) return;
    const decisions: Decision[] = pending.map(([key, f]) => ({
      kind: 'take',
      key,
      remote: { segs: f.segs, mode: f.mode, oid: f.oid },
    }));
    const local = new Map<string, TreeEntry>();
    const ctx: ApplyContext = {
      dataDir: this.dataDir,
      space: this.space,
      git: this.git,
      state,
      remoteDevice: 'another device',
      provenance: new Map(),
      conflictsDir: this.paths.conflictsDir,
      conflicts: [],
      report,
      base: new Map(),
      local,
    };
    await applyDecisions(ctx, decisions);
  }

  /** The engine's steps that history.ts's choices use (bound: they stay private here). */
  private parts(): HistoryParts {
    return {
      dataDir: this.dataDir,
      space: this.space,
      paths: this.paths,
      git: this.git,
      device: () => this.config.remote()!.device,
      conflicts: () => this.conflicts(),
      flat: (tree) => this.flat(tree),
      push: (...args) => this.push(...args),
      walkProvenance: (head, base) => this.walkProvenance(head, base),
      done: (...args) => this.done(...args),
      remote: (fn) => this.remote(fn),
    };
  }

  private async flat(tree: string): Promise<Map<string, TreeEntry>> {
    return flatTree(await this.git.readTree(tree));
  }

  private async remoteInfo(head: string): Promise<{ id: string; name: string } | null> {
    const entries = await this.flat((await this.git.readCommit(head)).tree);
    const e = entries.get('space.json');
    if (!e) return null;
    try {
      const content = await this.git.readBlobCapped(e.oid, SPACE_INFO_CAP_BYTES);
      return content === 'too_large' ? null : parseSpaceInfo(content);
    } catch (error) {
      if (error instanceof Refused) return null;
      throw error;
    }
  }

  /** The remote's commits since the merge base: the device each change came from, and its provenance. */
  private async walkProvenance(
    head: string,
    base: string | null,
  ): Promise<{ device: string; changes: Map<string, ChangeProvenance> }> {
    const changes = new Map<string, ChangeProvenance>();
    let device: string | undefined;
    const queue = [head];
    const seen = new Set<string>(base ? [base] : []);
    while (queue.length > 0 && seen.size < MAX_WALK) {
      const oid = queue.shift()!;
      if (seen.has(oid)) continue;
      seen.add(oid);
      const c = await this.git.readCommit(oid);
      const parsed = parseCommit(c.message);
      device ??= parsed.device;
      for (const ch of parsed.changes)
        if (!changes.has(ch.p))
          changes.set(ch.p, { ...ch, device: ch.device ?? parsed.device ?? 'another device' });
      queue.push(...c.parents);
    }
    return { device: device ?? 'another device', changes };
  }

  private async remote<T>(fn: () => Promise<T>): Promise<T> {
    try {
      const answer = await fn();
      this.owned();
      return answer;
    } catch (error) {
      // Held up long enough to lose the lock, the request's own failure (a connection dropped meanwhile)
      // is not what the person needs to know.
      this.owned();
      if (error instanceof RemoteError)
        throw new SyncError(
          error.kind === 'other' || error.kind === 'not_found' ? 'failed' : error.kind,
          error.message,
        );
      throw error;
    }
  }
}

function finish(report: SyncReport, outcome: SyncReport['outcome']): SyncReport {
  report.outcome = outcome;
  return report;
}

function changedKeys(before: Map<string, TreeEntry>, after: Map<string, TreeEntry>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k)?.oid !== after.get(k)?.oid).sort();
}

function provenanceOf(key: string, journal: Map<string, ChangeProvenance>, device: string): ChangeProvenance {
  return (
    journal.get(key) ?? {
      p: key,
      actor: key.startsWith('memories/') ? 'external' : 'user',
      at: new Date().toISOString(),
      device,
    }
  );
}
