// The fault worker's view of the backend: every call goes through the same dispatcher the transports use
// (payload parse, handler, error mapping), so a failure reaches the test as the message a user would see.
// Run events are collected so the worker waits on explicit events, with a deadline that reports a hang.
import type { RunEvent } from '../../shared/channels/chat.js';
import type { InvokeName, ReqIn, ResOut } from '../../shared/contract.js';
import type { Core } from '../../electron/core/create-core.js';
import type { HostServices } from '../../electron/core/host.js';
import { createDispatcher } from '../../electron/core/rpc/dispatcher.js';

export const faultHost: HostServices = {
  kind: 'test',
  saveFile: async () => ({ saved: false }),
  pickImport: async () => null,
  openExternal: async () => false,
  openFolder: async () => false,
};

/** A refusal or failure as the user sees it. */
export class Refused extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Nothing happened for too long: the app hangs. */
export class Hang extends Error {}

/** Generous: a loaded two-core machine must never pass for a hang. */
export const WAIT_MS = 45_000;

export class BackendClient {
  private readonly dispatch;
  private readonly events: RunEvent[] = [];
  private readonly seen = new Map<string, Set<RunEvent['type']>>();
  private readonly waiters: { pred: (e: RunEvent) => boolean; resolve: (e: RunEvent) => void }[] = [];

  constructor(
    readonly core: Core,
    onEvent: (e: RunEvent) => void = () => undefined,
  ) {
    this.dispatch = createDispatcher({ handlers: core.handlers, log: core.log });
    core.bus.subscribe((name, payload) => {
      if (name !== 'chat.event') return;
      const e = payload as RunEvent;
      onEvent(e);
      this.events.push(e);
      let types = this.seen.get(e.runId);
      if (!types) this.seen.set(e.runId, (types = new Set()));
      types.add(e.type);
      for (const w of [...this.waiters]) {
        if (w.pred(e)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(e);
        }
      }
    });
  }

  async call<N extends InvokeName>(channel: N, payload: ReqIn<N>): Promise<ResOut<N>> {
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      this.dispatch({
        sender: 'faults',
        isAllowed: () => true,
        channel,
        payload,
        ctx: { clientId: 'faults' },
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Hang(`${channel} did not answer within ${WAIT_MS / 1000} s`)),
          WAIT_MS,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    if (!outcome.ok) throw new Refused(outcome.error.message, outcome.error.code);
    return outcome.value as ResOut<N>;
  }

  /** The first event (seen or to come) matching, or a Hang after WAIT_MS. */
  waitFor(pred: (e: RunEvent) => boolean, what: string): Promise<RunEvent> {
    const found = this.events.find(pred);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Hang(`no ${what} within ${WAIT_MS / 1000} s`));
      }, WAIT_MS);
      const waiter = {
        pred,
        resolve: (e: RunEvent) => {
          clearTimeout(timer);
          resolve(e);
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Whether an event of this type was seen for the run (before its end was collected). */
  saw(runId: string, type: RunEvent['type']): boolean {
    return this.seen.get(runId)?.has(type) ?? false;
  }

  /** Waits for the run's end; returns its status, its last error and the text of its final message. */
  async finished(runId: string): Promise<{ status: string; error: string | undefined; answer: string }> {
    const end = await this.waitFor((e) => e.runId === runId && e.type === 'run.finished', 'end of the run');
    const mine = this.events.filter((e) => e.runId === runId);
    const error = mine.filter((e) => e.type === 'run.error').at(-1) as
      Extract<RunEvent, { type: 'run.error' }> | undefined;
    const texts = new Map<string, string>();
    let last = '';
    for (const e of mine) {
      if (e.type === 'text.delta') {
        texts.set(e.messageId, (texts.get(e.messageId) ?? '') + e.text);
        last = e.messageId;
      }
    }
    // Events of finished runs are not needed again.
    for (let i = this.events.length - 1; i >= 0; i--)
      if (this.events[i]!.runId === runId) this.events.splice(i, 1);
    return {
      status: (end as Extract<RunEvent, { type: 'run.finished' }>).status,
      error: error ? `${error.kind}: ${error.message}` : undefined,
      answer: texts.get(last) ?? '',
    };
  }
}
