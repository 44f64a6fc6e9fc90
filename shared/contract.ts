// The IPC contract: one table of invoke channels and one of events, each with zod schemas. Everything
// else (the backend's Handlers, the renderer's Api, the preload's function list, the wire format) is
// derived from these two tables, so a channel is defined exactly once.
//
// Rules: channels are named `domain.action`; every call takes one object argument; handlers receive the
// parsed (output) type and return the schema's input type; clients send the input type and receive the
// output type. No Node and no DOM in this folder.
import type { z } from 'zod';
import { appEvents, appInvoke } from './channels/app.js';
import { chatEvents, chatInvoke } from './channels/chat.js';
import { contextEvents, contextInvoke } from './channels/context.js';
import { conversationsEvents, conversationsInvoke } from './channels/conversations.js';
import { memoryEvents, memoryInvoke } from './channels/memory.js';
import { settingsEvents, settingsInvoke } from './channels/settings.js';
import { spacesEvents, spacesInvoke } from './channels/spaces.js';
import { syncEvents, syncInvoke } from './channels/sync.js';

export interface InvokeSpec {
  req: z.ZodType;
  res: z.ZodType;
  /** It destroys something the user may want back: shared/confirmations.ts must say how it is confirmed. */
  destructive?: true;
  /**
   * It reaches a second space, the one its request names (`to`): one handler file implements all such
   * channels (electron/core/handlers/transfer.ts, see TransferHandlers), not their domain's.
   */
  transfer?: true;
  /** Of a space-free domain (SPACE_FREE_DOMAINS), yet answered in the call's space (see isSpaceFree). */
  spaced?: true;
}

export const invoke = {
  ...appInvoke,
  ...chatInvoke,
  ...contextInvoke,
  ...conversationsInvoke,
  ...memoryInvoke,
  ...settingsInvoke,
  ...spacesInvoke,
  ...syncInvoke,
} satisfies Record<string, InvokeSpec>;

export const events = {
  ...appEvents,
  ...chatEvents,
  ...contextEvents,
  ...conversationsEvents,
  ...memoryEvents,
  ...settingsEvents,
  ...spacesEvents,
  ...syncEvents,
} satisfies Record<string, z.ZodType>;

export type Invoke = typeof invoke;
export type Events = typeof events;
export type InvokeName = keyof Invoke;
export type EventName = keyof Events;

/** What a client sends for channel K (before parsing: defaults may be omitted). */
export type ReqIn<K extends InvokeName> = z.input<Invoke[K]['req']>;
/** What a handler receives for channel K (after parsing). */
export type ReqOut<K extends InvokeName> = z.output<Invoke[K]['req']>;
/** What a handler returns for channel K. */
export type ResIn<K extends InvokeName> = z.input<Invoke[K]['res']>;
/** What a client receives for channel K. */
export type ResOut<K extends InvokeName> = z.output<Invoke[K]['res']>;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export const invokeNames = Object.keys(invoke) as InvokeName[];
export const eventNames = Object.keys(events) as EventName[];

/** Is this a channel of the contract? The one check, against the table itself (not a copy of its names). */
export function isInvokeName(name: unknown): name is InvokeName {
  return typeof name === 'string' && Object.hasOwn(invoke, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

/*
 * Spaces on the wire (issue 15). The current space belongs to the window, not to the backend.
 *
 * - The renderer names its space in the envelope of every call, beside the channel, never in the payload:
 *   `{t:'invoke', id, channel, payload, space}` on the WebSocket and the in-memory pair, `{channel,
 *   payload, space}` on Electron IPC. Renderer code does not do this by hand: `spaceBound(api, () => id)`
 *   (shared/transport/api-proxy.ts) gives an `Api` whose every call carries the space, and renderer/api.ts
 *   hands the stores that one (the window's current space: renderer/store/spaces.ts).
 * - The server resolves the space before the handler is chosen: the call runs in
 *   `(await core.spaces.open(space)).handlers`, a table built over that space's memory, journal,
 *   conversations and runs only. No handler takes a space argument, so none can forget one, and none can
 *   reach another space's folders except the transfer channels that name their target (`to`).
 * - No `space` in the envelope means Personal (the CLI, scripts, clients older than spaces). A space that
 *   does not exist or was deleted is refused with `not_found`; a call is never answered from another space.
 * - The domains in SPACE_FREE_DOMAINS (`app.*`, `spaces.*`) are the same in every space: their calls are
 *   answered whatever space the envelope names, even a deleted one, so such a window can still recover
 *   (all but the channels whose spec says `spaced: true`, such as the one revealing the space's memory
 *   folder: see isSpaceFree).
 * - Events travel tagged with the space they happened in (`{t:'event', name, payload, space}`; Electron's
 *   IPC event message likewise); a listener gets `(payload, { space })`. Events of the space-free domains
 *   carry no space. The renderer's bridge (renderer/store/bridge.ts) applies only its current space's.
 */

/** Domains whose channels and events do not depend on the space (see "Spaces on the wire"). */
export const SPACE_FREE_DOMAINS = ['app', 'spaces'] as const;

/**
 * Is this channel or event answered the same in every space? Those of SPACE_FREE_DOMAINS are, but for the
 * channels whose spec says `spaced: true` (such as the memory folder app.openDataFolder reveals).
 */
export function isSpaceFree(name: string): boolean {
  const domain = name.slice(0, name.indexOf('.'));
  if (!(SPACE_FREE_DOMAINS as readonly string[]).includes(domain)) return false;
  return !(isInvokeName(name) && (invoke[name] as InvokeSpec).spaced === true);
}

/** What travels beside an event's payload. */
export interface EventMeta {
  /** The space the event happened in; absent for the space-free domains (and a server without spaces). */
  space?: string;
}

/** Who is calling: set by the transport after it has checked the sender, never by the payload. */
export interface CallContext {
  /** Stable id of the connected window/client (one per WebSocket, per webContents, per in-memory pair). */
  clientId: string;
  /** The space the call was routed to (absent: Personal, or a space-free channel). */
  space?: string;
}

/** The backend must implement every invoke channel: a missing handler is a compile error. */
export type Handlers = {
  [K in InvokeName]: (req: ReqOut<K>, ctx: CallContext) => Promise<ResIn<K>>;
};

/** The channels whose spec carries `flag: true` (`destructive`, `transfer`, ...): named by the table only. */
export type FlaggedName<F extends keyof InvokeSpec> = {
  [K in InvokeName]: Invoke[K] extends { [P in F]: true } ? K : never;
}[InvokeName];

/** The channels that reach a second space (`transfer: true`). */
export type TransferName = FlaggedName<'transfer'>;

/**
 * The handlers of one domain (`chat`, `memory`, ...), derived from the table: a handler file implements
 * exactly its domain's channels and names none of them twice. The transfers are TransferHandlers'.
 */
export type DomainHandlers<D extends string> = {
  [K in Exclude<InvokeName, TransferName> as K extends `${D}.${string}` ? K : never]: Handlers[K];
};

/** The handlers of every transfer channel, whatever its domain: one file implements them. */
export type TransferHandlers = Pick<Handlers, TransferName>;

/** The renderer's view of the backend: one function per channel plus event subscription. */
export type Api = {
  [K in InvokeName]: (req: ReqIn<K>) => Promise<ResOut<K>>;
} & {
  /** Subscribe to an event; returns the function that unsubscribes. */
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>, meta: EventMeta) => void): () => void;
};
