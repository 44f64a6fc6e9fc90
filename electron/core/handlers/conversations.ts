// conversations.*: list, open, rename, delete (and its undo, restore), search (the recall index: titles
// and content), the recall switches (per conversation and per space) and export.
import type { DomainHandlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import { getAgent } from '../agent/index.js';
import { confirmNatively } from '../confirm.js';
import type { CoreContext } from '../context.js';
import { lastPage, pageAround, pageAt } from '../conversations/pages.js';
import { asShown } from '../conversations/live-items.js';
import type { ConversationState } from '../conversations/state.js';
import { UNTITLED, summarize, titleOf } from '../conversations/store.js';
import { toMarkdown, transcript } from '../conversations/transcript.js';

// The transfers to another space (`transfer: true`) are in transfer.ts.
type Domain = DomainHandlers<'conversations'>;

/** The page around a message; its end when the message is gone (edited away): the window just opens. */
function aroundOrLast(state: ConversationState, id: string, limit: number, end?: number) {
  try {
    return pageAround(state, id, limit, end);
  } catch (error) {
    if (error instanceof ContractError && error.code === 'not_found') return lastPage(state, limit, end);
    throw error;
  }
}

export function createConversationsHandlers(ctx: CoreContext): Domain {
  const store = async () => {
    const agent = getAgent(ctx);
    await agent.store.init();
    return agent.store;
  };
  return {
    'conversations.list': async (req) => {
      const agent = getAgent(ctx);
      const s = agent.store;
      // Conversations another process started (a CLI run) are in the list too, and their changes keep
      // arriving while a window shows it (conversations.changed). At start the list comes from the
      // summary cache as soon as it is read: a head the check that follows finds out of date is announced
      // the same way.
      await s.discover();
      s.watchFolder((id) => agent.forget(id));
      // A window is showing the list: load the recall index soon, off the path of its first requests,
      // and ask for the model's context window now (agent.warmModel).
      agent.recall.warm();
      agent.warmModel();
      return req.limit === undefined ? { conversations: s.list() } : s.firstPage(req.limit);
    },
    'conversations.get': async (req) => {
      const s = await store();
      // Not loaded here yet (the first open after a start): its last page from the page sidecar and the
      // file's tail, no replay. Its full state is read when something needs it (a reply, the Context tab).
      if (req.limit !== undefined && req.around === undefined) {
        const page = await s.indexedPage(req.id, { last: true }, req.limit);
        if (page) return { conversation: s.summary(req.id), ...page, runs: [] };
      }
      // Another process (a CLI run, another app) may have added to it since we loaded it.
      if ((await s.refresh(req.id)) > 0) getAgent(ctx).forget(req.id);
      const state = s.get(req.id);
      // In the same tick as the items: they are what the run's events up to its seq show, exactly.
      const live = ctx.runs.live(state.meta.id);
      const end = live?.entries;
      const page =
        req.limit === undefined
          ? { items: transcript(state, end), older: null, newer: null }
          : req.around !== undefined
            ? aroundOrLast(state, req.around, req.limit, end)
            : lastPage(state, req.limit, end);
      if (live && page.newer === null) page.items = asShown(state, page.items, live);
      return { conversation: summarize(state), ...page, runs: live ? [live.run] : [] };
    },
    'conversations.page': async (req) => {
      const s = await store();
      if ((req.before === undefined) === (req.from === undefined))
        throw new ContractError('invalid_request', 'Give exactly one of before and from.');
      if (req.before !== undefined) {
        const page = await s.indexedPage(req.id, { before: req.before }, req.limit);
        if (page) return { ...page, ...(page.newer === null ? { runs: [] } : {}) };
      }
      if ((await s.refresh(req.id)) > 0) getAgent(ctx).forget(req.id);
      const state = s.get(req.id);
      const live = ctx.runs.live(state.meta.id);
      const at = req.before !== undefined ? { before: req.before } : { from: req.from! };
      const page = pageAt(state, at, req.limit, live?.entries);
      if (live && page.newer === null) page.items = asShown(state, page.items, live);
      // Only a page that reaches the end is where a live run's events continue.
      return { ...page, ...(page.newer === null ? { runs: live ? [live.run] : [] } : {}) };
    },
    'conversations.rename': async (req) => ({
      conversation: summarize(await (await store()).rename(req.id, req.title)),
    }),
    'conversations.delete': async (req) => {
      const s = await store();
      if (!s.has(req.id))
        throw new ContractError('not_found', 'That conversation does not exist (it may have been deleted).');
      await confirmNatively(ctx.host, 'conversations.delete');
      if (ctx.runs.activeFor(req.id)) {
        throw new ContractError(
          'unavailable',
          'A reply is still being written there: stop it before deleting.',
        );
      }
      await s.delete(req.id);
      getAgent(ctx).forget(req.id);
      return { ok: true as const };
    },
    'conversations.close': async (req) => {
      const agent = getAgent(ctx);
      if (!agent.store.isTemporary(req.id)) return { ok: true as const };
      const end = (): void => {
        agent.store.end(req.id);
        agent.forget(req.id);
        ctx.runs.dropFinished(req.id);
      };
      // A reply still being written is stopped, and the conversation goes once it has finished: the loop
      // writes its last records to the conversation on its way out.
      const running = ctx.runs.activeFor(req.id);
      if (running) {
        ctx.runs.whenFinished(running.runId, () => setImmediate(end));
        ctx.runs.abort(running.runId);
      } else end();
      return { ok: true as const };
    },
    'conversations.restore': async (req) => ({
      conversation: summarize(await (await store()).restore(req.id)),
    }),
    'conversations.search': async (req) => {
      await store();
      const { hits } = await getAgent(ctx).recall.search(req.query, {
        limit: 50,
        titles: true,
        prefix: true,
      });
      return {
        results: hits.map((h) => ({
          id: h.conversationId,
          title: h.title || UNTITLED,
          snippet: h.snippet,
          ...(h.messageId ? { messageId: h.messageId } : {}),
          ...(h.role ? { role: h.role } : {}),
          ranges: h.ranges,
          at: h.at,
        })),
      };
    },
    'conversations.searchable': async (req) => {
      const s = await store();
      const state = await s.rewrite(req.id, ([meta, ...rest]) => {
        if (meta?.t !== 'meta') return [...(meta ? [meta] : []), ...rest];
        const { noSearch: _was, ...clean } = meta;
        return [req.searchable ? clean : { ...clean, noSearch: true }, ...rest];
      });
      return { conversation: summarize(state) };
    },
    'conversations.recall': async (req) => {
      const space = ctx.space;
      if (req.on !== undefined) {
        if (!space?.setRecall) throw new ContractError('unavailable', 'Recall cannot be changed here.');
        await space.setRecall(req.on);
      }
      return { on: getAgent(ctx).recallOn() };
    },
    'conversations.export': async (req) => {
      const s = await store();
      if (s.isTemporary(req.id))
        throw new ContractError('unavailable', 'A temporary chat is not exported: it leaves no trace.');
      const state = await s.open(req.id);
      const title = titleOf(state);
      const slug =
        title
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, '')
          .slice(0, 60) || 'conversation';
      return { fileName: `${slug}.md`, markdown: toMarkdown(title, state) };
    },
  };
}
