// The backend's outbound side: events go to every connected client through whichever transports are
// bound (IPC, WebSocket, in-memory). Transports queue them per client until that client is ready.
import type { EventName, EventPayload } from '../../shared/contract.js';

export interface EventBus {
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
}

export type EventListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

/** A fan-out bus: transports subscribe, the backend emits. */
export class FanOutBus implements EventBus {
  private readonly listeners = new Set<EventListener>();
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners) listener(name, payload);
  }
}
