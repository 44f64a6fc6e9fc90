// The three-way decision per file, against the merge base: pure, so the rules can be tested on their own.
// One side changed: take it. Both changed: memory files are merged by node-diff3 (a conflict keeps the
// local file and sets the other aside), a deletion against an edit keeps the edit, conversations are
// kept twice, space.json is merged field by field, and anything else the remote holds is left as it is.
import { diff3Merge } from 'node-diff3';
import type { TreeEntry } from './git-store.js';
import { isTwin } from './names.js';

export type Area = 'memory' | 'conversation' | 'space' | 'tombstone' | 'other';

export function areaOf(segs: readonly string[]): Area {
  if (segs[0] === 'memories' && segs.length > 1) return 'memory';
  if (segs[0] === 'conversations' && segs.length > 1) return 'conversation';
  if (segs.length === 1 && segs[0] === 'space.json') return 'space';
  if (segs[0] === 'tombstones' && segs.length === 2) return 'tombstone';
  return 'other';
}

export type Decision =
  /** Both sides hold the same (or only this device changed it): nothing arrives. */
  | { kind: 'keep'; key: string }
  /** Only the remote changed it (entry null: deleted there): apply to the space. */
  | { kind: 'take'; key: string; remote: TreeEntry | null; note?: string }
  /** Both changed the content of a memory file or space.json: merge the three texts. */
  | { kind: 'merge'; key: string; base: TreeEntry | null; local: TreeEntry; remote: TreeEntry }
  /** Both changed a conversation: the local one stays, the remote's is kept as a copy. */
  | { kind: 'fork'; key: string; remote: TreeEntry }
  /** Both changed; the local version is kept and the remote's is left on the remote, unused. */
  | { kind: 'keep-local'; key: string; note?: string };

const same = (a: TreeEntry | undefined, b: TreeEntry | undefined): boolean =>
  a === undefined ? b === undefined : b !== undefined && a.oid === b.oid && a.mode === b.mode;

export function decide(
  base: ReadonlyMap<string, TreeEntry>,
  local: ReadonlyMap<string, TreeEntry>,
  remote: ReadonlyMap<string, TreeEntry>,
): Decision[] {
  const keys = new Set([...base.keys(), ...local.keys(), ...remote.keys()]);
  const out: Decision[] = [];
  for (const key of [...keys].sort()) {
    const b = base.get(key);
    const l = local.get(key);
    const r = remote.get(key);
    if (same(l, r) || same(r, b)) {
      out.push({ kind: 'keep', key });
      continue;
    }
    if (same(l, b)) {
      out.push({ kind: 'take', key, remote: r ?? null });
      continue;
    }
    // A twin (names.ts) is never merged into the file it shares its NFC name with: left as the remote has it.
    const area = isTwin(key) ? 'other' : areaOf((l ?? r)!.segs);
    if (area === 'other') out.push({ kind: 'take', key, remote: r ?? null });
    else if (area === 'tombstone')
      out.push(l ? { kind: 'keep-local', key } : { kind: 'take', key, remote: r! });
    else if (!l) {
      out.push({
        kind: 'take',
        key,
        remote: r!,
        note: 'deleted on this device but changed on the other: the change is kept',
      });
    } else if (!r) {
      out.push({
        kind: 'keep-local',
        key,
        note: 'deleted on the other device but changed here: the change is kept',
      });
    } else if (area === 'conversation') out.push({ kind: 'fork', key, remote: r });
    else out.push({ kind: 'merge', key, base: b ?? null, local: l, remote: r });
  }
  return out;
}

export type TextMerge = { clean: true; text: string } | { clean: false; draft: string };

/** Lines with their endings, so a merge gives back the files' own bytes. */
const lines = (text: string): string[] => text.split(/(?<=\n)/);

/**
 * A three-way merge of text (node-diff3 over lines). Clean when the two sides changed different places
 * (at least one untouched line apart); otherwise a draft with conflict markers, for the panel only.
 */
export function mergeText(base: string, mine: string, theirs: string, theirLabel: string): TextMerge {
  const regions = diff3Merge(lines(mine), lines(base), lines(theirs), { excludeFalseConflicts: true });
  if (regions.every((r) => r.ok)) return { clean: true, text: regions.flatMap((r) => r.ok ?? []).join('') };
  const nl = (s: string[]): string => (s.length > 0 && !s.at(-1)!.endsWith('\n') ? '\n' : '');
  const draft = regions
    .map((r) => {
      if (r.ok) return r.ok.join('');
      const c = r.conflict!;
      return `<<<<<<< this device\n${c.a.join('')}${nl(c.a)}=======\n${c.b.join('')}${nl(c.b)}>>>>>>> ${theirLabel}\n`;
    })
    .join('');
  return { clean: false, draft };
}

export interface SpaceInfo {
  id: string;
  name: string;
  colour: string;
  created: string;
}

/** space.json's fields merged one by one: a field changed here stays, otherwise the remote's is taken. */
export function mergeSpaceInfo(base: SpaceInfo | null, mine: SpaceInfo, theirs: SpaceInfo): SpaceInfo {
  const pick = <K extends 'name' | 'colour'>(k: K): SpaceInfo[K] =>
    base && mine[k] !== base[k] ? mine[k] : theirs[k];
  return { ...mine, name: pick('name'), colour: pick('colour') };
}
