// The one module that turns backend events (api.on) into store actions. Components never subscribe to the
// transport themselves.
//
// Other features plug in with `registerBinder`: a binder gets the Api and returns its unsubscribe
// function. A binder registered before `startBridge` runs at start; one registered later is bound at once.
// (The memory, activity and context slices register theirs from their own store modules.)
//
// Run events (`chat.event`) have one subscriber, here: batched per animation frame and handed, in order,
// to the chat and to every slice that registered with `onRunEvents` (the Activity and Context tabs).
//
// Spaces: every event arrives tagged with the space it happened in (shared/contract.ts, "Spaces on the
// wire"). Binders get an Api whose `on` passes only the window's current space's events (and the untagged,
// space-free ones), so no slice can apply another space's changes. The few facts about other spaces a
// window wants (their conversation counts, a settings change to re-read, what a sync there erased because
// another device forgot it) are taken here.
import type { RunEvent } from '../../shared/channels/chat';
import type { SyncForgotten } from '../../shared/channels/sync';
import type { Api, EventMeta } from '../../shared/contract';
import { currentSpaceId } from '../transport/current-space';
import { useChat } from './chat';
import { useConversations } from './conversations';
import { useSettings } from './settings';
import { toast } from './toast';

export type Binder = (api: Api) => () => void;

const binders = new Map<string, Binder>();
const runListeners = new Map<string, (batch: readonly RunEvent[]) => void>();

/** Receive every batch of run events (after the chat has applied it). */
export function onRunEvents(name: string, listener: (batch: readonly RunEvent[]) => void): void {
  runListeners.set(name, listener);
}

function routeRunEvents(batch: readonly RunEvent[]): void {
  useChat.getState().applyEvents(batch);
  for (const listener of runListeners.values()) listener(batch);
}
const bound = new Map<string, () => void>();
let current: Api | null = null;

export function registerBinder(name: string, binder: Binder): void {
  bound.get(name)?.();
  bound.delete(name);
  binders.set(name, binder);
  if (current) bound.set(name, binder(current));
}

/** Is this event the current space's (or space-free)? Checked when it arrives. */
export function isHere(meta: EventMeta | undefined): boolean {
  return meta?.space === undefined || meta.space === currentSpaceId();
}

/** The same Api, its `on` passing only the current space's events. */
export function hereOnly(api: Api): Api {
  const on = ((name: Parameters<Api['on']>[0], listener: (payload: unknown, meta: EventMeta) => void) =>
    (api.on as (n: string, l: (p: unknown, m: EventMeta) => void) => () => void)(name, (payload, meta) => {
      if (isHere(meta)) listener(payload, meta);
    })) as Api['on'];
  return new Proxy(api, { get: (target, key) => (key === 'on' ? on : Reflect.get(target, key)) });
}

let runBatcher: { flush: () => void } | null = null;

/** Hands out the batched run events at once (before the window switches space). */
export function flushRunEvents(): void {
  runBatcher?.flush();
}

/** Subscribe every slice to the backend's events. Returns the function that undoes it. */
export function startBridge(api: Api): () => void {
  stopBridge();
  const here = hereOnly(api);
  current = here;
  bound.set('core', bindCore(here));
  bound.set('spaces', bindOtherSpaces(api));
  for (const [name, binder] of binders) if (name !== 'core') bound.set(name, binder(here));
  return stopBridge;
}

function stopBridge(): void {
  for (const off of bound.values()) off();
  bound.clear();
  current = null;
  runBatcher = null;
}

/** What a window takes from other spaces' events: nothing of their content, only that they changed. */
function bindOtherSpaces(api: Api): () => void {
  const offs = [
    api.on('settings.changed', (_view, meta) => {
      // The global settings (model, theme, key) may have changed there: read this space's view again.
      if (!isHere(meta)) void useSettings.getState().load();
    }),
    api.on('conversations.changed', ({ conversations }, meta) => {
      // A test's hand-made Api may pass no meta at all.
      const space = (meta as EventMeta | undefined)?.space;
      if (space !== undefined) conversationCount?.(space, conversations.length);
    }),
    api.on('sync.forgotten', ({ forgotten }, meta) => {
      // Every space syncs in the background: what another device forgot is said whichever space is shown.
      const space = (meta as EventMeta | undefined)?.space;
      if (space !== undefined && !isHere(meta)) forgottenElsewhere?.(space, forgotten);
    }),
  ];
  return () => offs.forEach((off) => off());
}

/** Set by the sync slice: a sync in another space erased files other devices forgot (their paths only). */
let forgottenElsewhere: ((space: string, forgotten: SyncForgotten['forgotten']) => void) | undefined;
export function onForgottenElsewhere(
  listener: (space: string, forgotten: SyncForgotten['forgotten']) => void,
): void {
  forgottenElsewhere = listener;
}

/** Set by the spaces slice: a space's conversation count changed (the switcher's list). */
let conversationCount: ((space: string, conversations: number) => void) | undefined;
export function onConversationCount(listener: (space: string, conversations: number) => void): void {
  conversationCount = listener;
}

function bindCore(api: Api): () => void {
  const batcher = createFrameBatcher<RunEvent>(routeRunEvents);
  runBatcher = batcher;
  const offs = [
    api.on('chat.event', batcher.push),
    api.on('conversations.changed', ({ conversations }) =>
      useConversations.getState().changed(conversations),
    ),
    api.on('conversations.indexing', (progress) => useConversations.getState().setIndexing(progress)),
    api.on('settings.changed', (view) => useSettings.getState().setView(view)),
    api.on('app.notice', ({ level, message }) =>
      toast(message, { tone: level === 'info' ? 'info' : level === 'warning' ? 'warning' : 'error' }),
    ),
  ];
  return () => {
    batcher.flush();
    for (const off of offs) off();
  };
}

/**
 * Collects items and hands them over once per animation frame, so a fast stream (hundreds of deltas a
 * second) costs one store update and one render per frame. Order is kept; `flush` delivers at once.
 */
export function createFrameBatcher<T>(deliver: (batch: T[]) => void): {
  push: (item: T) => void;
  flush: () => void;
} {
  let queue: T[] = [];
  let scheduled = false;
  const raf: (cb: () => void) => unknown =
    typeof requestAnimationFrame === 'function'
      ? (cb) => requestAnimationFrame(cb)
      : (cb) => setTimeout(cb, 16);
  const flush = (): void => {
    scheduled = false;
    if (!queue.length) return;
    const batch = queue;
    queue = [];
    deliver(batch);
  };
  return {
    push(item) {
      queue.push(item);
      if (!scheduled) {
        scheduled = true;
        // A hidden window gets no animation frames: fall back to a timer so the store stays current.
        if (typeof document !== 'undefined' && document.hidden) setTimeout(flush, 50);
        else raf(flush);
      }
    },
    flush,
  };
}
