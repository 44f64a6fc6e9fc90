// The memory panel's channels, over the memory layer (ctx.memory), its search index (ctx.memorySearch),
// facts and export/import. Every change here is the user's (actor 'user'); every change by anyone is
// re-emitted as a `memory.changed` event so the panel updates live.
import { ImportSessions, ImportTokenError } from '../../../memory/archive/import.js';
import { ArchiveError } from '../../../memory/archive/limits.js';
import { FactError, removeFact, splitFacts } from '../../../memory/facts.js';
import { isMemoryError, type Actor, type ChangeEvent } from '../../../memory/index.js';
import type { DomainHandlers, EventPayload, ResOut } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import { confirmNatively } from '../confirm.js';
import type { CoreContext } from '../context.js';
import { diskMessage } from '../disk-errors.js';
import { forgetEverywhere } from '../forget.js';
import { spaceExportName } from '../spaces/export-name.js';
import { PERSONAL_ID } from '../spaces/model.js';

// The transfers to another space (`transfer: true`) are in transfer.ts.
type Domain = DomainHandlers<'memory'>;

const USER: Actor = { kind: 'user' };

/** Memory-layer errors become contract errors with the same clear message (never a host path). */
export function toContractError(error: unknown, ctx: Pick<CoreContext, 'log'>): ContractError {
  if (error instanceof ContractError) return error;
  if (isMemoryError(error)) {
    switch (error.code) {
      case 'conflict':
        return new ContractError('conflict', error.message, error.details);
      case 'not_found':
        return new ContractError('not_found', error.message);
      case 'closed':
        return new ContractError('unavailable', error.message);
      default:
        return new ContractError('invalid_request', error.message);
    }
  }
  if (error instanceof FactError) {
    return new ContractError(error.code === 'not_found' ? 'not_found' : 'invalid_request', error.message);
  }
  if (error instanceof ArchiveError) return new ContractError('invalid_request', error.message);
  if (error instanceof ImportTokenError) return new ContractError('not_found', error.message);
  const disk = diskMessage(error);
  if (disk) return new ContractError('unavailable', disk);
  ctx.log.error('memory handler failed', { error });
  return new ContractError(
    'internal',
    'Something went wrong with memory; nothing else was changed. See the log.',
  );
}

function changedPayload(event: ChangeEvent): EventPayload<'memory.changed'> {
  const payload: EventPayload<'memory.changed'> = {
    actor: event.actor,
    command: event.command,
    path: event.path,
  };
  if (event.newPath !== undefined) payload.newPath = event.newPath;
  if (event.journalId !== undefined) payload.journalId = event.journalId;
  if (event.conversationId !== undefined) payload.conversationId = event.conversationId;
  return payload;
}

export function createMemoryHandlers(ctx: CoreContext): Domain {
  const { memory } = ctx;
  const imports = new ImportSessions(memory);
  // Every change, by any actor (agent, user, import, the watcher's external edits), reaches the panel.
  memory.onChange((event) => ctx.events.emit('memory.changed', changedPayload(event)));

  /** Run `fn`, turning any failure into a ContractError. */
  const guard =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } catch (error) {
        throw toContractError(error, ctx);
      }
    };

  return {
    'memory.list': guard(async () => {
      const [entries, usage] = await Promise.all([memory.list(), memory.usage()]);
      return { entries, totalBytes: usage.totalBytes };
    }),
    'memory.read': guard(async ({ path }) => {
      const file = await memory.read(path);
      return { ...file, facts: splitFacts(file.content) };
    }),
    'memory.write': guard(({ path, content, baseVersion }) => memory.write(path, content, baseVersion, USER)),
    'memory.create': guard(({ path, content }) => memory.create(path, content, USER)),
    'memory.rename': guard(({ path, newPath }) => memory.rename(path, newPath, USER)),
    'memory.delete': guard(async ({ path }) => {
      // Where shared/confirmations.ts says the host asks (a folder, in Electron), it asks here.
      await confirmNatively(ctx.host, 'memory.delete', async () => {
        const entries = await memory.list();
        const isFolder = entries.some((e) => e.path === path && e.kind === 'dir');
        const folderFiles = isFolder
          ? entries.filter((e) => e.kind === 'file' && e.path.startsWith(`${path}/`)).length
          : undefined;
        return { path, folderFiles };
      });
      return memory.delete(path, USER);
    }),
    'memory.forgetFact': guard(async ({ path, factId, baseVersion }) => {
      const file = await memory.read(path);
      if (file.version !== baseVersion) {
        throw new ContractError(
          'conflict',
          `${path} changed since it was shown; nothing was forgotten. Review the current version and try again.`,
          { path, current: file.content, mine: null },
        );
      }
      const next = removeFact(file.content, factId);
      return memory.write(path, next, baseVersion, USER);
    }),
    'memory.revert': guard(({ journalId }) => memory.revert(journalId, USER)),
    'memory.history': guard(async ({ path }) => ({ entries: await memory.history(path) })),
    'memory.diff': guard(({ journalId }) => memory.diff(journalId)),
    'memory.restore': guard(({ journalId }) => memory.restore(journalId, USER)),
    'memory.forget': guard(async ({ path }) => {
      await confirmNatively(ctx.host, 'memory.forget', async () => ({
        path,
        synced: Boolean((await ctx.sync?.['sync.status'](ctx.space?.id ?? PERSONAL_ID, {}))?.remote),
      }));
      await forgetEverywhere(ctx, path);
      return { ok: true as const };
    }),
    'memory.search': guard(async ({ query, limit }) => {
      const result = await ctx.memorySearch.search(query, limit);
      return {
        hits: result.hits.map(({ path, line, snippet, ranges }) => ({ path, line, snippet, ranges })),
        truncated: result.truncated,
        total: result.total,
      };
    }),
    'memory.stale': guard(async () => ({ entries: await memory.stale() })),
    'memory.export': guard(async ({ includeJournal }) => {
      // The zip writer is loaded by the first export, not with the backend.
      const { exportMemory } = await import('../../../memory/archive/export.js');
      const archive = await exportMemory(memory, { includeJournal });
      const saved = await ctx.host.saveFile({
        defaultName: spaceExportName(archive.fileName, ctx.space),
        mime: 'application/zip',
        data: archive.data,
      });
      ctx.log.info('memory exported', {
        files: archive.files,
        journal: archive.journalFiles,
        skipped: archive.skipped.length,
        saved: saved.saved,
      });
      const res: ResOut<'memory.export'> = { saved: saved.saved, skipped: archive.skipped };
      if (saved.fileName !== undefined) res.fileName = saved.fileName;
      if (saved.downloadUrl !== undefined) res.downloadUrl = saved.downloadUrl;
      return res;
    }),
    'memory.importPreview': guard(async ({ uploadId }) => {
      const source = await ctx.host.pickImport({ uploadId });
      if (!source) return { preview: null };
      return { preview: await imports.preview(source) };
    }),
    'memory.importApply': guard(async ({ token, overwriteConflicts }) => {
      await confirmNatively(ctx.host, 'memory.importApply');
      return imports.apply(token, overwriteConflicts);
    }),
  };
}
