// What sync takes from a remote, at most. Every entry of a space has a cap, checked on the object's size
// before its content is read; the fetch itself is bounded too, because isomorphic-git holds a fetched pack
// whole in memory and inflates each of its objects whole (pack-guard.ts reads the pack first).
import type { PackLimits } from './pack-guard.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** A conversation file larger than this is refused from a remote (a hostile one could fill the disk). */
export const CONVERSATION_CAP_BYTES = 64 * MiB;
/** space.json: an id, a name and a colour. */
export const SPACE_INFO_CAP_BYTES = 64 * KiB;
/** A tombstone: a memory path, a time and a device name. */
export const TOMBSTONE_CAP_BYTES = 16 * KiB;

export const PACK_LIMITS: PackLimits = {
  // The largest entry any area accepts (memory files are capped far lower, at 10 MB at most): a bigger
  // blob is set aside while the pack streams by, and its entry refused by name.
  blobBytes: CONVERSATION_CAP_BYTES,
  // A sync commit names each change in a trailer line and a tree lists one folder: megabytes at most.
  otherBytes: 16 * MiB,
  // A first sync of a large space (conversations of many megabytes) fits; a fetch beyond it needs a
  // smaller remote, not more memory.
  packBytes: 256 * MiB,
  objects: 500_000,
  // Set-aside objects are inflated (never kept) to find their end and their id: a GiB costs seconds.
  scanBytes: 4 * 1024 * MiB,
  answerBytes: 16 * MiB,
};

/** The refusal of an entry above its cap, in the words every face shows. */
export const overLimit = (capBytes: number): string =>
  `it is larger than the ${Math.round(capBytes / KiB)} KiB limit`;
