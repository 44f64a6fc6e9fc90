// A small in-memory backend for the side panels' renderer tests: the memory.*, conversations.get and
// context.* channels over a Map of files and a journal, with a line-based fact splitter (the real one is memory/facts.ts, tested there).
// It stands in for the backend (the real one is exercised by the e2e tests); every call is logged so
// tests can assert what the panel asked for.
import type { Api, EventName, EventPayload, InvokeName, ReqIn, ResOut } from '../../shared/contract';
import type { Fact, JournalEntry } from '../../shared/channels/memory';
import type { ContextUsage } from '../../shared/channels/context';
import type { TranscriptItem } from '../../shared/channels/conversations';
import { ContractError } from '../../shared/errors';

interface FileState {
  content: string;
  modifiedAt: string;
  lastReadAt: string | null;
  stale: boolean;
}

type Impl = { [K in InvokeName]?: (req: ReqIn<K>) => Promise<ResOut<K>> | ResOut<K> };

/** A version string of the contract's shape (64 hex digits); FNV-1a, enough to tell versions apart. */
function hash(text: string): string {
  let out = '';
  for (let round = 0; round < 8; round++) {
    let h = 0x811c9dc5 ^ round;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    out += (h >>> 0).toString(16).padStart(8, '0');
  }
  return out;
}

/** Facts the simple way: "- " lines are items, "#" lines headings, other lines paragraphs. */
function splitFacts(content: string): Fact[] {
  return content.split('\n').flatMap((line, i): Fact[] => {
    if (!line.trim()) return [];
    const kind = line.startsWith('#') ? 'heading' : line.startsWith('- ') ? 'item' : 'paragraph';
    const text = line.replace(/^#+\s*|^- /, '');
    return [{ id: `${i}:${hash(line).slice(0, 8)}`, text, kind, line: i + 1 }];
  });
}

function removeFact(content: string, factId: string): string {
  const fact = splitFacts(content).find((f) => f.id === factId);
  if (!fact) throw new ContractError('not_found', 'That fact is no longer in the file.');
  const lines = content.split('\n');
  lines.splice(fact.line - 1, 1);
  return lines.join('\n');
}

export interface FakeBackend {
  api: Api;
  files: Map<string, FileState>;
  journal: (JournalEntry & { before: string | null; after: string | null })[];
  calls: { channel: string; req: unknown }[];
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
  /** Override or add channels. */
  impl: Impl;
  transcript: TranscriptItem[];
  usage: ContextUsage;
}

export function createFakeBackend(seed: Record<string, string | Partial<FileState>> = {}): FakeBackend {
  const files = new Map<string, FileState>();
  const at = '2026-03-01T12:00:00.000Z';
  for (const [path, value] of Object.entries(seed)) {
    const state = typeof value === 'string' ? { content: value } : value;
    files.set(path, { content: '', modifiedAt: at, lastReadAt: null, stale: false, ...state });
  }
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const journal: FakeBackend['journal'] = [];
  const calls: FakeBackend['calls'] = [];
  let journalSeq = 0;

  const record = (command: string, path: string, before: string | null, after: string | null, extra = {}) => {
    const entry = {
      id: `j${++journalSeq}`,
      at: new Date(Date.parse(at) + journalSeq * 60_000).toISOString(),
      actor: 'user' as const,
      command,
      path,
      beforeHash: before === null ? null : hash(before),
      afterHash: after === null ? null : hash(after),
      revertible: true,
      before,
      after,
      ...extra,
    };
    journal.push(entry);
    return entry.id;
  };
  const need = (path: string): FileState => {
    const file = files.get(path);
    if (!file) throw new ContractError('not_found', `${path} does not exist.`);
    return file;
  };
  const dirsOf = () => {
    const dirs = new Set<string>();
    for (const path of files.keys()) {
      const parts = path.split('/');
      for (let i = 3; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
    }
    return dirs;
  };

  const backend: FakeBackend = {
    files,
    journal,
    calls,
    transcript: [],
    usage: {
      conversationId: 'c1',
      model: 'claude-sonnet-5-5',
      strategy: 'native',
      contextWindow: 200_000,
      clearTrigger: 100_000,
      compactTrigger: 150_000,
      total: 50_000,
      parts: { system: 5_000, memory: 2_000, messages: 33_000, toolResults: 10_000 },
      measured: true,
      history: [],
    },
    impl: {},
    emit(name, payload) {
      for (const listener of listeners.get(name) ?? []) listener(payload);
    },
    api: undefined as unknown as Api,
  };

  const base: Impl = {
    'memory.list': () => ({
      entries: [
        ...[...dirsOf()].map((path) => ({
          path,
          kind: 'dir' as const,
          size: 0,
          modifiedAt: at,
          lastReadAt: null,
          stale: false,
        })),
        ...[...files].map(([path, f]) => ({
          path,
          kind: 'file' as const,
          size: new TextEncoder().encode(f.content).length,
          modifiedAt: f.modifiedAt,
          lastReadAt: f.lastReadAt,
          stale: f.stale,
        })),
      ],
      totalBytes: [...files.values()].reduce((n, f) => n + f.content.length, 0),
    }),
    'memory.read': ({ path }) => {
      const file = need(path);
      return { path, content: file.content, version: hash(file.content), facts: splitFacts(file.content) };
    },
    'memory.write': ({ path, content, baseVersion }) => {
      const file = files.get(path);
      if (file && baseVersion !== null && baseVersion !== hash(file.content))
        throw new ContractError('conflict', `${path} changed since you opened it.`);
      const before = file?.content ?? null;
      files.set(path, { ...(file ?? { lastReadAt: null, stale: false }), content, modifiedAt: at });
      return { version: hash(content), journalId: record('write', path, before, content) };
    },
    'memory.create': ({ path, content = '' }) => {
      if (files.has(path)) throw new ContractError('conflict', `${path} already exists.`);
      files.set(path, { content, modifiedAt: at, lastReadAt: null, stale: false });
      return { version: hash(content), journalId: record('create', path, null, content) };
    },
    'memory.rename': ({ path, newPath }) => {
      const file = need(path);
      files.delete(path);
      files.set(newPath, file);
      return { journalId: record('rename', path, file.content, file.content, { newPath }) };
    },
    'memory.delete': ({ path }) => {
      const inside = [...files.keys()].filter((p) => p.startsWith(`${path}/`));
      if (!files.has(path) && inside.length) {
        // A folder: everything under it goes.
        for (const p of inside) files.delete(p);
        return { journalId: record('delete', path, '', null) };
      }
      const file = need(path);
      files.delete(path);
      return { journalId: record('delete', path, file.content, null) };
    },
    'memory.forgetFact': ({ path, factId, baseVersion }) => {
      const file = need(path);
      if (hash(file.content) !== baseVersion) throw new ContractError('conflict', 'The file changed.');
      const before = file.content;
      file.content = removeFact(before, factId);
      return { version: hash(file.content), journalId: record('forgetFact', path, before, file.content) };
    },
    'memory.revert': ({ journalId }) => {
      const entry = journal.find((j) => j.id === journalId);
      if (!entry) throw new ContractError('not_found', 'No such change.');
      const current = files.get(entry.newPath ?? entry.path)?.content ?? null;
      if (entry.newPath) files.delete(entry.newPath);
      if (entry.before === null) files.delete(entry.path);
      else files.set(entry.path, { content: entry.before, modifiedAt: at, lastReadAt: null, stale: false });
      return { journalId: record('revert', entry.path, current, entry.before) };
    },
    'memory.restore': ({ journalId }) => {
      const entry = journal.find((j) => j.id === journalId);
      if (!entry || entry.before === null) throw new ContractError('not_found', 'Nothing to restore.');
      files.set(entry.path, { content: entry.before, modifiedAt: at, lastReadAt: null, stale: false });
      return { journalId: record('restore', entry.path, null, entry.before) };
    },
    'memory.history': ({ path }) => ({
      entries: journal
        .filter((j) => j.path === path || j.newPath === path)
        .map(({ before: _b, after: _a, ...entry }) => entry),
    }),
    'memory.diff': ({ journalId }) => {
      const entry = journal.find((j) => j.id === journalId);
      if (!entry) throw new ContractError('not_found', 'No such change.');
      return { path: entry.path, before: entry.before, after: entry.after, patch: '' };
    },
    'memory.forget': ({ path }) => {
      files.delete(path);
      return { ok: true as const };
    },
    'memory.search': ({ query }) => {
      const hits: ResOut<'memory.search'>['hits'] = [];
      const needle = query.toLowerCase();
      for (const [path, file] of files) {
        file.content.split('\n').forEach((line, i) => {
          const ranges: [number, number][] = [];
          let from = 0;
          for (;;) {
            const found = line.toLowerCase().indexOf(needle, from);
            if (found < 0) break;
            ranges.push([found, found + needle.length]);
            from = found + needle.length;
          }
          if (ranges.length) hits.push({ path, line: i + 1, snippet: line, ranges });
        });
      }
      return { hits, truncated: false };
    },
    'memory.stale': () => ({
      entries: [...files]
        .filter(([, f]) => f.stale)
        .map(([path, f]) => ({
          path,
          kind: 'file' as const,
          size: f.content.length,
          modifiedAt: f.modifiedAt,
          lastReadAt: f.lastReadAt,
          stale: true,
        })),
    }),
    'memory.export': () => ({
      saved: false,
      downloadUrl: '/download/abc',
      fileName: 'memory.zip',
      skipped: [],
    }),
    'app.info': () => ({ version: '0.0.0', host: 'test', dataDir: '/data', platform: 'linux' }),
    'conversations.get': ({ id }) => ({
      conversation: {
        id,
        title: 'Test',
        createdAt: at,
        updatedAt: at,
        memory: true,
        messageCount: backend.transcript.length,
      },
      items: backend.transcript,
    }),
    'context.get': () => backend.usage,
    'context.compact': () => ({ runId: 'r-compact' }),
  };

  backend.api = new Proxy({} as Api, {
    get(_target, prop: string) {
      if (prop === 'on') {
        return (name: string, listener: (payload: unknown) => void) => {
          if (!listeners.has(name)) listeners.set(name, new Set());
          listeners.get(name)!.add(listener);
          return () => listeners.get(name)?.delete(listener);
        };
      }
      if (prop === 'then') return undefined;
      return async (req: unknown) => {
        calls.push({ channel: prop, req });
        const fn =
          (backend.impl as Record<string, (r: unknown) => unknown>)[prop] ??
          (base as Record<string, (r: unknown) => unknown>)[prop];
        if (!fn) throw new ContractError('unavailable', `${prop} is not in the fake backend.`);
        // Like a real transport: the answer arrives later, and nothing is shared by reference.
        await Promise.resolve();
        return structuredClone(await fn(req));
      };
    },
  });
  return backend;
}

export function callsTo(backend: FakeBackend, channel: string): unknown[] {
  return backend.calls.filter((c) => c.channel === channel).map((c) => c.req);
}
