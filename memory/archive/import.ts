// Import: a preview first, applying nothing; then, with the preview's token, the writes.
//
// Every entry passes the memory's own path and content guards (checkMemoryPath, checkContent) before it
// can be listed as importable. The preview sorts them:
// - added: the path does not exist here;
// - unchanged: the file here has the same content (nothing to do);
// - changed: the file here differs, and the archive's version is not one this file had before: applied;
// - conflicts: applied only with `overwriteConflicts`: the archive holds an *earlier* version of a file
//   that has moved on here (per the journal), so importing it would undo later edits. Also, never applied:
//   a folder here where the archive has a file, a file here where the archive needs a folder, a name that
//   differs from an existing one only in case;
// - refused: entries the memory does not accept (names, size, encoding, secrets, links in a folder), the
//   journal of an export (kept for the record, not imported) and file-manager litter.
// Apply writes through Memory.write with actor 'import' and the version seen at preview time, so a file
// that changed after the preview is skipped, never overwritten; every write is journaled and revertible.
import { createHash, randomUUID } from 'node:crypto';
import { isMemoryError } from '../errors.js';
import type { Memory } from '../types.js';
import { ArchiveError, defaultArchiveLimits, type ArchiveLimits } from './limits.js';
import { ancestors, fold, screenEntries } from './screen.js';
import { readSource, type ImportSource } from './sources.js';

export interface ImportPreview {
  token: string;
  added: string[];
  changed: string[];
  unchanged: string[];
  conflicts: { path: string; reason: string }[];
  refused: { path: string; reason: string }[];
}

export interface ImportOutcome {
  added: number;
  changed: number;
  skipped: number;
}

/** A token that is unknown, used or expired. */
export class ImportTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportTokenError';
  }
}

interface PlanItem {
  path: string;
  content?: string;
  action: 'add' | 'change' | 'conflict';
  /** Content hash the file had at preview time; null = it did not exist. */
  baseVersion: string | null;
  overwritable: boolean;
}

interface Session {
  expiresAt: number;
  plan: PlanItem[];
}

export interface ImportOptions {
  limits?: Partial<ArchiveLimits>;
  /** How long a preview stays valid. Default 10 minutes. */
  ttlMs?: number;
  clock?: () => number;
}

type ImportMemory = Pick<Memory, 'limits' | 'list' | 'read' | 'write' | 'history' | 'usage'>;

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const MAX_SESSIONS = 8;

export class ImportSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly limits: ArchiveLimits;
  private readonly ttlMs: number;
  private readonly clock: () => number;

  constructor(
    private readonly memory: ImportMemory,
    options: ImportOptions = {},
  ) {
    this.limits = { ...defaultArchiveLimits, ...options.limits };
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.clock = options.clock ?? Date.now;
  }

  /** Read and check the source, compare it with memory, and remember the plan under a token. */
  async preview(source: ImportSource): Promise<ImportPreview> {
    const entries = await readSource(source, this.limits);
    const { incoming, refused } = await screenEntries(entries, this.memory.limits, this.limits);
    return this.compare(incoming, refused);
  }

  private async compare(
    incoming: { path: string; content: string }[],
    refused: ImportPreview['refused'],
  ): Promise<ImportPreview> {
    const here = new Map((await this.memory.list()).map((e) => [e.path, e] as const));
    const folded = new Map([...here.keys()].map((p) => [fold(p), p] as const));
    const preview: ImportPreview = {
      token: randomUUID(),
      added: [],
      changed: [],
      unchanged: [],
      conflicts: [],
      refused,
    };
    const plan: PlanItem[] = [];
    let growth = 0;
    const structural = (path: string, reason: string): void => {
      preview.conflicts.push({ path, reason });
      plan.push({ path, action: 'conflict', baseVersion: null, overwritable: false });
    };
    for (const { path, content } of incoming) {
      const existing = here.get(path);
      const blockingFile = ancestors(path).find((a) => here.get(a)?.kind === 'file');
      const caseTwin = folded.get(fold(path));
      if (existing?.kind === 'dir') {
        structural(path, 'A folder with this name exists here; the file cannot replace it.');
      } else if (blockingFile) {
        structural(path, `${blockingFile} is a file here, not a folder.`);
      } else if (!existing && caseTwin !== undefined && caseTwin !== path) {
        structural(path, `Differs only in case from ${caseTwin}, which exists here.`);
      } else if (!existing) {
        preview.added.push(path);
        plan.push({ path, content, action: 'add', baseVersion: null, overwritable: true });
        growth += Buffer.byteLength(content);
      } else {
        let current: { content: string; version: string };
        try {
          current = await this.memory.read(path);
        } catch (error) {
          structural(path, isMemoryError(error) ? error.message : 'The file here cannot be read.');
          continue;
        }
        if (current.content === content) {
          preview.unchanged.push(path);
          continue;
        }
        const hash = sha256(content);
        const history = await this.memory.history(path).catch(() => []);
        const earlier = history.some((h) => h.beforeHash === hash || h.afterHash === hash);
        if (earlier) {
          preview.conflicts.push({
            path,
            reason:
              'The archive holds an earlier version of this file; it was edited here since. ' +
              'Kept unless you choose to overwrite.',
          });
          plan.push({ path, content, action: 'conflict', baseVersion: current.version, overwritable: true });
        } else {
          preview.changed.push(path);
          plan.push({ path, content, action: 'change', baseVersion: current.version, overwritable: true });
          growth += Buffer.byteLength(content) - Buffer.byteLength(current.content);
        }
      }
    }
    const usage = await this.memory.usage();
    if (usage.totalBytes + growth > usage.quotaBytes) {
      throw new ArchiveError(
        `Importing this would bring memory to ${usage.totalBytes + growth} bytes, above its ${usage.quotaBytes}-byte quota. ` +
          'Free some space or raise the limit in Settings, then import again.',
      );
    }
    const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
    for (const list of [preview.added, preview.changed, preview.unchanged]) list.sort(byPath);
    preview.conflicts.sort((a, b) => byPath(a.path, b.path));
    this.remember(preview.token, plan);
    return preview;
  }

  private remember(token: string, plan: PlanItem[]): void {
    const now = this.clock();
    for (const [key, s] of this.sessions) if (s.expiresAt <= now) this.sessions.delete(key);
    while (this.sessions.size >= MAX_SESSIONS) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
    this.sessions.set(token, { expiresAt: now + this.ttlMs, plan });
  }

  /** Apply a preview once. Files that changed since the preview are skipped, not overwritten. */
  async apply(token: string, overwriteConflicts: boolean): Promise<ImportOutcome> {
    const session = this.sessions.get(token);
    this.sessions.delete(token);
    if (!session || session.expiresAt <= this.clock()) {
      throw new ImportTokenError(
        'This import preview has expired or was already used. Preview the import again.',
      );
    }
    const outcome: ImportOutcome = { added: 0, changed: 0, skipped: 0 };
    for (const item of session.plan) {
      const go =
        item.content !== undefined &&
        (item.action !== 'conflict' || (overwriteConflicts && item.overwritable));
      if (!go || item.content === undefined) {
        outcome.skipped++;
        continue;
      }
      try {
        await this.memory.write(item.path, item.content, item.baseVersion, { kind: 'import' });
        if (item.action === 'add') outcome.added++;
        else outcome.changed++;
      } catch (error) {
        // Changed meanwhile (conflict/exists), or refused now (quota): skip it, keep going, lose nothing.
        if (!isMemoryError(error)) throw error;
        outcome.skipped++;
      }
    }
    return outcome;
  }
}
