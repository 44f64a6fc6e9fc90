// Carrying out the merge decisions: what arrives is applied to the space entry by entry (space-io.ts),
// and the tree this device commits afterwards is built from what the space then holds, plus what it keeps
// for the remote without using it (refused, or not applied yet).
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isWithin, type SyncActor } from '../../../memory/index.js';
import { blobOid, FILE_MODE, type GitStore, type TreeEntry } from './git-store.js';
import { areaOf, mergeSpaceInfo, mergeText, type Decision, type SpaceInfo } from './merge.js';
import { isTwin, syncKey, TWIN_REASON } from './names.js';
import type { ChangeProvenance } from './provenance.js';
import { spaceJson } from './snapshot.js';
import {
  applyConversation,
  applyMemory,
  Busy,
  decodeUtf8,
  readMemoryFile,
  forkConversation,
  memoryPathOf,
  Refused,
  structuralRefusal,
  type SyncSpace,
} from './space-io.js';
import type { SyncState } from './state.js';
import { CONVERSATION_CAP_BYTES, overLimit, SPACE_INFO_CAP_BYTES, TOMBSTONE_CAP_BYTES } from './limits.js';
import { keepTombstone, localTombstones, parseTombstone, TOMBSTONE_NAME } from './tombstones.js';
import type { SyncConflict, SyncReport } from './report.js';

export interface ApplyContext {
  dataDir: string;
  space: SyncSpace;
  git: GitStore;
  state: SyncState;
  /** The other side's device (its newest commit's), for notes and copies' titles. */
  remoteDevice: string;
  provenance: Map<string, ChangeProvenance>;
  conflictsDir: string;
  conflicts: SyncConflict[];
  report: SyncReport;
  base: Map<string, TreeEntry>;
  local: Map<string, TreeEntry>;
  /** Told every 250 entries applied (a first sync of thousands of files shows its progress). */
  progress?: (done: number, total: number) => void;
  /** Applied to a conversation from the remote before it is written (copies of forgotten files out). */
  redactIncoming?: (content: Buffer) => Buffer;
}

/** A display name for a tree path: the memory path, or the conversation file. */
export function displayOf(segs: readonly string[]): string {
  const area = areaOf(segs);
  if (area === 'memory') return memoryPathOf(segs);
  if (area === 'conversation') return `conversation ${segs[1]?.replace(/\.jsonl$/, '') ?? ''}`;
  return segs.join('/');
}

/** Applies the decisions; returns the tree (flat) this device holds afterwards, for the merge commit. */
export async function applyDecisions(
  ctx: ApplyContext,
  decisions: Decision[],
): Promise<Map<string, TreeEntry>> {
  const result = new Map(ctx.local);
  const changedConversations: string[] = [];
  const forgotten: string[] = [];
  // Tombstones first: a file another device forgot is forgotten here before anything else touches it.
  const isTombstone = (d: Decision): boolean => d.key.startsWith('tombstones/');
  const todo = [...decisions.filter(isTombstone), ...decisions.filter((d) => !isTombstone(d))].filter(
    (d) => d.kind !== 'keep',
  );
  const prepared = await writeMemoryBatches(ctx, todo);
  let done = 0;
  for (const d of todo) {
    if (++done % 250 === 0) ctx.progress?.(done, todo.length);
    const known =
      d.kind === 'keep-local'
        ? ctx.local.get(d.key)
        : (d.remote ?? ctx.local.get(d.key) ?? ctx.base.get(d.key));
    if (
      known &&
      areaOf(known.segs) === 'memory' &&
      forgotten.some((p) => isWithin(memoryPathOf(known.segs), p))
    )
      continue;
    if (d.kind === 'keep-local') {
      if (d.note) ctx.report.notes.push(`${displayOf(ctx.local.get(d.key)!.segs)}: ${d.note}`);
      continue;
    }
    const entry = d.remote;
    const segs = (entry ?? ctx.local.get(d.key) ?? ctx.base.get(d.key))!.segs;
    const area = areaOf(segs);
    const shown = displayOf(segs);
    try {
      if (d.kind === 'take') {
        const early = prepared.get(d.key);
        if (early instanceof Error) throw early;
        const gone = early === 'done' ? undefined : await take(ctx, d.key, segs, d.remote, area);
        if (gone) forgotten.push(gone);
        if (d.remote) result.set(d.key, d.remote);
        else result.delete(d.key);
        if (area === 'conversation') changedConversations.push(segs[1]!.slice(0, -6));
        if (area !== 'other' && area !== 'tombstone')
          ctx.report.received.push({
            path: shown,
            change: !d.remote ? 'deleted' : ctx.local.has(d.key) ? 'changed' : 'added',
          });
        if (d.note) ctx.report.notes.push(`${shown}: ${d.note}`);
        delete ctx.state.foreign[d.key];
      } else if (d.kind === 'merge') {
        const merged = await merge(ctx, d, shown);
        if (merged) result.set(d.key, merged);
      } else {
        const id = segs[1]!.slice(0, -6);
        const raw = await readCapped(ctx, d.remote);
        const content = ctx.redactIncoming ? ctx.redactIncoming(raw) : raw;
        const copy = await forkConversation(ctx.space.conversationsDir, id, content, ctx.remoteDevice);
        const copySegs = ['conversations', `${copy.id}.jsonl`];
        const oid = await ctx.git.writeBlob(copy.content);
        result.set(syncKey(copySegs), { segs: copySegs, mode: FILE_MODE, oid });
        changedConversations.push(copy.id);
        ctx.report.notes.push(
          `${shown}: changed on both devices; the other device's version is kept as a conversation of its own ("… (from ${ctx.remoteDevice})")`,
        );
      }
    } catch (error) {
      if (!(error instanceof Refused || error instanceof Busy)) throw error;
      // Left on the remote as it is: the tree keeps the remote's entry while the space keeps its own.
      const keepRemote = entry ?? null;
      const localOid = ctx.local.get(d.key)?.oid ?? null;
      if (keepRemote) {
        result.set(d.key, keepRemote);
        ctx.state.foreign[d.key] = {
          segs: keepRemote.segs,
          mode: keepRemote.mode,
          oid: keepRemote.oid,
          localOid,
          reason: error.message,
          retry: error instanceof Busy,
        };
      } else if (ctx.base.has(d.key)) {
        // A deletion not applied yet: the file stays here and in the tree.
        const b = ctx.local.get(d.key);
        if (b) result.set(d.key, b);
      }
      (error instanceof Refused ? ctx.report.refused : ctx.report.pending).push({
        path: shown,
        reason: error.message,
      });
    }
  }
  if (changedConversations.length > 0) await ctx.space.conversationsChanged?.(changedConversations);
  // What a tombstone forgot is not in this device's tree any more, whatever the other decisions kept.
  for (const [key, e] of result) {
    if (areaOf(e.segs) === 'memory' && forgotten.some((p) => isWithin(memoryPathOf(e.segs), p)))
      result.delete(key);
  }
  return result;
}

const BATCH = 500;

/**
 * New or changed memory files from the remote, many to a change (one journal sync per batch, grouped by
 * provenance): each checked as a single write would be, refused alone. Returns per key 'done' or the
 * Refused/Busy to report; a key left out (a batch over the quota, an I/O error) goes the single path.
 */
async function writeMemoryBatches(ctx: ApplyContext, todo: Decision[]): Promise<Map<string, 'done' | Error>> {
  const out = new Map<string, 'done' | Error>();
  const groups = new Map<
    string,
    { actor: SyncActor; items: { key: string; path: string; content: string; baseVersion: string | null }[] }
  >();
  for (const d of todo) {
    if (d.kind !== 'take' || !d.remote || areaOf(d.remote.segs) !== 'memory' || isTwin(d.key)) continue;
    const why = structuralRefusal(d.remote);
    if (why) {
      out.set(d.key, new Refused(why));
      continue;
    }
    const foreign = ctx.state.foreign[d.key];
    const expectOid = foreign ? foreign.localOid : (ctx.local.get(d.key)?.oid ?? null);
    const p = memoryPathOf(d.remote.segs);
    const bytes = await ctx.git.readBlobCapped(d.remote.oid, capOf(ctx, d.remote.segs));
    if (bytes === 'too_large') {
      out.set(d.key, new Refused(overLimit(capOf(ctx, d.remote.segs))));
      continue;
    }
    const text = decodeUtf8(bytes);
    if (text === null) {
      out.set(d.key, new Refused('it is not UTF-8 text'));
      continue;
    }
    let cur;
    try {
      cur = await readMemoryFile(ctx.space.memory, p);
    } catch {
      continue; // an unusual path (the single path refuses it with the memory's reason)
    }
    if ((cur ? blobOid(Buffer.from(cur.content, 'utf8')) : null) !== expectOid) {
      out.set(d.key, new Busy('changed on this device meanwhile'));
      continue;
    }
    if (cur?.content === text) {
      out.set(d.key, 'done');
      continue;
    }
    const actor = actorOf(ctx, d.key);
    const id = JSON.stringify(actor);
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { actor, items: [] }));
    group.items.push({ key: d.key, path: p, content: text, baseVersion: cur ? cur.version : null });
  }
  for (const { actor, items } of groups.values()) {
    for (let i = 0; i < items.length; i += BATCH) {
      const chunk = items.slice(i, i + BATCH);
      let outcomes;
      try {
        outcomes = await ctx.space.memory.writeMany(chunk, actor);
      } catch {
        continue; // over the quota as a whole: each file then goes alone, and what does not fit is refused
      }
      outcomes.forEach((o, j) => {
        const key = chunk[j]!.key;
        if (o.ok) out.set(key, 'done');
        else if (o.error.code === 'conflict') out.set(key, new Busy('changed on this device meanwhile'));
        else if (o.error.code !== 'io' && o.error.code !== 'closed')
          out.set(key, new Refused(o.error.message.replace(/^(Error|Refused): /, '')));
      });
      ctx.progress?.(Math.min(i + BATCH, items.length), items.length);
    }
  }
  return out;
}

function actorOf(ctx: ApplyContext, key: string): SyncActor {
  const p = ctx.provenance.get(key);
  const actor: SyncActor = { kind: 'sync', device: p?.device ?? ctx.remoteDevice };
  if (p) actor.origin = p.actor;
  if (p?.conversation) actor.conversationId = p.conversation;
  if (p?.title) actor.conversationTitle = p.title;
  if (p?.tool) actor.toolUseId = p.tool;
  return actor;
}

async function take(
  ctx: ApplyContext,
  key: string,
  segs: string[],
  remote: TreeEntry | null,
  area: ReturnType<typeof areaOf>,
): Promise<string | undefined> {
  // Its name is another entry's in NFC (names.ts): applying it, or its deletion, would change that file.
  if (isTwin(key)) {
    if (remote) throw new Refused(TWIN_REASON);
    return;
  }
  const expect = ctx.local.get(key);
  const foreign = ctx.state.foreign[key];
  // For an entry set aside before, the space still holds what it held then.
  const expectOid = foreign ? foreign.localOid : (expect?.oid ?? null);
  if (remote) {
    const why = structuralRefusal(remote);
    if (why) throw new Refused(why);
  } else if (segs.some((s) => s === '' || s.includes('/'))) return;
  if (area === 'other') {
    if (remote) throw new Refused('it is not part of a space (kept on the remote, not used here)');
    return;
  }
  const content = remote ? await readCapped(ctx, remote) : null;
  if (area === 'memory') {
    await applyMemory(ctx.space.memory, memoryPathOf(segs), content, expectOid, actorOf(ctx, key));
  } else if (area === 'conversation') {
    const incoming = content && ctx.redactIncoming ? ctx.redactIncoming(content) : content;
    await applyConversation(ctx.space.conversationsDir, segs[1]!.slice(0, -6), incoming, expectOid);
  } else if (area === 'tombstone') {
    return forgetFor(ctx, segs[1]!, content);
  } else if (area === 'space') {
    if (!content) return; // space.json is never deleted
    const theirs = parseSpaceInfo(content);
    const mine = await ctx.space.info();
    await setInfo(ctx, { name: theirs.name, colour: theirs.colour }, mine);
  }
}

/** The cap of an entry's area: what a blob there may weigh before it is read. */
function capOf(ctx: ApplyContext, segs: readonly string[]): number {
  const area = areaOf(segs);
  if (area === 'memory') return ctx.space.memory.limits.fileCapBytes;
  if (area === 'space') return SPACE_INFO_CAP_BYTES;
  if (area === 'tombstone') return TOMBSTONE_CAP_BYTES;
  return CONVERSATION_CAP_BYTES;
}

/** An entry's content, refused (by its object's declared size, before it is inflated) above its cap. */
async function readCapped(ctx: ApplyContext, e: TreeEntry): Promise<Buffer> {
  const cap = capOf(ctx, e.segs);
  const content = await ctx.git.readBlobCapped(e.oid, cap);
  if (content === 'too_large') throw new Refused(overLimit(cap));
  return content;
}

async function setInfo(
  ctx: ApplyContext,
  want: { name: string; colour: string },
  mine: SpaceInfo,
): Promise<void> {
  const patch: { name?: string; colour?: string } = {};
  if (want.name !== mine.name) patch.name = want.name;
  if (want.colour !== mine.colour) patch.colour = want.colour;
  if (Object.keys(patch).length === 0) return;
  try {
    await ctx.space.setInfo(patch);
  } catch (error) {
    throw new Refused(error instanceof Error ? error.message : 'the space could not be renamed');
  }
}

/** A tombstone from the other device: kept here as it came, and its path forgotten here too. */
async function forgetFor(
  ctx: ApplyContext,
  name: string,
  content: Buffer | null,
): Promise<string | undefined> {
  if (!content) return undefined; // tombstones are never removed
  const t = parseTombstone(content);
  if (!t || !TOMBSTONE_NAME.test(name)) throw new Refused('it is not a tombstone');
  // Every version goes, even where the file is not in memory now (deleted here, its history kept).
  if (!localTombstones(ctx.dataDir, ctx.space.id).has(name)) {
    if (ctx.space.forget) await ctx.space.forget(t.path);
    ctx.report.forgotten.push({ path: t.path, device: t.device });
  }
  keepTombstone(ctx.dataDir, ctx.space.id, name, content);
  return t.path;
}

export function parseSpaceInfo(content: Buffer): SpaceInfo {
  try {
    const j = JSON.parse(content.toString('utf8')) as Partial<SpaceInfo>;
    if (
      typeof j.id === 'string' &&
      typeof j.name === 'string' &&
      typeof j.colour === 'string' &&
      /^#[0-9a-f]{6}$/i.test(j.colour)
    ) {
      return {
        id: j.id,
        name: j.name,
        colour: j.colour.toLowerCase(),
        created: typeof j.created === 'string' ? j.created : '',
      };
    }
  } catch {
    // below
  }
  throw new Refused('it is not a space description');
}

async function merge(
  ctx: ApplyContext,
  d: Extract<Decision, { kind: 'merge' }>,
  shown: string,
): Promise<TreeEntry | null> {
  const why = structuralRefusal(d.remote);
  if (why) throw new Refused(why);
  const [base, mine, theirs] = await Promise.all([
    d.base ? readCapped(ctx, d.base) : Promise.resolve(Buffer.alloc(0)),
    readCapped(ctx, d.local),
    readCapped(ctx, d.remote),
  ]);
  if (areaOf(d.local.segs) === 'space') {
    const merged = mergeSpaceInfo(
      d.base ? parseSpaceInfo(base) : null,
      parseSpaceInfo(mine),
      parseSpaceInfo(theirs),
    );
    await setInfo(ctx, merged, await ctx.space.info());
    const json = spaceJson(merged);
    return { segs: d.local.segs, mode: FILE_MODE, oid: await ctx.git.writeBlob(json) };
  }
  const m = mergeText(
    base.toString('utf8'),
    mine.toString('utf8'),
    theirs.toString('utf8'),
    ctx.remoteDevice,
  );
  if (m.clean) {
    const content = Buffer.from(m.text, 'utf8');
    await applyMemory(
      ctx.space.memory,
      memoryPathOf(d.local.segs),
      content,
      d.local.oid,
      actorOf(ctx, d.key),
    );
    ctx.report.received.push({ path: shown, change: 'merged' });
    return { segs: d.local.segs, mode: FILE_MODE, oid: await ctx.git.writeBlob(content) };
  }
  // Same place on both sides: this device's file stays as it is; the other's waits beside the space,
  // outside the memory folder (the model never reads it), until the user resolves it.
  const id = createHash('sha1').update(d.key).update(d.remote.oid).digest('hex').slice(0, 16);
  mkdirSync(ctx.conflictsDir, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(ctx.conflictsDir, `${id}.theirs`), theirs, { mode: 0o600 });
  writeFileSync(path.join(ctx.conflictsDir, `${id}.draft`), m.draft, { mode: 0o600 });
  if (!ctx.conflicts.some((c) => c.id === id)) {
    ctx.conflicts.push({
      id,
      path: shown,
      device: ctx.remoteDevice,
      at: new Date().toISOString(),
      mineOid: blobOid(mine),
      theirsOid: d.remote.oid,
      baseOid: d.base?.oid ?? null,
    });
  }
  ctx.report.conflicts.push({ path: shown, device: ctx.remoteDevice });
  return d.local;
}
