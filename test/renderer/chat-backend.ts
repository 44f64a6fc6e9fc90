// A scripted backend for the chat's renderer tests: it implements the contract's `Api` the way the real
// backend behaves at the boundary (per-run seq from 1 without gaps, chat.attach replays after a seq, events
// delivered asynchronously, calls answered asynchronously and their payloads parsed by the contract's own
// schemas), while each test drives the runs by hand. The real backend is exercised by the e2e tests.
import {
  invoke,
  type Api,
  type EventName,
  type EventPayload,
  type InvokeName,
  type ReqIn,
  type ResOut,
} from '../../shared/contract';
import type { FinishedStatus, RunEvent, RunStatus } from '../../shared/channels/chat';
import type { ConversationSummary, TranscriptItem } from '../../shared/channels/conversations';
import { defaultSettings, type SettingsView } from '../../shared/channels/settings';
import { ContractError } from '../../shared/errors';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type RunEventInput = DistributiveOmit<RunEvent, 'runId' | 'conversationId' | 'seq'>;

export interface ScriptedRun {
  runId: string;
  conversationId: string;
  events: RunEvent[];
  status: RunStatus;
  /** Emit (and deliver) the next event. */
  emit(event: RunEventInput): RunEvent;
  /** Record the next event without delivering it (as if the window missed it). */
  emitHidden(event: RunEventInput): RunEvent;
  finish(status?: FinishedStatus): void;
}

type Impl = { [K in InvokeName]?: (req: ReqIn<K>) => Promise<ResOut<K>> | ResOut<K> };

export interface ChatBackend {
  api: Api;
  calls: { channel: InvokeName; req: unknown }[];
  runs: ScriptedRun[];
  conversations: Map<string, { summary: ConversationSummary; items: TranscriptItem[] }>;
  settings: SettingsView;
  impl: Impl;
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
  lastRun(): ScriptedRun;
  /** Resolves once every queued delivery (a macrotask later) has happened. */
  settle(): Promise<void>;
  callsTo(channel: InvokeName): unknown[];
}

const at = '2026-03-01T12:00:00.000Z';

export function createChatBackend(): ChatBackend {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const calls: ChatBackend['calls'] = [];
  const runs: ScriptedRun[] = [];
  const conversations: ChatBackend['conversations'] = new Map();
  let counter = 0;

  const deliver = (name: string, payload: unknown): void => {
    // Through JSON, like the wire: nothing is shared by reference with the renderer.
    const copy = JSON.parse(JSON.stringify(payload)) as unknown;
    setTimeout(() => {
      for (const l of listeners.get(name) ?? []) l(copy);
    }, 0);
  };

  const startRun = (conversationId: string): ScriptedRun => {
    const run: ScriptedRun = {
      runId: `run-${++counter}`,
      conversationId,
      events: [],
      status: 'running',
      emit(event) {
        // Like the real backend (electron/core/agent/session.ts showError): an error's card comes first.
        if (event.type === 'run.error') {
          const card = this.emitHidden({
            type: 'card',
            id: `error-${run.events.length + 1}`,
            card: {
              kind: 'error',
              errorKind: event.kind,
              message: event.message,
              retryable: event.retryable,
            },
          });
          deliver('chat.event', card);
        }
        const full = this.emitHidden(event);
        deliver('chat.event', full);
        return full;
      },
      emitHidden(event) {
        const full = { ...event, runId: run.runId, conversationId, seq: run.events.length + 1 } as RunEvent;
        run.events.push(full);
        return full;
      },
      finish(status = 'done') {
        run.emit({ type: 'run.finished', status });
        run.status = status;
      },
    };
    runs.push(run);
    return run;
  };

  const ensureConversation = (id: string | undefined, memory: boolean): string => {
    if (id && conversations.has(id)) return id;
    const newId = id ?? `conv-${++counter}`;
    conversations.set(newId, {
      summary: { id: newId, title: 'New chat', createdAt: at, updatedAt: at, memory, messageCount: 0 },
      items: [],
    });
    return newId;
  };

  const defaults: Impl = {
    'app.ready': () => ({ ok: true }),
    'app.info': () => ({ version: '0.1.0', host: 'test', dataDir: '/data/mnemo', platform: 'linux' }),
    'app.openExternal': () => ({ opened: true }),
    'settings.get': () => backend.settings,
    'settings.setApiKey': (req) => {
      backend.settings = {
        ...backend.settings,
        apiKey: req.apiKey
          ? { hasApiKey: true, source: 'stored', insecureStorage: false }
          : { hasApiKey: false, source: 'none', insecureStorage: false },
      };
      return backend.settings;
    },
    'settings.set': (req) => {
      backend.settings = { ...backend.settings, settings: { ...backend.settings.settings, ...req.patch } };
      return backend.settings;
    },
    'conversations.list': () => ({ conversations: [...conversations.values()].map((c) => c.summary) }),
    'conversations.get': (req) => {
      const c = conversations.get(req.id);
      if (!c) throw new ContractError('not_found', 'No such conversation.');
      // Like the backend: the run still streaming into it, with the last seq the items reflect (the
      // scripted items are set by hand, so 0: replaying a run onto its own items changes nothing).
      const live = runs.filter((r) => r.conversationId === req.id && r.status === 'running');
      return {
        conversation: c.summary,
        items: c.items,
        runs: live.map((r) => ({ runId: r.runId, status: r.status, seq: 0 })),
      };
    },
    'chat.send': (req) => {
      const conversationId = ensureConversation(req.conversationId, req.memory ?? true);
      const run = startRun(conversationId);
      const userMessageId = `user-${++counter}`;
      run.emit({ type: 'run.started', userMessageId });
      return { runId: run.runId, conversationId, userMessageId };
    },
    'chat.abort': (req) => {
      const run = runs.find((r) => r.runId === req.runId);
      if (!run || run.status !== 'running') return { aborted: false };
      run.finish('aborted');
      return { aborted: true };
    },
    'chat.attach': (req) => {
      const run = req.runId
        ? runs.find((r) => r.runId === req.runId)
        : runs.findLast((r) => r.conversationId === req.conversationId);
      if (!run) return { run: null, events: [] };
      return {
        run: { runId: run.runId, conversationId: run.conversationId, status: run.status },
        events: run.events.filter((e) => e.seq > (req.afterSeq ?? 0)),
      };
    },
    'chat.retry': (req) => ({ runId: startRun(req.conversationId).runId }),
    'chat.regenerate': (req) => ({ runId: startRun(req.conversationId).runId }),
    'chat.editResend': (req) => ({ runId: startRun(req.conversationId).runId }),
    'chat.pin': () => ({ ok: true }),
    'chat.review': () => ({ ok: true }),
    'memory.revert': (req) => ({ journalId: `${req.journalId}-revert` }),
  };

  const api: Record<string, unknown> = {
    on(name: string, listener: (payload: unknown) => void) {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  };
  for (const name of Object.keys(invoke) as InvokeName[]) {
    api[name] = async (req: unknown) => {
      // Parse like the main side does: a malformed payload is refused before any handler runs.
      const parsed = invoke[name].req.safeParse(req);
      calls.push({ channel: name, req });
      await Promise.resolve();
      if (!parsed.success)
        throw new ContractError('invalid_request', parsed.error.issues[0]?.message ?? 'Invalid.');
      const fn = (backend.impl[name] ?? defaults[name]) as ((r: unknown) => unknown) | undefined;
      if (!fn) throw new ContractError('unavailable', 'Not available in this test.');
      const res = await fn(parsed.data);
      return JSON.parse(JSON.stringify(res)) as unknown;
    };
  }

  const backend: ChatBackend = {
    api: api as unknown as Api,
    calls,
    runs,
    conversations,
    settings: {
      settings: defaultSettings,
      apiKey: { hasApiKey: true, source: 'env', insecureStorage: false },
    },
    impl: {},
    emit(name, payload) {
      deliver(name, payload);
    },
    lastRun() {
      const run = runs.at(-1);
      if (!run) throw new Error('no run yet');
      return run;
    },
    async settle() {
      for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
    },
    callsTo(channel) {
      return calls.filter((c) => c.channel === channel).map((c) => c.req);
    },
  };
  return backend;
}

/** A memory tool call of `run` and its result, with the journal entry the write made (as the backend sends them). */
export function emitMemoryWrite(
  run: ScriptedRun,
  toolUseId: string,
  input: { command: string; path: string } & Record<string, unknown>,
  journalId: string,
): void {
  run.emit({ type: 'tool.call', toolUseId, name: 'memory', input, turn: 1 });
  const result = input.command === 'create' ? 'Created.' : 'Edited.';
  run.emit({
    type: 'tool.result',
    toolUseId,
    name: 'memory',
    result,
    isError: false,
    durationMs: 5,
    journalId,
  });
}
