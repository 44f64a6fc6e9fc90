// Export and import of the memory folder.
export { exportMemory, exportFileName, type ExportOptions, type ExportResult } from './export.js';
export {
  ImportSessions,
  ImportTokenError,
  type ImportOptions,
  type ImportOutcome,
  type ImportPreview,
} from './import.js';
export {
  ArchiveError,
  defaultArchiveLimits,
  JOURNAL_PREFIX,
  TOP_FOLDER,
  type ArchiveLimits,
} from './limits.js';
export { readSource, type ImportSource, type SourceEntry } from './sources.js';
export { readZip, escapeReason, type ZipEntry } from './zip-reader.js';
