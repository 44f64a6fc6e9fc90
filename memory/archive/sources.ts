// Import sources as one list of entries: a .zip (through the defensive reader) or a folder on disk. Both
// strip the export's top folder (`memories/`) so an export imports back to the same paths.
import { lstat, readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { ArchiveError, JOURNAL_PREFIX, TOP_FOLDER, type ArchiveLimits } from './limits.js';
import type { readZip } from './zip-reader.js';

export type ImportSource = { kind: 'zip'; name: string; data: Uint8Array } | { kind: 'folder'; path: string };

export interface SourceEntry {
  /** Relative, '/'-separated, no leading slash; for folders without the trailing slash. */
  name: string;
  isDir: boolean;
  /** Declared (zip) or on-disk (folder) size. */
  size: number;
  /** Set when the entry must be refused before reading it (a link in a picked folder, encryption). */
  refusal?: string;
  read(): Promise<Uint8Array>;
}

/** Entries outside memory proper: the journal of an export, and file-manager litter. */
export function extraKind(name: string): 'journal' | 'metadata' | undefined {
  if (name.startsWith(JOURNAL_PREFIX) || name === JOURNAL_PREFIX.slice(0, -1)) return 'journal';
  const base = name.slice(name.lastIndexOf('/') + 1);
  if (
    name.startsWith('__MACOSX/') ||
    name === '__MACOSX' ||
    ['.DS_Store', 'Thumbs.db', 'desktop.ini'].includes(base)
  )
    return 'metadata';
  return undefined;
}

/** Strip `memories/` when every memory entry sits under it (our own exports). */
function stripTop(entries: SourceEntry[]): SourceEntry[] {
  const top = TOP_FOLDER.slice(0, -1);
  const content = entries.filter((e) => extraKind(e.name) === undefined);
  const allUnder =
    content.length > 0 && content.every((e) => e.name === top || e.name.startsWith(TOP_FOLDER));
  if (!allUnder) return entries;
  return entries
    .filter((e) => e.name !== top)
    .map((e) => (e.name.startsWith(TOP_FOLDER) ? { ...e, name: e.name.slice(TOP_FOLDER.length) } : e));
}

function fromZip(zip: typeof readZip, data: Uint8Array, limits: ArchiveLimits): SourceEntry[] {
  return zip(data, limits).map((entry): SourceEntry => {
    const item: SourceEntry = {
      name: entry.name.replace(/\/+$/, ''),
      isDir: entry.isDir,
      size: entry.size,
      read: () => Promise.resolve(entry.read()),
    };
    if (entry.encrypted) item.refusal = 'The entry is encrypted; encrypted entries cannot be imported.';
    else if (entry.method !== 0 && entry.method !== 8)
      item.refusal = `The entry uses an unsupported compression method (${entry.method}).`;
    return item;
  });
}

async function fromFolder(root: string, limits: ArchiveLimits): Promise<SourceEntry[]> {
  const rootStat = await lstat(root).catch(() => undefined);
  if (!rootStat?.isDirectory())
    throw new ArchiveError('The chosen folder cannot be read. Pick a folder of Markdown files.');
  const out: SourceEntry[] = [];
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    const items = await readdir(dir, { withFileTypes: true }).catch(() => {
      throw new ArchiveError(`The folder "${rel || '.'}" cannot be read (permission denied?).`);
    });
    for (const item of items.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const name = rel + item.name;
      const host = path.join(dir, item.name);
      if (out.length >= limits.maxEntries) {
        throw new ArchiveError(
          `The folder has more than ${limits.maxEntries} entries, above the import limit.`,
        );
      }
      // Node reads names lossily: a name that is not UTF-8 comes back with U+FFFD and leads nowhere.
      if (item.name.includes('\ufffd') && !(await lstat(host).catch(() => undefined))) {
        out.push({
          name,
          isDir: false,
          size: 0,
          refusal:
            'Its name is not valid UTF-8, so it cannot be read by that name. Rename it and import again.',
          read: () => Promise.reject(new ArchiveError('names that are not UTF-8 are not read')),
        });
        continue;
      }
      if (item.isSymbolicLink()) {
        out.push({
          name,
          isDir: false,
          size: 0,
          refusal: 'It is a link; links are not followed, so they cannot pull in files from elsewhere.',
          read: () => Promise.reject(new ArchiveError('links are not read')),
        });
      } else if (item.isDirectory()) {
        out.push({ name, isDir: true, size: 0, read: () => Promise.resolve(new Uint8Array(0)) });
        if (depth + 1 > limits.maxDepth) {
          throw new ArchiveError(`The folder is nested deeper than ${limits.maxDepth} levels.`);
        }
        // Journal, litter and hidden folders (.git can be huge) are reported, not walked.
        if (extraKind(name) === undefined && !item.name.startsWith('.'))
          await walk(host, `${name}/`, depth + 1);
      } else if (item.isFile()) {
        const stat = await lstat(host);
        out.push({ name, isDir: false, size: stat.size, read: () => readFile(host) });
      } else {
        out.push({
          name,
          isDir: false,
          size: 0,
          refusal: 'It is not a regular file (a device, pipe or socket).',
          read: () => Promise.reject(new ArchiveError('not a file')),
        });
      }
    }
  };
  await walk(root, '', 0);
  return out;
}

export async function readSource(source: ImportSource, limits: ArchiveLimits): Promise<SourceEntry[]> {
  // The zip reader (and its inflater) is loaded by the first import of a zip, not with the memory layer.
  const entries =
    source.kind === 'zip'
      ? fromZip((await import('./zip-reader.js')).readZip, source.data, limits)
      : await fromFolder(source.path, limits);
  return stripTop(entries);
}
