// The space's git directory (DIR/sync/<space-id>.git, bare: nothing is ever checked out) and the remote,
// through isomorphic-git's object APIs. Trees are written and read here, byte for byte: a tree from a
// hostile remote may hold names no checkout would accept (`..`, `.git`, `a/b`), and those entries must be
// read without being interpreted and kept as they are in the trees this device writes back.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { writePack } from './pack-writer.js';
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import { PACK_LIMITS } from './limits.js';
import { ObjectSizes } from './object-size.js';
import { guardedHttp, PackLimitError, type SetAside } from './pack-guard.js';

/** One entry of a flat tree: its path segments as the tree holds them, mode and object id. */
export interface TreeEntry {
  segs: string[];
  mode: string;
  oid: string;
}

export const FILE_MODE = '100644';
/** From this many new blobs on, one pack instead of loose objects. */
const PACK_FROM = 64;
const TREE_MODE = '40000';

export interface RemoteAuth {
  url: string;
  username: string;
  token: string;
}

/** What went wrong talking to the remote, in words a person can act on (no URL with a token, no path). */
export class RemoteError extends Error {
  constructor(
    readonly kind: 'auth' | 'offline' | 'rejected' | 'not_found' | 'other',
    message: string,
  ) {
    super(message);
  }
}

export function blobOid(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

/**
 * A flat map's key: the segments joined by '/'; segments that could not round-trip that way (a hostile
 * tree's `a/b` or empty names) get a key no plain path can have.
 */
export const keyOf = (segs: readonly string[]): string =>
  segs.some((s) => s === '' || s.includes('/')) ? `\0${JSON.stringify(segs)}` : segs.join('/');

/** Where a purge (purge.ts) builds the folder that replaces the git folder, and where the old one goes. */
export const swapPaths = (gitdir: string) => ({ next: `${gitdir}.purge`, old: `${gitdir}.purged` });
/** Written last into the new folder: without it, the new folder is incomplete. */
export const SWAP_READY = 'mnemo-purge-complete';

/**
 * Finishes a purge's folder swap that a kill cut short: a complete new folder takes the place of a missing
 * one, an incomplete one goes, and the old folder (which still holds what was forgotten) is removed.
 */
export function finishSwap(gitdir: string): void {
  const { next, old } = swapPaths(gitdir);
  if (fs.existsSync(next)) {
    if (!fs.existsSync(gitdir) && fs.existsSync(path.join(next, SWAP_READY))) fs.renameSync(next, gitdir);
    else fs.rmSync(next, { recursive: true, force: true });
  }
  if (fs.existsSync(old)) {
    if (!fs.existsSync(gitdir)) fs.renameSync(old, gitdir);
    else fs.rmSync(old, { recursive: true, force: true });
  }
}

export class GitStore {
  private cache = {};
  private sizes: ObjectSizes;
  /** The folder's inode when the caches were filled: a purge (any process's) puts a new folder there. */
  private ino: number | undefined;
  constructor(readonly gitdir: string) {
    this.sizes = new ObjectSizes(gitdir);
  }

  /** Creates the folder if needed; called at the start of each sync, so caches of a replaced folder go. */
  async init(): Promise<void> {
    finishSwap(this.gitdir);
    if (!fs.existsSync(`${this.gitdir}/HEAD`)) {
      fs.mkdirSync(this.gitdir, { recursive: true, mode: 0o700 });
      await git.init({ fs, gitdir: this.gitdir, bare: true, defaultBranch: 'main' });
    }
    const ino = fs.statSync(this.gitdir).ino;
    if (this.ino !== undefined && ino !== this.ino) {
      this.cache = {};
      this.sizes = new ObjectSizes(this.gitdir);
      this.madeDirs.clear();
      this.commits.clear();
    }
    this.ino = ino;
  }

  private readonly madeDirs = new Set<string>();
  /** Blobs written since the last flush: kept here, then written together (pack-writer.ts). */
  private readonly pending = new Map<string, Buffer>();

  /** Queues a blob (written by the next flush, which every tree write and commit makes first). */
  async writeBlob(content: Buffer): Promise<string> {
    const oid = blobOid(content);
    this.pending.set(oid, content);
    return oid;
  }

  /** Writes the queued blobs: a few as loose objects, many as one pack. */
  flush(): void {
    if (this.pending.size === 0) return;
    if (this.pending.size >= PACK_FROM) {
      writePack(this.gitdir, this.pending);
    } else {
      for (const [oid, content] of this.pending) this.writeLoose(oid, content);
    }
    this.pending.clear();
  }

  private writeLoose(oid: string, content: Buffer): void {
    const dir = path.join(this.gitdir, 'objects', oid.slice(0, 2));
    const file = path.join(dir, oid.slice(2));
    if (fs.existsSync(file)) return;
    if (!this.madeDirs.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      this.madeDirs.add(dir);
    }
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, deflateSync(Buffer.concat([Buffer.from(`blob ${content.length}\0`), content])));
    fs.renameSync(tmp, file);
  }

  async hasObject(oid: string): Promise<boolean> {
    if (this.pending.has(oid)) return true;
    try {
      await git.readObject({ fs, gitdir: this.gitdir, oid, format: 'deflated', cache: this.cache });
      return true;
    } catch {
      return false;
    }
  }

  async readBlob(oid: string): Promise<Buffer> {
    const queued = this.pending.get(oid);
    if (queued) return queued;
    const { blob } = await git.readBlob({ fs, gitdir: this.gitdir, oid, cache: this.cache });
    return Buffer.from(blob);
  }

  /**
   * A blob, unless it is larger than `cap`: decided on the size its object header declares (or because a
   * fetch set it aside), before anything is inflated.
   */
  async readBlobCapped(oid: string, cap: number): Promise<Buffer | 'too_large'> {
    const queued = this.pending.get(oid);
    if (queued) return queued.length > cap ? 'too_large' : queued;
    if (this.sizes.setAside(oid)) return 'too_large';
    const size = this.sizes.size(oid);
    if (size !== null && size > cap) return 'too_large';
    const blob = await this.readBlob(oid);
    return blob.length > cap ? 'too_large' : blob;
  }

  /**
   * Records what a fetch set aside. A delta's id is unknown (it needs its base), so the entries of the
   * fetched tree whose blob this folder does not hold are those.
   */
  private async recordSetAside(found: SetAside[], head: string | null): Promise<void> {
    const named = found.flatMap((f) => (f.oid ? [[f.oid, f.size] as const] : []));
    const unnamed = found.filter((f) => !f.oid).map((f) => f.size);
    if (unnamed.length > 0 && head) {
      for (const e of await this.readTree((await this.readCommit(head)).tree)) {
        if (e.mode.startsWith('100') && this.sizes.size(e.oid) === null)
          named.push([e.oid, Math.min(...unnamed)]);
      }
    }
    this.sizes.addSetAside(named);
  }

  /**
   * Writes the nested trees of a flat map (or only hashes them, `write: false`, for the idle check).
   * Returns the root tree's oid.
   */
  async writeTree(flat: Iterable<TreeEntry>, write = true): Promise<string> {
    interface Dir {
      files: Map<string, { mode: string; oid: string }>;
      dirs: Map<string, Dir>;
    }
    const root: Dir = { files: new Map(), dirs: new Map() };
    for (const e of flat) {
      let d = root;
      for (const seg of e.segs.slice(0, -1)) {
        let next = d.dirs.get(seg);
        if (!next) d.dirs.set(seg, (next = { files: new Map(), dirs: new Map() }));
        d = next;
      }
      d.files.set(e.segs.at(-1)!, { mode: e.mode, oid: e.oid });
    }
    if (write) this.flush();
    const emit = async (d: Dir): Promise<string> => {
      const rows: { name: string; mode: string; oid: string; sortKey: string }[] = [];
      for (const [name, sub] of d.dirs) {
        rows.push({ name, mode: TREE_MODE, oid: await emit(sub), sortKey: `${name}/` });
      }
      for (const [name, f] of d.files) {
        if (d.dirs.has(name)) continue; // a name that is both a file and a folder: the folder wins
        rows.push({ name, mode: f.mode, oid: f.oid, sortKey: f.mode === TREE_MODE ? `${name}/` : name });
      }
      // git's order: bytewise, a tree's name compared as if it ended in '/'.
      rows.sort((a, b) => Buffer.compare(Buffer.from(a.sortKey), Buffer.from(b.sortKey)));
      const body = Buffer.concat(
        rows.flatMap((r) => [Buffer.from(`${r.mode} ${r.name}\0`), Buffer.from(r.oid, 'hex')]),
      );
      if (!write) return createHash('sha1').update(`tree ${body.length}\0`).update(body).digest('hex');
      return git.writeObject({ fs, gitdir: this.gitdir, type: 'tree', object: body, format: 'content' });
    };
    return emit(root);
  }

  /** One level of a tree from its rows (names as given, one segment each); returns its oid. */
  async writeTreeLevel(rows: readonly TreeEntry[]): Promise<string> {
    this.flush();
    const sorted = rows
      .map((r) => ({ ...r, sortKey: r.mode === TREE_MODE ? `${r.segs[0]}/` : r.segs[0]! }))
      .sort((a, b) => Buffer.compare(Buffer.from(a.sortKey), Buffer.from(b.sortKey)));
    const body = Buffer.concat(
      sorted.flatMap((r) => [Buffer.from(`${r.mode} ${r.segs[0]}\0`), Buffer.from(r.oid, 'hex')]),
    );
    return git.writeObject({ fs, gitdir: this.gitdir, type: 'tree', object: body, format: 'content' });
  }

  /** One level of a tree, as its bytes say (names never interpreted). */
  async readTreeLevel(oid: string): Promise<{ name: string; mode: string; oid: string }[]> {
    const { object } = await git.readObject({
      fs,
      gitdir: this.gitdir,
      oid,
      format: 'content',
      cache: this.cache,
    });
    const buf = Buffer.from(object as Uint8Array);
    const out: { name: string; mode: string; oid: string }[] = [];
    for (let i = 0; i < buf.length;) {
      const space = buf.indexOf(0x20, i);
      const nul = buf.indexOf(0, space);
      if (space < 0 || nul < 0 || nul + 21 > buf.length) break; // a torn or forged tree: the rest is not read
      out.push({
        mode: buf.subarray(i, space).toString('latin1'),
        name: buf.subarray(space + 1, nul).toString('utf8'),
        oid: buf.subarray(nul + 1, nul + 21).toString('hex'),
      });
      i = nul + 21;
    }
    return out;
  }

  /**
   * Every file of a tree, flat. Sub-trees are followed by their raw names (whatever they are); entries
   * that are not blobs or trees (links 120000, submodules 160000) are listed with their mode, unread.
   */
  async readTree(oid: string): Promise<TreeEntry[]> {
    const out: TreeEntry[] = [];
    const walk = async (treeOid: string, prefix: string[], depth: number): Promise<void> => {
      for (const e of await this.readTreeLevel(treeOid)) {
        const segs = [...prefix, e.name];
        // Deeper than any memory path can be: kept whole, as one opaque entry.
        if (e.mode === TREE_MODE && depth < 16) await walk(e.oid, segs, depth + 1);
        else out.push({ segs, mode: e.mode, oid: e.oid });
      }
    };
    await walk(oid, [], 0);
    return out;
  }

  async commit(options: {
    tree: string;
    parents: string[];
    message: string;
    device: string;
    at: number;
  }): Promise<string> {
    this.flush();
    const who = {
      name: options.device,
      email: 'mnemo@localhost',
      timestamp: Math.floor(options.at / 1000),
      timezoneOffset: 0,
    };
    return git.writeCommit({
      fs,
      gitdir: this.gitdir,
      commit: {
        message: options.message,
        tree: options.tree,
        parent: options.parents,
        author: who,
        committer: who,
      },
    });
  }

  private readonly commits = new Map<string, { tree: string; parents: string[]; message: string }>();

  /** A commit (kept once read: commits never change, and the idle check reads the head's each time). */
  async readCommit(oid: string): Promise<{ tree: string; parents: string[]; message: string }> {
    const known = this.commits.get(oid);
    if (known) return known;
    const { commit } = await git.readCommit({ fs, gitdir: this.gitdir, oid, cache: this.cache });
    const out = { tree: commit.tree, parents: commit.parent, message: commit.message };
    if (this.commits.size > 1_000) this.commits.clear();
    this.commits.set(oid, out);
    return out;
  }

  async ref(name: string): Promise<string | null> {
    // Our own refs are loose files (writeRef): read at once, without isomorphic-git's packed-refs walk.
    try {
      const direct = fs.readFileSync(path.join(this.gitdir, name), 'utf8').trim();
      if (/^[0-9a-f]{40}$/.test(direct)) return direct;
    } catch {
      // not a loose ref: ask isomorphic-git
    }
    try {
      return await git.resolveRef({ fs, gitdir: this.gitdir, ref: name });
    } catch {
      return null;
    }
  }

  async setRef(name: string, oid: string): Promise<void> {
    await git.writeRef({ fs, gitdir: this.gitdir, ref: name, value: oid, force: true });
  }

  /** The objects fetches set aside as too large (a stand-in of the same length is here, never read). */
  setAsideIds(): string[] {
    return this.sizes.setAsideIds();
  }

  /** The refs under `prefix` (e.g. 'refs/sync'), full names. */
  async listRefs(prefix: string): Promise<string[]> {
    try {
      const names = await git.listRefs({ fs, gitdir: this.gitdir, filepath: prefix });
      return names.map((n) => `${prefix}/${n}`);
    } catch {
      return [];
    }
  }

  async deleteRef(name: string): Promise<void> {
    await git.deleteRef({ fs, gitdir: this.gitdir, ref: name }).catch(() => undefined);
  }

  /** An object's type and content, whatever it is (for copying objects into a new folder). */
  async readObject(oid: string): Promise<{ type: 'blob' | 'tree' | 'commit' | 'tag'; content: Buffer }> {
    const queued = this.pending.get(oid);
    if (queued) return { type: 'blob', content: queued };
    const { type, object } = await git.readObject({
      fs,
      gitdir: this.gitdir,
      oid,
      format: 'content',
      cache: this.cache,
    });
    return { type: type as 'blob' | 'tree' | 'commit' | 'tag', content: Buffer.from(object as Uint8Array) };
  }

  async mergeBase(a: string, b: string): Promise<string | null> {
    const bases = await git.findMergeBase({ fs, gitdir: this.gitdir, oids: [a, b], cache: this.cache });
    return (bases[0] as string | undefined) ?? null;
  }

  /** true when `ancestor` is `oid` or reachable from it. */
  async isAncestor(ancestor: string, oid: string): Promise<boolean> {
    if (ancestor === oid) return true;
    try {
      return await git.isDescendent({ fs, gitdir: this.gitdir, oid, ancestor, depth: -1, cache: this.cache });
    } catch {
      return false;
    }
  }

  /**
   * The remote's main branch (null: the remote is empty). One request: protocol v1's ref advertisement
   * (GET info/refs) names every ref at once, where v2 asks for the capabilities first and then posts
   * ls-refs, two round trips (and two git processes on a CGI server) on every idle check. The repository
   * holds one branch, so the advertisement stays small.
   */
  async remoteHead(auth: RemoteAuth): Promise<string | null> {
    const refs = await remoteCall(() =>
      git.listServerRefs({
        http: guardedHttp(http, PACK_LIMITS, []),
        url: auth.url,
        prefix: 'refs/heads/',
        protocolVersion: 1,
        ...authOf(auth),
      }),
    );
    return refs.find((r) => r.ref === 'refs/heads/main')?.oid ?? null;
  }

  async fetch(
    auth: RemoteAuth,
    onProgress?: (phase: string, loaded: number, total: number) => void,
  ): Promise<string | null> {
    // isomorphic-git takes the refspec from the remote's config: the URL there never holds a credential.
    await git.addRemote({ fs, gitdir: this.gitdir, remote: 'origin', url: auth.url, force: true });
    const found: SetAside[] = [];
    const result = await remoteCall(() =>
      git.fetch({
        fs,
        http: guardedHttp(http, PACK_LIMITS, found),
        gitdir: this.gitdir,
        remote: 'origin',
        ref: 'main',
        remoteRef: 'main',
        singleBranch: true,
        tags: false,
        cache: this.cache,
        ...authOf(auth),
        ...(onProgress ? { onProgress: (p) => onProgress(p.phase, p.loaded, p.total) } : {}),
      }),
    );
    if (found.length > 0) await this.recordSetAside(found, result.fetchHead ?? null);
    return result.fetchHead ?? null;
  }
}

function authOf(auth: RemoteAuth) {
  return {
    onAuth: () => ({ username: auth.username, password: auth.token }),
    // One try: a refused token is reported, never retried in a loop.
    onAuthFailure: () => ({ cancel: true }),
  };
}

/** Runs a remote operation and turns what it throws into a RemoteError whose message has no secret. */
async function remoteCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw remoteErrorOf(error);
  }
}

export function remoteErrorOf(error: unknown): RemoteError {
  if (error instanceof RemoteError) return error;
  if (error instanceof PackLimitError) return new RemoteError('other', error.message);
  const e = error as {
    code?: string;
    data?: { statusCode?: number };
    message?: string;
    cause?: { code?: string };
  };
  const status = e.data?.statusCode;
  if (e.code === 'UserCanceledError' || status === 401 || status === 403) {
    return new RemoteError(
      'auth',
      'The remote refused the credentials: check the user name and the token (and that it may write to this repository).',
    );
  }
  if (status === 404) return new RemoteError('not_found', 'The remote has no repository at that address.');
  const sys = e.cause?.code ?? e.code;
  if (
    sys &&
    [
      'ECONNREFUSED',
      'ENOTFOUND',
      'ETIMEDOUT',
      'ECONNRESET',
      'EHOSTUNREACH',
      'ENETUNREACH',
      'EAI_AGAIN',
    ].includes(sys)
  ) {
    return new RemoteError(
      'offline',
      'The remote cannot be reached (offline, or the server is down); the changes wait and go when it is back.',
    );
  }
  if (e.code === 'PushRejectedError') {
    return new RemoteError('rejected', 'The remote moved on meanwhile; the next sync merges it first.');
  }
  if (status !== undefined) return new RemoteError('other', `The remote answered with HTTP ${status}.`);
  return new RemoteError('other', `Talking to the remote failed (${e.code ?? 'unknown error'}).`);
}
