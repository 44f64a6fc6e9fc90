// A real backend (createCore over a temp data dir) talking to the fake Messages API over HTTP, with every
// chat.event collected so tests can wait on explicit events instead of sleeping.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunEvent } from '../../../shared/channels/chat.js';
import type { Card, CardKind } from '../../../shared/projection/cards.js';
import type { Settings } from '../../../shared/channels/settings.js';
import { type Core, createCore } from '../../../electron/core/create-core.js';
import type { HostServices } from '../../../electron/core/host.js';
import { getAgent } from '../../../electron/core/agent/index.js';
import type { CoreContext } from '../../../electron/core/context.js';
import { summarize } from '../../../electron/core/conversations/store.js';
import {
  type FakeAnthropic,
  startFakeAnthropic,
  validateRequest,
} from '../../fixtures/fake-anthropic/index.js';

export const testHost: HostServices = {
  kind: 'test',
  saveFile: async () => ({ saved: false }),
  pickImport: async () => null,
  openExternal: async () => false,
  openFolder: async () => false,
};

export interface Harness {
  core: Core;
  fake: FakeAnthropic;
  dataDir: string;
  events: RunEvent[];
  /** Resolves with the run's events once it finished. */
  finished(runId: string): Promise<RunEvent[]>;
  /** Resolves with the first event matching. */
  waitFor(pred: (e: RunEvent) => boolean): Promise<RunEvent>;
  /** A fresh core on the same data dir (a restart). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  settings?: Partial<Settings>;
  apiKey?: string | null;
  fake?: FakeAnthropic;
  dataDir?: string;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const fake = options.fake ?? (await startFakeAnthropic());
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'mnemo-agent-')));
  const env: NodeJS.ProcessEnv = { ANTHROPIC_BASE_URL: fake.url, HOME: dataDir };
  if (options.apiKey !== null) env.ANTHROPIC_API_KEY = options.apiKey ?? 'test-key';
  const events: RunEvent[] = [];
  const waiters: { pred: (e: RunEvent) => boolean; resolve: (e: RunEvent) => void }[] = [];
  const make = async (): Promise<Core> => {
    const core = await createCore({ dataDir, host: testHost, env });
    core.bus.subscribe((name, payload) => {
      if (name !== 'chat.event') return;
      const e = payload as RunEvent;
      events.push(e);
      for (const w of [...waiters]) {
        if (w.pred(e)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(e);
        }
      }
    });
    if (options.settings) core.ctx.settings.set(options.settings);
    return core;
  };
  const harness: Harness = {
    core: await make(),
    fake,
    dataDir,
    events,
    waitFor(pred) {
      const found = events.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ pred, resolve }));
    },
    async finished(runId) {
      await harness.waitFor((e) => e.runId === runId && e.type === 'run.finished');
      return events.filter((e) => e.runId === runId);
    },
    async restart() {
      await harness.core.close();
      harness.core = await make();
    },
    async close() {
      await harness.core.close();
      if (!options.fake) await fake.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

export const call = { clientId: 'test' };

/**
 * A new, empty conversation in `ctx`'s space, made by its store: no channel makes one (the app's
 * conversations start with their first chat.send), so tests that need one before a message use this.
 */
export async function newConversation(ctx: CoreContext, options: { title?: string; memory?: boolean } = {}) {
  return summarize(await getAgent(ctx).store.create({ memory: true, ...options }));
}

export function textOf(events: RunEvent[]): string {
  return events
    .filter((e): e is Extract<RunEvent, { type: 'text.delta' }> => e.type === 'text.delta')
    .map((e) => e.text)
    .join('');
}

/** Every message request the fake received passes its validator (the real API's rules). */
export function validRequests(fake: FakeAnthropic): number {
  const requests = fake.messageRequests();
  for (const r of requests) {
    const error = validateRequest(r.body, r.headers);
    if (error) throw new Error(`request ${requests.indexOf(r)} invalid: ${error.message}`);
  }
  return requests.length;
}

/** The text blocks of a request's messages, joined (to look for data in the history). */
export function requestText(body: { messages: { content: unknown }[] }): string {
  return JSON.stringify(body.messages);
}

/** The events of one type, typed. */
export const of = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

/** The facts of one kind of card the events showed (a card event is the one event of what it says). */
export const cardsOf = <K extends CardKind>(events: RunEvent[], kind: K): Card<K>[] =>
  events.flatMap((e) => (e.type === 'card' && e.card.kind === kind ? [e.card as Card<K>] : []));

/** Sends a message (a new conversation unless one is named) and waits for its run to finish. */
export async function send(harness: Harness, message: string, conversationId?: string) {
  const res = await harness.core.handlers['chat.send'](
    { text: message, memory: true, ...(conversationId ? { conversationId } : {}) },
    call,
  );
  return { res, events: await harness.finished(res.runId) };
}
