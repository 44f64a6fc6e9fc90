// One space's sync with its remote. Order, so that a kill at any point loses nothing and a rerun
// completes: (1) this device's changes become a commit in its own git folder; (2) the remote's head is
// asked for (one request when idle) and fetched when new; (3) the remote's changes are merged per file
// and applied to the space through its guarded paths; (4) a merge commit records what the space now
// holds; (5) it is pushed. A rerun after (3) finds the applied files equal on both sides.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { lockFile } from '../conversations/lock.js';
import {
  conflictDetail,
  listConflicts,
  resolveConflict,
  type ConflictDetail,
  type Resolution,
} from './conflicts.js';
import { applyDecisions, displayOf, parseSpaceInfo, type ApplyContext } from './apply-remote.js';
import { SyncConfigStore, syncPaths, writePrivate, type SyncPaths } from './config.js';
import { GitStore, keyOf, RemoteError, type RemoteAuth, type TreeEntry } from './git-store.js';
import { areaOf, decide, type Decision } from './merge.js';
import { commitMessage, parseCommit, type ChangeProvenance } from './provenance.js';
import { emptyReport, SyncError, type SyncConflict, type SyncReport } from './report.js';
import { pushCommit } from './push.js';
import { SPACE_INFO_CAP_BYTES } from './limits.js';
import { snapshot } from './snapshot.js';
import { Refused, type SyncSpace } from './space-io.js';
import { resolveRewritten, rewriteHistory, unseenRewrite, type HistoryParts } from './history.js';
import { loadState, saveState, type SyncState } from './state.js';
import type { KeyCipher } from '../key-vault.js';

/** What a person chose for one sync: the ways on after a rewritten remote, or a rewrite after a forget. */
export type SyncChoice = Pick<SyncOptions, 'resolve' | 'rewrite'>;

export interface SyncOptions {
  /** After a force-push elsewhere: push this device's copy over it, or take the remote's (after a backup). */
  resolve?: 'push-mine' | 'take-theirs';
  /** After a forget: once synced, replace the remote's history by one without the forgotten versions. */
  rewrite?: boolean;
  onProgress?: (phase: string, done: number, total: number) => void;
}

const LOCK_WAIT_MS = 10_000;
const MAX_WALK = 200;

export class SpaceSync {
  readonly paths: SyncPaths;
  readonly config: SyncConfigStore;
  private readonly git: GitStore;

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
    try {
      await this.git.init();
      for (let attempt = 0; ; attempt++) {
        try {
          const report = await this.once(auth, options);
          if (options.rewrite)
            await rewriteHistory(this.parts(), auth, loadState(this.paths.stateFile), report);
          return report;
        } catch (error) {
          // Someone pushed between our fetch and our push: merge that too (a few times at most).
          if (error instanceof SyncError && error.kind === 'rejected' && attempt < 3) continue;
          throw error;
        }
      }
    } finally {
      // Synchronously: the async release queued behind libuv's threads took ~9 ms of every idle sync.
      lock.releaseSync();
    }
  }

  private async once(auth: RemoteAuth, options: SyncOptions): Promise<SyncReport> {
    const report = emptyReport();
    const state = loadState(this.paths.stateFile);
    const remoteConfig = this.config.remote()!;
    const device = remoteConfig.device;
    const treeSpaceId = remoteConfig.remoteSpaceId ?? this.space.id;
    await this.retryPending(state, report);

    // (1) this device's changes, as a commit.
    const snap = await snapshot(this.dataDir, this.space, this.git, state, device, treeSpaceId);
    let head = await this.git.ref('refs/heads/main');
    const headTree = head ? (await this.git.readCommit(head)).tree : null;
    if (snap.held.length > 0) {
      // Held back: the tree keeps what the remote last had of the file (or nothing), never the new text.
      const before = headTree ? await this.flat(headTree) : new Map<string, TreeEntry>();
      for (const h of snap.held) {
        const e = before.get(h.key);
        if (e) snap.entries.set(h.key, e);
        report.held.push({ path: h.path, reason: `${h.reason}; not sent: take it out and it syncs` });
      }
    }
    const localTree = await this.git.writeTree(snap.entries.values(), false);
    if (localTree !== headTree) {
      const headEntries = headTree ? await this.flat(headTree) : new Map<string, TreeEntry>();
      await this.git.writeTree(snap.entries.values());
      const changes = changedKeys(headEntries, snap.entries).map((key) =>
        provenanceOf(key, snap.provenance, device),
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
    state.lastJournalId = snap.journalHead;
    saveState(this.paths.stateFile, state);

    // (2) the remote.
    const remoteHead = await this.remote(() => this.git.remoteHead(auth));
    if (!remoteHead) {
      if (head) await this.push(auth, head, state, report, null);
      return finish(report, 'synced');
    }
    if (remoteHead === head) return this.done(report, state, remoteHead, report.sent.length > 0);
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
    if (state.lastRemote && !(await this.git.isAncestor(state.lastRemote, remoteHead))) {
      // Rewritten after a forget on another device (history.ts): re-join, keeping this device's changes.
      const marker = await unseenRewrite(this.git, remoteHead, state.rejoined ?? []);
      if (marker && (await this.git.hasObject(state.lastRemote))) {
        report.notes.push(
          `${marker.device} rewrote the remote's history without the versions of forgotten files; this device joined the new history and kept its own changes.`,
        );
        state.rejoined = [...(state.rejoined ?? []), marker.id];
        return this.merge(
          auth,
          { head, remoteHead, base: state.lastRemote, rejoin: true },
          state,
          report,
          snap.entries,
          options,
        );
      }
      if (!options.resolve) {
        throw new SyncError(
          'rewritten',
          "The remote's history was rewritten (a force-push from elsewhere); nothing here was overwritten. Choose: push this device's copy over it, or take the remote's copy (this space is backed up first).",
        );
      }
      return resolveRewritten(
        this.parts(),
        auth,
        options.resolve,
        head!,
        remoteHead,
        state,
        report,
        snap.entries,
      );
    }
    if (head && (await this.git.isAncestor(remoteHead, head))) {
      await this.push(auth, head, state, report, remoteHead);
      return finish(report, 'synced');
    }
    const base = head ? await this.git.mergeBase(head, remoteHead) : null;
    return this.merge(auth, { head, remoteHead, base }, state, report, snap.entries, options);
  }

  /**
   * (3) merge per file against `base`; (4) a commit of what the space now holds; (5) push it. A re-join
   * (the remote rewritten after a forget) merges against the tree this device last merged and gives the
   * commit the new root as its only parent: the old history never goes back.
   */
  private async merge(
    auth: RemoteAuth,
    m: { head: string | null; remoteHead: string; base: string | null; rejoin?: boolean },
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
      ...(options.onProgress
        ? { progress: (done: number, total: number) => options.onProgress!('applying', done, total) }
        : {}),
    };
    const decisions = decide(baseEntries, local, remoteEntries);
    options.onProgress?.('applying', 0, decisions.length);
    const result = await applyDecisions(ctx, decisions);
    writePrivate(this.paths.conflictsFile, JSON.stringify(conflicts));
    // Hashes of files sync wrote are taken again next time (their times changed).
    for (const d of decisions) if (d.kind !== 'keep') delete state.stat[d.key];

    const tree = await this.git.writeTree(result.values());
    const remoteTree = (await this.git.readCommit(remoteHead)).tree;
    const onTop = m.rejoin || !head || (await this.git.isAncestor(head, remoteHead));
    let merged: string;
    if (onTop && tree === remoteTree) merged = remoteHead;
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
    if (merged !== remoteHead) await this.push(auth, merged, state, report, remoteHead);
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

  /** Pushes `oid`; what the remote gains by it (this device's changes) is what the report calls sent. */
  private async push(
    auth: RemoteAuth,
    oid: string,
    state: SyncState,
    report: SyncReport,
    remoteHead: string | null,
    force = false,
  ): Promise<void> {
    const before =
      remoteHead && (await this.git.hasObject(remoteHead))
        ? await this.flat((await this.git.readCommit(remoteHead)).tree)
        : new Map<string, TreeEntry>();
    const after = await this.flat((await this.git.readCommit(oid)).tree);
    await this.git.setRef('refs/heads/main', oid);
    await this.remote(() => pushCommit(this.git, auth, oid, remoteHead, force));
    for (const key of changedKeys(before, after)) {
      const segs = (after.get(key) ?? before.get(key))!.segs;
      if (areaOf(segs) !== 'other' && key !== 'space.json') report.sent.push(displayOf(segs));
    }
    state.lastRemote = oid;
    state.lastSyncAt = Date.now();
    saveState(this.paths.stateFile, state);
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
    return new Map((await this.git.readTree(tree)).map((e) => [keyOf(e.segs), e]));
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
      return await fn();
    } catch (error) {
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
