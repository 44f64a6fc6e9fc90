// Forgets that arrive from the remote, and this device's that have not reached it yet: what a sync does
// about "Forget permanently" on either side before it decides anything else (engine.ts).
import { createRedactor } from '../conversations/redact.js';
import { redactConversationBytes } from '../conversations/redact-files.js';
import type { GitStore, TreeEntry } from './git-store.js';
import { TOMBSTONE_CAP_BYTES } from './limits.js';
import type { SyncReport } from './report.js';
import type { SyncSpace } from './space-io.js';
import { keepTombstone, localTombstones, parseTombstone, TOMBSTONE_NAME } from './tombstones.js';

/**
 * The remote's tombstones this device has not applied yet: each path forgotten here as a local
 * "Forget permanently" would (file, history, conversation copies, indexes, conflicts, backups, this
 * device's git objects), then kept. Returns the paths forgotten.
 */
export async function applyRemoteForgets(
  at: { dataDir: string; space: SyncSpace; git: GitStore },
  remote: Map<string, TreeEntry>,
  report: SyncReport,
): Promise<string[]> {
  const known = localTombstones(at.dataDir, at.space.id);
  const out: string[] = [];
  for (const e of remote.values()) {
    const name = e.segs[1] ?? '';
    if (e.segs.length !== 2 || e.segs[0] !== 'tombstones' || known.has(name) || !TOMBSTONE_NAME.test(name))
      continue;
    const content = await at.git.readBlobCapped(e.oid, TOMBSTONE_CAP_BYTES);
    // Not a tombstone: refused with its reason when the tree is applied.
    const t = content === 'too_large' ? null : parseTombstone(content);
    if (!t || content === 'too_large') continue;
    if (at.space.forget) await at.space.forget(t.path);
    keepTombstone(at.dataDir, at.space.id, name, content);
    report.forgotten.push({ path: t.path, device: t.device });
    out.push(t.path);
  }
  return out;
}

/** The paths of this device's tombstones that `remote` does not hold. */
export function unseenForgets(mine: Map<string, Buffer>, remote: Map<string, TreeEntry>): string[] {
  const out: string[] = [];
  for (const [name, bytes] of mine) {
    if (remote.has(`tombstones/${name}`)) continue;
    const t = parseTombstone(bytes);
    if (t) out.push(t.path);
  }
  return out;
}

/** A conversation from the remote without the memory tool's copies of the files at `paths`. */
export function incomingRedactor(paths: readonly string[]): (content: Buffer) => Buffer {
  const redactor = createRedactor({ paths, versions: [] });
  return (content) => redactConversationBytes(content, redactor) ?? content;
}
