// A fast-check property over the real backend: random memory and conversation operations across random
// spaces (Personal and up to three more, created on the way) leave each space equal to its own in-memory
// model, through its handlers and on disk, whatever was done in the others.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../electron/core/create-core.js';
import { PERSONAL_ID, spaceDir, type OpenSpace } from '../../../electron/core/spaces/index.js';
import { call, newConversation, testHost } from '../agent/harness.js';

type Op =
  | { t: 'space'; name: string }
  | { t: 'create' | 'write'; s: number; file: string; content: string }
  | { t: 'delete'; s: number; file: string }
  | { t: 'rename'; s: number; file: string; to: string }
  | { t: 'conversation'; s: number; title: string }
  | { t: 'dropConversation'; s: number; pick: number };

const files = ['/memories/a.md', '/memories/b.md', '/memories/notes/c.md'];
const space = fc.nat({ max: 3 });
const file = fc.constantFrom(...files);
const content = fc
  .array(fc.constantFrom('x', 'y', 'z', ' ', '\n', 'é'), { maxLength: 12 })
  .map((c) => c.join(''));
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('space' as const), name: fc.constantFrom('Work', 'Home', 'Client', 'work') }),
  fc.record({ t: fc.constantFrom('create' as const, 'write' as const), s: space, file, content }),
  fc.record({ t: fc.constant('delete' as const), s: space, file }),
  fc.record({ t: fc.constant('rename' as const), s: space, file, to: file }),
  fc.record({ t: fc.constant('conversation' as const), s: space, title: fc.constantFrom('one', 'two') }),
  fc.record({ t: fc.constant('dropConversation' as const), s: space, pick: fc.nat({ max: 5 }) }),
);

interface Model {
  id: string;
  files: Map<string, string>;
  conversations: string[];
}

const fails = (p: Promise<unknown>) =>
  p.then(
    () => false,
    () => true,
  );

async function apply(core: Core, spaces: Model[], opened: Map<string, OpenSpace>, o: Op): Promise<void> {
  if (o.t === 'space') {
    const { space, created } = await core.spaces.ensure(o.name);
    if (created) spaces.push({ id: space.id, files: new Map(), conversations: [] });
    return;
  }
  const m = spaces[o.s % spaces.length]!;
  let s = opened.get(m.id);
  if (!s) opened.set(m.id, (s = await core.spaces.open(m.id)));
  const h = s.handlers;
  if (o.t === 'create') {
    const refused = await fails(h['memory.create']({ path: o.file, content: o.content }, call));
    expect(refused).toBe(m.files.has(o.file));
    if (!refused) m.files.set(o.file, o.content);
  } else if (o.t === 'write') {
    const base = m.files.has(o.file) ? (await h['memory.read']({ path: o.file }, call)).version : null;
    await h['memory.write']({ path: o.file, content: o.content, baseVersion: base }, call);
    m.files.set(o.file, o.content);
  } else if (o.t === 'delete') {
    const refused = await fails(h['memory.delete']({ path: o.file }, call));
    expect(refused).toBe(!m.files.has(o.file));
    m.files.delete(o.file);
  } else if (o.t === 'rename') {
    const refused = await fails(h['memory.rename']({ path: o.file, newPath: o.to }, call));
    expect(refused).toBe(!m.files.has(o.file) || m.files.has(o.to));
    if (!refused) {
      m.files.set(o.to, m.files.get(o.file)!);
      m.files.delete(o.file);
    }
  } else if (o.t === 'conversation') {
    m.conversations.push((await newConversation(s.ctx, { title: o.title })).id);
  } else if (o.t === 'dropConversation' && m.conversations.length > 0) {
    const [id] = m.conversations.splice(o.pick % m.conversations.length, 1);
    await h['conversations.delete']({ id: id! }, call);
  }
}

/** Every regular file under the space's memory folder, as the model of it would hold it. */
function onDisk(dir: string, rel = ''): [string, string][] {
  return readdirSync(path.join(dir, rel)).flatMap((name) => {
    const r = path.posix.join(rel, name);
    const p = path.join(dir, r);
    return statSync(p).isDirectory()
      ? onDisk(dir, r)
      : [[`/memories/${r}`, readFileSync(p, 'utf8')] as [string, string]];
  });
}

describe('spaces property', () => {
  it(
    'random operations across random spaces leave each space equal to its own model',
    { timeout: 120_000 },
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
          const dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-space-prop-'));
          const core = await createCore({ dataDir, host: testHost, env: { HOME: dataDir } });
          const spaces: Model[] = [{ id: PERSONAL_ID, files: new Map(), conversations: [] }];
          const opened = new Map<string, OpenSpace>();
          try {
            for (const o of ops) await apply(core, spaces, opened, o);
            expect((await core.spaces.list()).map((s) => s.id)).toEqual(spaces.map((s) => s.id));
            for (const m of spaces) {
              const s = await core.spaces.open(m.id);
              const listed = (await s.handlers['memory.list']({}, call)).entries.filter(
                (e) => e.kind === 'file',
              );
              expect(listed.map((e) => e.path).sort()).toEqual([...m.files.keys()].sort());
              for (const [p, text] of m.files)
                expect((await s.handlers['memory.read']({ path: p }, call)).content).toBe(text);
              const memories = path.join(spaceDir(dataDir, m.id), 'memories');
              expect(new Map(onDisk(memories))).toEqual(m.files);
              const conversations = (await s.handlers['conversations.list']({}, call)).conversations.map(
                (c) => c.id,
              );
              expect(conversations.sort()).toEqual([...m.conversations].sort());
            }
          } finally {
            await core.close();
            await rm(dataDir, { recursive: true, force: true });
          }
        }),
        { numRuns: 25 },
      );
    },
  );
});
