// The space as a tree, cheaply: a file is read and hashed only when its size or time differs from what the
// last sync saw, or the memory journal names it since then (an edit within the same millisecond and size).
// So an idle sync lists the memory (its cached tree), the journal's new entries and the conversations'
// stats, and reads nothing.
import { lstatSync, promises as fsp, readdirSync, type Stats } from 'node:fs';
import path from 'node:path';
import { detectSecret } from '../../../memory/index.js';
import { blobOid, FILE_MODE, type GitStore, type TreeEntry } from './git-store.js';
import { syncKey } from './names.js';
import type { SpaceInfo } from './merge.js';
import { provenanceFromJournal, type ChangeProvenance } from './provenance.js';
import { completeLines, CONVERSATION_ID, type SyncSpace } from './space-io.js';
import type { SyncState } from './state.js';
import { localTombstones } from './tombstones.js';

export interface Snapshot {
  entries: Map<string, TreeEntry>;
  /** Provenance of memory files the journal says changed since the last sync. */
  provenance: Map<string, ChangeProvenance>;
  journalHead: string | undefined;
  info: SpaceInfo;
  /** Memory files not sent because they look like they hold a credential (another program wrote it). */
  held: { key: string; path: string; reason: string }[];
}

/**
 * The space's identity as the repository holds it: id, name and colour (not its creation time here, which
 * differs per device, nor its settings, which belong to this machine).
 */
export function spaceJson(info: SpaceInfo): Buffer {
  const { id, name, colour } = info;
  return Buffer.from(`${JSON.stringify({ v: 1, id, name, colour }, null, 2)}\n`, 'utf8');
}

export async function snapshot(
  dataDir: string,
  space: SyncSpace,
  git: GitStore,
  state: SyncState,
  device: string,
  treeSpaceId: string,
): Promise<Snapshot> {
  const entries = new Map<string, TreeEntry>();
  const seen = new Set<string>();
  const put = (segs: string[], oid: string): void =>
    void entries.set(syncKey(segs), { segs, mode: FILE_MODE, oid });

  // The journal's entries since the last sync: which memory files surely changed, and by whom.
  const journal = await space.memory.journal();
  const since: typeof journal = [];
  let found = state.lastJournalId === undefined;
  for (const e of journal) {
    if (e.id === state.lastJournalId) {
      found = true;
      break;
    }
    since.push(e);
  }
  const provenance = provenanceFromJournal(since, device);
  // The last entry seen is gone (pruned, forgotten): trust no cached hash this time.
  const dirtyAll = !found;

  const cached = async (
    key: string,
    size: number,
    mtime: number,
    read: () => Promise<Buffer>,
    scan = false,
  ): Promise<string> => {
    seen.add(key);
    const c = state.stat[key];
    if (c && !dirtyAll && c.size === size && c.mtime === mtime && !provenance.has(key)) return c.oid;
    const content = await read();
    const oid = blobOid(content);
    // A memory file with a credential in it (written by another program: the memory's own writes refuse
    // one) stays on this device: a remote is as readable as its host makes it.
    const finding = scan ? detectSecret(content.toString('utf8')) : null;
    if (!finding && !(c && c.oid === oid)) await git.writeBlob(content);
    state.stat[key] = {
      size,
      mtime,
      oid,
      ...(finding ? { held: `it looks like it holds ${finding.detector} (line ${finding.line})` } : {}),
    };
    return oid;
  };
  const held: Snapshot['held'] = [];

  for (const e of await space.memory.list()) {
    if (e.kind !== 'file') continue;
    const segs = ['memories', ...e.path.slice('/memories/'.length).split('/')];
    const key = syncKey(segs);
    const read = async (): Promise<Buffer> => Buffer.from((await space.memory.read(e.path)).content, 'utf8');
    try {
      const oid = await cached(key, e.size, Date.parse(e.modifiedAt), read, true);
      const why = state.stat[key]?.held;
      if (why) held.push({ key, path: e.path, reason: why });
      else put(segs, oid);
    } catch {
      // Gone or unreadable since the listing: not part of this snapshot (the next one sees it).
    }
  }

  // The conversations' stats one after the other, synchronously: a hundred lstat calls of cached inodes
  // take well under a millisecond, where as many promises queued on libuv's four threads took ~10 ms of
  // an idle sync (bench/sync). Only a file whose stat changed is read, asynchronously.
  let names: string[];
  try {
    names = readdirSync(space.conversationsDir);
  } catch {
    names = [];
  }
  const changed: Promise<void>[] = [];
  for (const name of names) {
    if (!name.endsWith('.jsonl') || !CONVERSATION_ID.test(name.slice(0, -6))) continue;
    const file = path.join(space.conversationsDir, name);
    const st = lstatOrNull(file);
    if (!st?.isFile()) continue;
    const segs = ['conversations', name];
    changed.push(
      cached(syncKey(segs), st.size, st.mtimeMs + st.ino / 1e9, async () =>
        completeLines(await fsp.readFile(file)),
      ).then(
        (oid) => put(segs, oid),
        () => undefined,
      ),
    );
  }
  await Promise.all(changed);

  const info = { ...(await space.info()), id: treeSpaceId };
  const json = spaceJson(info);
  const jsonOid = blobOid(json);
  if (state.stat['space.json']?.oid !== jsonOid) {
    await git.writeBlob(json);
    state.stat['space.json'] = { size: json.length, mtime: 0, oid: jsonOid };
  }
  seen.add('space.json');
  put(['space.json'], jsonOid);

  for (const [name, bytes] of localTombstones(dataDir, space.id)) {
    const segs = ['tombstones', name];
    const oid = blobOid(bytes);
    if (state.stat[syncKey(segs)]?.oid !== oid) {
      await git.writeBlob(bytes);
      state.stat[syncKey(segs)] = { size: bytes.length, mtime: 0, oid };
    }
    seen.add(syncKey(segs));
    put(segs, oid);
  }

  for (const key of Object.keys(state.stat)) if (!seen.has(key)) delete state.stat[key];

  // What this device refused or could not apply yet stays in its tree as the remote had it, as long as the
  // local file is still what it was then: a push never deletes or reverts what this device never took.
  for (const [key, f] of Object.entries(state.foreign)) {
    const localOid = entries.get(key)?.oid ?? null;
    if (localOid !== f.localOid) {
      delete state.foreign[key];
      continue;
    }
    entries.set(key, { segs: f.segs, mode: f.mode, oid: f.oid });
  }
  return { entries, provenance, journalHead: journal[0]?.id ?? state.lastJournalId, info, held };
}

function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}
