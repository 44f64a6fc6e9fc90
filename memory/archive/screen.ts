// Screening: every entry of an import source through the memory's own path and content guards. What
// passes is text the memory would accept at that path; everything else is a refusal with its reason.
import { checkContent } from '../content.js';
import { checkMemoryPath } from '../paths.js';
import type { MemoryLimits } from '../types.js';
import { ArchiveError, type ArchiveLimits } from './limits.js';
import { extraKind, type SourceEntry } from './sources.js';

export interface Screened {
  incoming: { path: string; content: string }[];
  refused: { path: string; reason: string }[];
}

const fatal = new TextDecoder('utf-8', { fatal: true });

function tooBig(budget: number, quota: number): string {
  return budget === quota
    ? `Refused: the import unpacks to more than ${quota} bytes, the memory's whole quota, so it cannot fit. ` +
        'Nothing was imported. Import a smaller archive, or raise the limit in Settings.'
    : `Refused: the import unpacks to more than ${budget} bytes, above the import limit. Nothing was imported.`;
}

export function fold(p: string): string {
  return p.normalize('NFKC').toLowerCase().normalize('NFC');
}

export function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let i = p.lastIndexOf('/'); i > '/memories'.length; i = p.lastIndexOf('/', i - 1))
    out.push(p.slice(0, i));
  return out;
}

/** A turn of the event loop, so the chat stream and the UI's socket are served between entries. */
const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Entries are read (inflated) one at a time with a running total: an import can never hold more than the
 * memory's quota (every file it brings is in memory afterwards), so reading stops at the first entry that
 * takes the total past it, and a small zip that expands a thousandfold costs at most the quota plus one
 * entry (itself at most the per-file cap) before it is refused.
 */
export async function screenEntries(
  entries: SourceEntry[],
  memoryLimits: Pick<MemoryLimits, 'fileCapBytes' | 'quotaBytes'>,
  limits: ArchiveLimits,
): Promise<Screened> {
  const refused: Screened['refused'] = [];
  const extras = { journal: 0, metadata: 0 };
  const hidden = new Map<string, number>();
  const incoming: { path: string; content: string }[] = [];
  const seen = new Map<string, string>();
  let readBytes = 0;
  const budget = Math.min(limits.maxTotalBytes, memoryLimits.quotaBytes);
  for (const entry of entries) {
    const extra = extraKind(entry.name);
    if (extra) {
      if (!entry.isDir) extras[extra]++;
      continue;
    }
    // Hidden folders (.git, .obsidian, ...) are tooling, not memory: one line each in the preview.
    const segments = entry.name.split('/');
    const hiddenAt = segments.findIndex(
      (seg, i) => seg.startsWith('.') && (entry.isDir || i < segments.length - 1),
    );
    if (hiddenAt >= 0) {
      const folder = `${segments.slice(0, hiddenAt + 1).join('/')}/`;
      hidden.set(folder, (hidden.get(folder) ?? 0) + (entry.isDir ? 0 : 1));
      continue;
    }
    if (entry.isDir) continue; // folders come with their files
    const checked = checkMemoryPath(`/memories/${entry.name}`);
    if (!checked.ok) {
      refused.push({ path: entry.name, reason: checked.message });
      continue;
    }
    const path = checked.path;
    const twin = seen.get(fold(path));
    if (twin !== undefined) {
      refused.push({
        path: entry.name,
        reason: `Differs only in case or accents from ${twin}, also in the import.`,
      });
      continue;
    }
    seen.set(fold(path), path);
    if (entry.refusal) {
      refused.push({ path: entry.name, reason: entry.refusal });
      continue;
    }
    if (entry.size > memoryLimits.fileCapBytes) {
      refused.push({
        path: entry.name,
        reason: `The file is ${entry.size} bytes, above the ${memoryLimits.fileCapBytes}-byte limit per memory file.`,
      });
      continue;
    }
    const bytes = await entry.read();
    readBytes += bytes.length;
    if (readBytes > budget) throw new ArchiveError(tooBig(budget, memoryLimits.quotaBytes));
    await yieldToLoop();
    let content: string;
    try {
      content = fatal.decode(bytes);
    } catch {
      refused.push({
        path: entry.name,
        reason: 'It is not UTF-8 text (a binary file?); memory holds text only.',
      });
      continue;
    }
    try {
      checkContent(path, content, memoryLimits);
    } catch (error) {
      refused.push({ path: entry.name, reason: (error as Error).message });
      continue;
    }
    incoming.push({ path, content });
  }
  for (const [folder, files] of hidden) {
    refused.push({
      path: folder,
      reason: `A hidden folder${files > 0 ? ` (${files} files)` : ''}: tool settings, not memory. Not imported.`,
    });
  }
  if (extras.journal > 0) {
    refused.push({
      path: '.mnemo-journal/',
      reason: `The journal (${extras.journal} files) stays in the archive for your records; import restores files, not history.`,
    });
  }
  if (extras.metadata > 0) {
    refused.push({
      path: '__MACOSX/, .DS_Store',
      reason: `File-manager metadata (${extras.metadata} entries), not memory.`,
    });
  }
  // A file named like a folder of the same import ("a" and "a/b.md") cannot both exist: keep the folder.
  const folders = new Set(incoming.flatMap((f) => ancestors(f.path)));
  const clashing = incoming.filter((f) => folders.has(f.path));
  for (const f of clashing) {
    refused.push({
      path: f.path.slice('/memories/'.length),
      reason: 'The import also has a folder with this name.',
    });
  }
  return { incoming: incoming.filter((f) => !folders.has(f.path)), refused };
}
