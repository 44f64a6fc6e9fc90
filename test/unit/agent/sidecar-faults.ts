// What the page-sidecar properties do to a conversation's files behind the store's back: a torn last
// line, a cut, a hand edit in place, the sidecar damaged, deleted or put back from an earlier start.
// Shared by the page index's and the context meter's properties, which hold the sidecar to a replay, with
// the folder they run in.
import { readFileSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach } from 'vitest';
import { PAGES_DIR, pageFileOf } from '../../../electron/core/conversations/page-file.js';
import type { ConversationRecord } from '../../../electron/core/conversations/records.js';

/**
 * Registers the hooks: each test gets a fresh conversations folder, removed after it. `dir()` is that
 * folder, `file(id)` a conversation's file in it (valid inside a test).
 */
export function sidecarFolder(prefix: string): { dir: () => string; file: (id: string) => string } {
  let dir = '';
  beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), prefix))));
  afterEach(async () => rm(dir, { recursive: true, force: true }));
  return { dir: () => dir, file: (id) => conversationFile(dir, id) };
}

const conversationFile = (dir: string, id: string): string => path.join(dir, `${id}.jsonl`);

/** A record as a line of a conversation file, as another process appending to it writes it. */
export const line = (r: ConversationRecord): string => `${JSON.stringify(r)}\n`;

export type FileFault =
  | { op: 'torn'; c: number }
  | { op: 'cut'; c: number; at: number }
  | { op: 'damageSidecar'; c: number; text: string }
  | { op: 'dropSidecar'; c: number }
  | { op: 'restoreSidecar'; c: number; pick: number };

/** The faults, on conversation `c`; `damaged`: the texts a damaged sidecar may hold ("x" becomes its id). */
export function fileFaults(
  c: fc.Arbitrary<number>,
  damaged: string[],
  { drop }: { drop: boolean },
): fc.Arbitrary<FileFault>[] {
  return [
    fc.record({ op: fc.constant('torn' as const), c }),
    fc.record({ op: fc.constant('cut' as const), c, at: fc.double({ min: 0, max: 1, noNaN: true }) }),
    fc.record({ op: fc.constant('damageSidecar' as const), c, text: fc.constantFrom(...damaged) }),
    ...(drop ? [fc.record({ op: fc.constant('dropSidecar' as const), c })] : []),
    // A sidecar an earlier start found put back: whole and well-formed, but maybe stale.
    fc.record({ op: fc.constant('restoreSidecar' as const), c, pick: fc.nat() }),
  ];
}

const FAULTS = new Set<string>(['torn', 'cut', 'damageSidecar', 'dropSidecar', 'restoreSidecar']);
export const isFileFault = (o: { op: string }): o is FileFault => FAULTS.has(o.op);

/** Sidecars seen after each start, by conversation, for `restoreSidecar` to put back. */
export type KeptSidecars = Map<string, Buffer[]>;

export async function keepSidecars(dir: string, ids: readonly string[], kept: KeptSidecars): Promise<void> {
  for (const id of ids) {
    const saved = await readFile(pageFileOf(dir, id)).catch(() => null);
    if (saved) kept.set(id, [...(kept.get(id) ?? []), saved]);
  }
}

export async function applyFileFault(
  dir: string,
  id: string,
  fault: FileFault,
  kept: KeptSidecars,
): Promise<void> {
  const file = conversationFile(dir, id);
  switch (fault.op) {
    case 'torn': {
      const torn: ConversationRecord = { t: 'title', title: 'torn', at: '2026-01-01T00:00:00.000Z' };
      await appendFile(file, `${JSON.stringify(torn)}\n`.slice(0, 12));
      break;
    }
    case 'cut':
      truncateSync(file, Math.floor(statSync(file).size * fault.at));
      break;
    case 'damageSidecar':
      await mkdir(path.join(dir, PAGES_DIR), { recursive: true });
      await writeFile(pageFileOf(dir, id), fault.text.replace('"x"', JSON.stringify(id)));
      break;
    case 'dropSidecar':
      await rm(pageFileOf(dir, id), { force: true });
      break;
    case 'restoreSidecar': {
      const all = kept.get(id);
      if (all) await writeFile(pageFileOf(dir, id), all[fault.pick % all.length]!);
      break;
    }
  }
}

/**
 * A hand edit in place: same length and inode, `edit` changes one character (or returns null for none);
 * only the mtime, moved on 5 s, tells. Call with the store closed. True when the file was edited.
 */
export function editInPlace(file: string, edit: (text: string) => string | null): boolean {
  const text = readFileSync(file, 'utf8');
  const edited = edit(text);
  if (edited === null) return false;
  const before = statSync(file).mtimeMs;
  writeFileSync(file, edited);
  const t = new Date(before + 5_000);
  utimesSync(file, t, t);
  return true;
}
