// A conversations folder's own stat, which tells whether any name came into it or left it since: the
// first list's discover (store.ts) and a start's listing (folder-load.ts, through the stamp the summary
// cache keeps) skip reading the folder's names when it says none did.
import { statSync } from 'node:fs';

/** A folder's own stat, taken before its names were read, with when (Date.now()) it was taken. */
export interface FolderStamp {
  ino: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  takenAt: number;
}

export function folderStamp(dir: string): FolderStamp | null {
  try {
    const s = statSync(dir, { bigint: true });
    return { ino: s.ino, mtimeNs: s.mtimeNs, ctimeNs: s.ctimeNs, takenAt: Date.now() };
  } catch {
    return null;
  }
}

/** The stamp was old enough when taken: a change in the same tick of the file system's clock leaves the same time. */
export function settledWhenTaken(stamp: FolderStamp): boolean {
  // A few milliseconds where times have a sub-second part, up to two seconds where they have none (FAT,
  // older file systems).
  const ms = Number(stamp.mtimeNs / 1_000_000n);
  const tick = stamp.mtimeNs % 1_000_000_000n === 0n ? 2_000 : 100;
  return ms <= stamp.takenAt - tick;
}

export const sameFolder = (a: FolderStamp, b: FolderStamp): boolean =>
  a.ino === b.ino && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;

/**
 * No name came into `dir` or left it since `stamp` (a folder's modification time moves with every entry
 * created, removed or renamed in it), which must have been old enough when taken.
 */
export function unchangedSince(dir: string, stamp: FolderStamp): boolean {
  if (!settledWhenTaken(stamp)) return false;
  const now = folderStamp(dir);
  return now !== null && sameFolder(now, stamp);
}

/** The stamp as the summary cache keeps it (decimal fields, ':' between them), and back. */
export const stampText = (s: FolderStamp): string => `${s.ino}:${s.mtimeNs}:${s.ctimeNs}:${s.takenAt}`;

export function stampFromText(text: string): FolderStamp | null {
  const m = /^(\d{1,20}):(\d{1,25}):(\d{1,25}):(\d{1,16})$/.exec(text);
  if (!m) return null;
  return { ino: BigInt(m[1]!), mtimeNs: BigInt(m[2]!), ctimeNs: BigInt(m[3]!), takenAt: Number(m[4]) };
}
