// Moving things between spaces: "Copy to space…" / "Move to space…" of a memory file, "Move to space…" of
// a conversation. The only handlers that reach a second space, and only the one the request names (`to`):
// the source is always this table's own space. Both sides go through their own APIs, so the target's
// guards (secrets, size, quota) and journal apply there, and the source's here.
import { isMemoryError, parseMemoryPath, type SpaceRef } from '../../../memory/index.js';
import { PERSONAL_SPACE_ID } from '../../../shared/channels/spaces.js';
import type { Handlers, TransferHandlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import { getAgent } from '../agent/index.js';
import { showCard } from '../agent/session.js';
import type { CoreContext } from '../context.js';
import { summarize } from '../conversations/store.js';
import { toContractError } from './memory.js';

// Which channels are transfers is the contract's (`transfer: true` on the channel's spec).
type Domain = TransferHandlers;

function refOf(ctx: CoreContext): SpaceRef {
  return { id: ctx.space?.id ?? PERSONAL_SPACE_ID, name: ctx.space?.name() ?? 'Personal' };
}

export function createTransferHandlers(ctx: CoreContext): Domain {
  const here = (): string => ctx.space?.id ?? PERSONAL_SPACE_ID;
  /** The space named `to`: another one, existing now. */
  const target = async (to: string): Promise<CoreContext> => {
    if (to === here()) throw new ContractError('invalid_request', 'That is already in this space.');
    if (!ctx.spaces) throw new ContractError('unavailable', 'Spaces are not available here.');
    return (await ctx.spaces.route(to)).ctx;
  };

  const transfer =
    (move: boolean): Handlers['memory.copyToSpace'] =>
    async ({ path, to, as }) => {
      const other = await target(to);
      let file;
      let dest: string;
      try {
        file = await ctx.memory.read(path);
        dest = parseMemoryPath(as ?? file.path).path;
      } catch (error) {
        throw toContractError(error, ctx);
      }
      let created;
      try {
        created = await other.memory.create(dest, file.content, { kind: 'user', fromSpace: refOf(ctx) });
      } catch (error) {
        if (isMemoryError(error) && error.code === 'exists') {
          throw new ContractError(
            'conflict',
            `${dest} already exists in ${refOf(other).name}; nothing was ${move ? 'moved' : 'copied'}. ` +
              'Rename one of them first.',
          );
        }
        throw toContractError(error, other);
      }
      if (!move) return { path: dest, journalId: created.journalId };
      try {
        const removed = await ctx.memory.delete(file.path, { kind: 'user', toSpace: refOf(other) });
        return { path: dest, journalId: created.journalId, sourceJournalId: removed.journalId };
      } catch (error) {
        // Not moved after all: the copy goes again (journaled there), the file stays here.
        await other.memory.revert(created.journalId).catch((undo: unknown) => {
          ctx.log.error('a move between spaces left its copy behind', { error: undo });
        });
        throw toContractError(error, ctx);
      }
    };

  return {
    'memory.copyToSpace': transfer(false),
    'memory.moveToSpace': transfer(true),
    'conversations.moveToSpace': async ({ id, to }) => {
      const other = await target(to);
      const source = getAgent(ctx).store;
      await source.init();
      source.summary(id); // not found: refused before anything moves (no body is read for it)
      if (ctx.runs.activeFor(id)) {
        throw new ContractError(
          'unavailable',
          'A reply is still being written there: stop it before moving.',
        );
      }
      const destination = getAgent(other).store;
      const card = { kind: 'moved_space' as const, from: refOf(ctx), to: refOf(other) };
      await source.moveTo(id, destination.dir);
      getAgent(ctx).forget(id);
      await destination.adopt(id);
      // The card is written where the conversation now is (it never says "moved" of one that did not
      // move), by the chat's own card path: stored, and sent live to a window showing it there, in a run
      // of its own in that space (as Compact now has one).
      const run = other.runs.start(id);
      try {
        await showCard({ store: destination, conversationId: id, run }, card);
      } finally {
        run.finish('done');
      }
      ctx.log.info('conversation moved to another space', { to: card.to.id });
      return { conversation: summarize(destination.get(id)) };
    },
  };
}
