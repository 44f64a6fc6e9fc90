// The transport-independent server: one dispatcher over the backend's handlers, and one session per
// connected client (a WebSocket, a webContents, an in-memory pair). Events from the backend's bus are
// checked against their schema once, then handed to every session; a session queues them until its client
// says it is ready (`app.ready`, or `{t:'ready'}` on the wire) and delivers them in order after that.
import {
  events,
  isSpaceFree,
  type CallContext,
  type EventMeta,
  type EventName,
  type Handlers,
  type InvokeName,
} from '../../../shared/contract.js';
import type { Outcome } from '../../../shared/wire.js';
import type { RpcLogger as Logger } from './logger.js';
import type { EventListener } from '../events.js';
import { createDispatcher, type Dispatch, type Override, type SpaceRouter } from './dispatcher.js';

export interface EventSource {
  subscribe(listener: EventListener): () => void;
}

/** Every space's calls and events (core.spaces fits it). */
export interface SpaceSource extends SpaceRouter {
  onEvent(listener: (spaceId: string, name: EventName, payload: unknown) => void): () => void;
}

export interface RpcServerOptions {
  /** Personal's table (and the space-free channels'). */
  handlers: Handlers;
  /** Personal's events; not listened to when `spaces` is given (its onEvent has them, tagged). */
  bus: EventSource;
  /**
   * Route calls by the space they name and forward every space's events tagged with it (shared/
   * contract.ts, "Spaces on the wire"). Without it only Personal exists and events carry no space.
   */
  spaces?: SpaceSource | undefined;
  log: Logger;
  /** Per client: beyond this many undelivered events the oldest are dropped (runs can be re-attached). */
  maxQueuedEvents?: number;
}

export interface SessionOptions<S> {
  isAllowed: (sender: S) => boolean;
  /** Sends one event to the client. Only called once the client is ready. */
  deliver: (name: EventName, payload: unknown, meta: EventMeta) => void;
  /** A prefix for the client id, e.g. 'ws', 'ipc', 'memory'. */
  kind: string;
}

export class RpcServer {
  readonly dispatch: Dispatch;
  readonly log: Logger;
  readonly maxQueuedEvents: number;
  private readonly sessions = new Set<RpcSession<never>>();
  private readonly unsubscribe: () => void;
  private counter = 0;

  constructor(options: RpcServerOptions) {
    this.log = options.log;
    this.maxQueuedEvents = options.maxQueuedEvents ?? 10_000;
    this.dispatch = createDispatcher({
      handlers: options.handlers,
      spaces: options.spaces,
      log: options.log,
    });
    const spaces = options.spaces;
    this.unsubscribe = spaces
      ? spaces.onEvent((spaceId, name, payload) =>
          // The space-free domains' events are the same for every window: they go out untagged.
          this.publish(name, payload, isSpaceFree(name) ? {} : { space: spaceId }),
        )
      : options.bus.subscribe((name, payload) => this.publish(name, payload, {}));
  }

  openSession<S>(options: SessionOptions<S>): RpcSession<S> {
    const session = new RpcSession<S>(this, `${options.kind}-${++this.counter}`, options, () =>
      this.sessions.delete(session as RpcSession<never>),
    );
    this.sessions.add(session as RpcSession<never>);
    return session;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  close(): void {
    this.unsubscribe();
    for (const session of [...this.sessions]) session.close();
  }

  private publish(name: EventName, payload: unknown, meta: EventMeta): void {
    const schema = events[name];
    const parsed = schema?.safeParse(payload);
    if (!parsed?.success) {
      this.log.error('dropped an event that does not match its schema', {
        name,
        error: parsed ? parsed.error.message : 'unknown event',
      });
      return;
    }
    for (const session of this.sessions) session.push(name, parsed.data, meta);
  }
}

export class RpcSession<S> {
  private ready = false;
  private closed = false;
  private queue: Array<{ name: EventName; payload: unknown; meta: EventMeta }> = [];
  private dropped = 0;
  private readonly overrides: Partial<Record<InvokeName, Override>>;

  constructor(
    private readonly server: RpcServer,
    readonly clientId: string,
    private readonly options: SessionOptions<S>,
    private readonly onClose: () => void,
  ) {
    // `app.ready` is answered here: readiness is a property of the connection, not of the backend.
    this.overrides = {
      'app.ready': () => {
        this.markReadyChecked();
        return Promise.resolve({ ok: true });
      },
    };
  }

  get isReady(): boolean {
    return this.ready;
  }

  invoke(sender: S, channel: unknown, payload: unknown, space?: unknown): Promise<Outcome> {
    if (this.closed) {
      return Promise.resolve({
        ok: false,
        error: { code: 'unavailable', message: 'The connection is closed.' },
      });
    }
    const ctx: CallContext = { clientId: this.clientId };
    return this.server.dispatch({
      sender,
      isAllowed: this.options.isAllowed,
      channel,
      payload,
      space,
      ctx,
      overrides: this.overrides,
    });
  }

  /** The wire's `{t:'ready'}`: same effect as `app.ready`, for an allowed sender only. */
  markReady(sender: S): boolean {
    if (this.closed || !this.options.isAllowed(sender)) return false;
    this.markReadyChecked();
    return true;
  }

  /** The client is gone or reloading: queue again until it says ready. */
  markNotReady(): void {
    this.ready = false;
  }

  push(name: EventName, payload: unknown, meta: EventMeta = {}): void {
    if (this.closed) return;
    if (this.ready) {
      this.deliver(name, payload, meta);
      return;
    }
    this.queue.push({ name, payload, meta });
    if (this.queue.length > this.server.maxQueuedEvents) {
      this.queue.shift();
      if (this.dropped++ === 0) {
        this.server.log.warn('event queue full: dropping the oldest events', { clientId: this.clientId });
      }
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.ready = false;
    this.queue = [];
    this.onClose();
  }

  private markReadyChecked(): void {
    if (this.closed) return;
    this.dropped = 0;
    // Events pushed while flushing (a listener may cause more) are queued behind the rest: order holds.
    while (this.queue.length > 0) {
      const queued = this.queue;
      this.queue = [];
      for (const { name, payload, meta } of queued) this.deliver(name, payload, meta);
    }
    this.ready = true;
  }

  private deliver(name: EventName, payload: unknown, meta: EventMeta): void {
    try {
      this.options.deliver(name, payload, meta);
    } catch (error) {
      this.server.log.warn('could not deliver an event', {
        clientId: this.clientId,
        name,
        error: String(error),
      });
    }
  }
}
