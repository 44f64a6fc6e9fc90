// The one module that turns backend events (api.on) into store actions. Components never subscribe to the
// transport themselves.
//
// Other features plug in with `registerBinder`: a binder gets the Api and returns its unsubscribe
// function. A binder registered before `startBridge` runs at start; one registered later is bound at once.
// (The memory, activity and context slices register theirs from their own store modules.)
//
// Run events (`chat.event`) have one subscriber, here: batched per animation frame and handed, in order,
// to the chat and to every slice that registered with `onRunEvents` (the Activity and Context tabs).
import type { RunEvent } from '../../shared/channels/chat';
import type { Api } from '../../shared/contract';
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

/** Subscribe every slice to the backend's events. Returns the function that undoes it. */
export function startBridge(api: Api): () => void {
  stopBridge();
  current = api;
  bound.set('core', bindCore(api));
  for (const [name, binder] of binders) if (name !== 'core') bound.set(name, binder(api));
  return stopBridge;
}

function stopBridge(): void {
  for (const off of bound.values()) off();
  bound.clear();
  current = null;
}

function bindCore(api: Api): () => void {
  const batcher = createFrameBatcher<RunEvent>(routeRunEvents);
  const offs = [
    api.on('chat.event', batcher.push),
    api.on('memory.changed', (change) => {
      // Flush first so a memory card lands after the tool call that caused it.
      batcher.flush();
      useChat.getState().onMemoryChanged(change);
    }),
    api.on('conversations.changed', ({ conversations }) =>
      useConversations.getState().setList(conversations),
    ),
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
