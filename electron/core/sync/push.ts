// Pushing over smart HTTP with our own object walk. isomorphic-git's push parses every tree it sends and
// refuses names like `..` or `.git`, but a tree this device writes back must keep a hostile remote's
// entries exactly as they were (a refused entry is left on the remote as it is). So the objects to send
// (what the new commits reach and the remote's head does not) are listed with GitStore's byte-level tree
// reader, packed by isomorphic-git's packObjects, and sent with one receive-pack request, whose ref
// update names the old head: the server refuses it if someone else pushed meanwhile.
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import { RemoteError, remoteErrorOf, type GitStore, type RemoteAuth } from './git-store.js';

const ZERO = '0'.repeat(40);
const REF = 'refs/heads/main';

const pkt = (line: string): Buffer => {
  const body = Buffer.from(line, 'utf8');
  return Buffer.concat([Buffer.from((body.length + 4).toString(16).padStart(4, '0')), body]);
};

/** Every tree and blob a tree reaches (trees read byte for byte, never interpreted). */
async function reach(
  store: GitStore,
  tree: string,
  out: Set<string>,
  skip: ReadonlySet<string>,
): Promise<void> {
  if (out.has(tree) || skip.has(tree)) return;
  out.add(tree);
  for (const e of await store.readTreeLevel(tree)) {
    if (e.mode === '40000') await reach(store, e.oid, out, skip);
    else if (e.mode !== '160000' && !skip.has(e.oid)) out.add(e.oid);
  }
}

export async function pushCommit(
  store: GitStore,
  auth: RemoteAuth,
  oid: string,
  expectOld: string | null,
  force: boolean,
): Promise<void> {
  const headers: Record<string, string> = {
    Authorization: `Basic ${Buffer.from(`${auth.username}:${auth.token}`).toString('base64')}`,
  };
  const base = auth.url.replace(/\/+$/, '');
  let old: string;
  try {
    const info = await git.getRemoteInfo2({
      http,
      url: auth.url,
      forPush: true,
      protocolVersion: 1,
      headers,
    });
    const refs = (info.refs ?? []) as { ref: string; oid: string }[];
    old = refs.find((r) => r.ref === REF)?.oid ?? ZERO;
  } catch (error) {
    throw remoteErrorOf(error);
  }
  if (!force && old !== (expectOld ?? ZERO)) {
    throw new RemoteError('rejected', 'The remote moved on meanwhile; the next sync merges it first.');
  }
  if (old === oid) return;

  // What the remote has: everything its head's tree reaches (if this device holds it).
  const known = new Set<string>();
  const oldCommits = new Set<string>();
  if (old !== ZERO && (await store.hasObject(old))) {
    oldCommits.add(old);
    await reach(store, (await store.readCommit(old)).tree, known, new Set());
  }
  const send = new Set<string>();
  const queue = [oid];
  while (queue.length > 0) {
    const c = queue.shift()!;
    if (send.has(c) || oldCommits.has(c)) continue;
    if (old !== ZERO && oldCommits.size > 0 && (await store.isAncestor(c, old))) continue;
    send.add(c);
    const commit = await store.readCommit(c);
    await reach(store, commit.tree, send, known);
    queue.push(...commit.parents);
  }
  const { packfile } = await git.packObjects({ fs, gitdir: store.gitdir, oids: [...send] });
  const body = Buffer.concat([
    pkt(`${old} ${oid} ${REF}\0report-status agent=mnemo\n`),
    Buffer.from('0000'),
    Buffer.from(packfile!),
  ]);
  let res;
  try {
    res = await http.request({
      url: `${base}/git-receive-pack`,
      method: 'POST',
      headers: {
        ...headers,
        'Content-Type': 'application/x-git-receive-pack-request',
        Accept: 'application/x-git-receive-pack-result',
      },
      body: (async function* () {
        yield new Uint8Array(body);
      })(),
    });
  } catch (error) {
    throw remoteErrorOf(error);
  }
  const chunks: Buffer[] = [];
  if (res.body) for await (const chunk of res.body) chunks.push(Buffer.from(chunk));
  if (res.statusCode === 401 || res.statusCode === 403)
    throw remoteErrorOf({ data: { statusCode: res.statusCode } });
  if (res.statusCode !== 200)
    throw new RemoteError('other', `The remote answered with HTTP ${res.statusCode}.`);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!/unpack ok/.test(text))
    throw new RemoteError('other', 'The remote could not store what this device sent.');
  if (new RegExp(`ok ${REF}`).test(text)) return;
  if (/ng refs\/heads\/main/.test(text)) {
    throw new RemoteError('rejected', 'The remote moved on meanwhile; the next sync merges it first.');
  }
  throw new RemoteError('other', 'The remote did not confirm the update.');
}
