// The memory panel's channels. Paths are the model's view (`/memories/...`); host paths never cross.
// Export and import go through the host: a save/open dialog in Electron, a download/upload in the browser,
// so the renderer never names a host path (security.md).
import { z } from 'zod';
import type * as memory from '../../memory/types.js';
import { id, isoTime, memoryPath, ok, version } from './common.js';
import { spaceId } from './spaces.js';

export const memoryEntry = z.object({
  path: memoryPath,
  kind: z.enum(['file', 'dir']),
  size: z.number().int(),
  modifiedAt: isoTime,
  lastReadAt: isoTime.nullable(),
  stale: z.boolean(),
});
export type MemoryEntry = z.infer<typeof memoryEntry>;

export const journalEntry = z.object({
  id,
  at: isoTime,
  actor: z.enum(['agent', 'user', 'external', 'import', 'system', 'sync']),
  command: z.string(),
  path: memoryPath,
  newPath: memoryPath.optional(),
  beforeHash: z.string().nullable(),
  afterHash: z.string().nullable(),
  conversationId: id.optional(),
  conversationTitle: z.string().optional(),
  toolUseId: id.optional(),
  messageId: id.optional(),
  /** Arrived by sync: the device it came from (a name its user gave it) and who made it there. */
  device: z.string().max(200).optional(),
  origin: z.enum(['agent', 'user', 'external', 'import', 'system']).optional(),
  revertible: z.boolean(),
  /** A copy or move between spaces: the other space, as it was named then (shown as provenance). */
  fromSpace: z.object({ id: z.string(), name: z.string() }).optional(),
  toSpace: z.object({ id: z.string(), name: z.string() }).optional(),
});
export type JournalEntry = z.infer<typeof journalEntry>;

// The contract maps the memory layer's own types: each must fit its wire schema and back (a compile
// error here means the two drifted).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const memoryTypesMatch: [
  Same<MemoryEntry, memory.MemoryEntry>,
  Same<JournalEntry, memory.JournalEntry>,
] = [true, true];

/**
 * One fact of a Markdown file (memory/facts.ts): a list item (nested items are facts of their own, and
 * forgetting an item forgets its nested items), a paragraph or block, or a heading. Headings are structure:
 * listed for grouping, and removable only once their section holds no facts.
 */
export const fact = z.object({
  /** Hash of the text + occurrence among identical facts: stable across edits elsewhere in the file. */
  id: z.string(),
  text: z.string(),
  kind: z.enum(['item', 'paragraph', 'heading']),
  /** 1-based first line. */
  line: z.number().int(),
  /** 1-based last line of the fact itself (an item's nested items follow it). */
  endLine: z.number().int().optional(),
  /** List nesting depth (0 = top level). */
  depth: z.number().int().optional(),
  /** The enclosing item's id, for nested items. */
  parentId: z.string().optional(),
  /** Heading level 1-6. */
  level: z.number().int().optional(),
});
export type Fact = z.infer<typeof fact>;

const changeResult = z.object({ version, journalId: id });

const transferReq = z.object({ path: memoryPath, to: spaceId, as: memoryPath.optional() });
const transferRes = z.object({
  /** Where the file is now in the target space, and the target journal's entry. */
  path: memoryPath,
  journalId: id,
  /** Move only: the source journal's entry for the delete. */
  sourceJournalId: id.optional(),
});

export const importPreview = z.object({
  token: id,
  added: z.array(memoryPath),
  changed: z.array(memoryPath),
  unchanged: z.array(memoryPath),
  conflicts: z.array(z.object({ path: memoryPath, reason: z.string() })),
  refused: z.array(z.object({ path: z.string(), reason: z.string() })),
});

export const memoryInvoke = {
  'memory.list': {
    req: z.object({}),
    res: z.object({ entries: z.array(memoryEntry), totalBytes: z.number() }),
  },
  'memory.read': {
    req: z.object({ path: memoryPath }),
    res: z.object({ path: memoryPath, content: z.string(), version, facts: z.array(fact) }),
  },
  /** Save from the editor: `baseVersion` is the version it opened; a mismatch is a `conflict` error. */
  'memory.write': {
    req: z.object({ path: memoryPath, content: z.string(), baseVersion: version.nullable() }),
    res: changeResult,
  },
  'memory.create': {
    req: z.object({ path: memoryPath, content: z.string().default('') }),
    res: changeResult,
  },
  'memory.rename': {
    req: z.object({ path: memoryPath, newPath: memoryPath }),
    res: z.object({ journalId: id }),
  },
  'memory.delete': {
    req: z.object({ path: memoryPath }),
    res: z.object({ journalId: id }),
    destructive: true as const,
  },
  /** Remove one fact (list item or paragraph) from a file, journaled and undoable. */
  'memory.forgetFact': {
    req: z.object({ path: memoryPath, factId: z.string(), baseVersion: version }),
    res: changeResult,
  },
  /** Undo one journaled change (the toast's Undo, the history's Revert). */
  'memory.revert': { req: z.object({ journalId: id }), res: z.object({ journalId: id }) },
  'memory.history': {
    req: z.object({ path: memoryPath }),
    res: z.object({ entries: z.array(journalEntry) }),
  },
  'memory.diff': {
    req: z.object({ journalId: id }),
    res: z.object({
      path: memoryPath,
      before: z.string().nullable(),
      after: z.string().nullable(),
      patch: z.string(),
    }),
  },
  'memory.restore': { req: z.object({ journalId: id }), res: z.object({ journalId: id }) },
  /** Remove a file and every trace of it from the journal. */
  'memory.forget': { req: z.object({ path: memoryPath }), res: ok, destructive: true as const },
  'memory.search': {
    req: z.object({
      query: z.string().trim().min(1).max(500),
      limit: z.number().int().min(1).max(500).default(50),
    }),
    res: z.object({
      hits: z.array(
        z.object({
          path: memoryPath,
          line: z.number().int(),
          snippet: z.string(),
          /** [start, end) offsets of matches within the snippet, for highlighting. */
          ranges: z.array(z.tuple([z.number().int(), z.number().int()])),
        }),
      ),
      truncated: z.boolean(),
      /** Matching lines in all files (counting stops at 10,000: then a lower bound). */
      total: z.number().int().optional(),
    }),
  },
  'memory.stale': { req: z.object({}), res: z.object({ entries: z.array(memoryEntry) }) },
  /**
   * "Copy to space…": the file (from the call's space) is created in space `to` at `as` (default: the same
   * path), through that space's memory API: its guards (secrets, size, quota) apply, and its journal says
   * which space the file came from. A file already there is a `conflict` (nothing is overwritten).
   */
  'memory.copyToSpace': { req: transferReq, res: transferRes, transfer: true as const },
  /** "Move to space…": the copy above, then the file is deleted here, journaled here with where it went. */
  'memory.moveToSpace': { req: transferReq, res: transferRes, transfer: true as const },
  /** Electron: a save dialog picks the file. Browser: returns a one-time download URL. */
  'memory.export': {
    req: z.object({ includeJournal: z.boolean().default(false) }),
    res: z.object({
      saved: z.boolean(),
      fileName: z.string().optional(),
      downloadUrl: z.string().optional(),
      /**
       * What the zip does not hold, with the reason (links, hard-linked files, names that are not UTF-8 or
       * that equal another in NFC, files that cannot be read): an export never leaves anything out silently.
       */
      skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
    }),
  },
  /**
   * Preview an import. Electron: an open dialog picks a .zip or folder (`source` omitted). Browser: the
   * renderer first uploads the .zip and passes the upload id it got back.
   */
  'memory.importPreview': {
    req: z.object({ uploadId: id.optional() }),
    res: z.object({ preview: importPreview.nullable() }),
  },
  /** Writes the previewed files: changed ones (and conflicting ones, with overwriteConflicts) are replaced. */
  'memory.importApply': {
    req: z.object({ token: id, overwriteConflicts: z.boolean().default(false) }),
    res: z.object({ added: z.number().int(), changed: z.number().int(), skipped: z.number().int() }),
    destructive: true as const,
  },
};

export const memoryEvents = {
  /** Any change to memory, by any actor; the panel refreshes live. */
  'memory.changed': z.object({
    actor: z.enum(['agent', 'user', 'external', 'import', 'system', 'sync']),
    command: z.string(),
    path: memoryPath,
    newPath: memoryPath.optional(),
    journalId: id.optional(),
    conversationId: id.optional(),
  }),
};

export { ok };
