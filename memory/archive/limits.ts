// Limits and the one error type of export/import. An ArchiveError refuses a whole import; its message is
// shown as is (it names entries by their stored name, never a host path).

export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveError';
  }
}

export interface ArchiveLimits {
  /** The .zip file itself. */
  maxArchiveBytes: number;
  /** Entries (files and folders) in an archive or a picked folder. */
  maxEntries: number;
  /** Declared size of one entry; above it the archive is refused as hostile (the memory's own per-file cap,
   *  far lower, refuses just that entry). */
  maxEntryBytes: number;
  /** Declared sizes of all entries together. */
  maxTotalBytes: number;
  /** Folder depth when importing a folder. */
  maxDepth: number;
}

export const defaultArchiveLimits: ArchiveLimits = {
  maxArchiveBytes: 256 * 1024 * 1024,
  maxEntries: 20_000,
  maxEntryBytes: 64 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
  maxDepth: 16,
};

/** Where the journal goes inside an export made "with journal". Import never reads it back. */
export const JOURNAL_PREFIX = '.mnemo-journal/';
/** Exports put the files under this top folder; an import strips it. */
export const TOP_FOLDER = 'memories/';
