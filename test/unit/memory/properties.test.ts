// fast-check properties: every path is refused or lands inside the root; random command sequences leave
// the store equal to a simple model; concurrent agent and user edits lose nothing.
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryError, parseMemoryPath } from '../../../memory/index.js';
import { foldName, parseFully, parsePlain } from '../../../memory/paths.js';
import { agent, sandbox, snapshotOutside, user, type Sandbox } from './helpers.js';

const fragments = [
  '/memories',
  '/memories/',
  '/',
  '//',
  '..',
  '.',
  'a',
  'notes.md',
  '%2e',
  '%2f',
  '%',
  '\\',
  '\u0000',
  '\n',
  'CON',
  'nul.txt',
  ' ',
  'x.',
  '\uff0e',
  '\uff0f',
  '\u2215',
  '\u200b',
  '\u202e',
  'e\u0301',
  '\u00e9',
  'memoriesX',
  '~',
  'C:',
  ':',
  '*',
  '\ud800',
  '日本',
  '.hidden',
  '/etc/passwd',
];
const pathArb = fc.oneof(
  fc.array(fc.constantFrom(...fragments), { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => `/memories/${s}`),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc
    .array(fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 6 }), { maxLength: 12 })
    .map((s) => `/memories/${s.join('/')}`),
);

describe('path property', () => {
  it('any path is refused with invalid_path, or is canonical and resolves inside the root', () => {
    const root = '/data/memories';
    fc.assert(
      fc.property(pathArb, (raw) => {
        let parsed;
        try {
          parsed = parseMemoryPath(raw);
        } catch (err) {
          expect(err).toBeInstanceOf(MemoryError);
          expect((err as MemoryError).code).toBe('invalid_path');
          return;
        }
        const host = path.resolve(root, ...parsed.segments);
        expect(host === root || host.startsWith(root + '/')).toBe(true);
        expect(parseMemoryPath(parsed.path).path).toBe(parsed.path);
        expect(parsed.segments.every((s) => s !== '' && s !== '.' && s !== '..' && !s.includes('/'))).toBe(
          true,
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('the plain-path shortcut accepts only what every check accepts, with the same parse', () => {
    // Plain-looking paths near the shortcut's edges: device names, dots, long names, depth, other characters.
    const plainish = fc
      .array(
        fc.oneof(
          fc.string({
            unit: fc.constantFrom('a', 'Z', '0', '_', '-', '.', ' ', '~', '%', 'é'),
            maxLength: 8,
          }),
          fc.constantFrom('CON', 'nul.md', 'com1.txt', 'lpt9', 'conin$', 'x'.repeat(120), 'y'.repeat(121)),
        ),
        { minLength: 0, maxLength: 12 },
      )
      .map((segs) => `/memories/${segs.join('/')}`);
    fc.assert(
      fc.property(fc.oneof(pathArb, plainish), (raw) => {
        const fast = parsePlain(raw);
        if (!fast) return;
        expect(parseFully(raw)).toEqual(fast);
      }),
      { numRuns: 5000 },
    );
    const deep = (n: number): string => `/memories/${Array(n).fill('a').join('/')}`;
    for (const plain of ['/memories/topic-1/note-1.md', deep(10), `/memories/${'x'.repeat(120)}`])
      expect(parsePlain(plain)).toEqual(parseFully(plain));
    for (const refused of ['/memories/CON', '/memories/a/nul.md', `/memories/${'x'.repeat(121)}`, deep(11)])
      expect(parsePlain(refused)).toBeUndefined();
  });

  it('folding a printable ASCII name is lower-casing it (the shortcut of foldName)', () => {
    const full = (s: string): string => s.normalize('NFKC').toLowerCase().normalize('NFC');
    const printable = Array.from({ length: 95 }, (_, c) => String.fromCharCode(c + 0x20)).join('');
    expect(foldName(printable)).toBe(full(printable));
    for (const name of ['µ', 'a½', 'ª.md', 'Ⅸ', 'Ａb', 'e\u0301'])
      expect([name, foldName(name)]).toEqual([name, full(name)]);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 12 }), (name) => {
        expect(foldName(name)).toBe(full(name));
      }),
      { numRuns: 2000 },
    );
  });

  describe('through the tool, on disk', () => {
    let s: Sandbox;
    beforeAll(async () => {
      s = await sandbox();
    });
    afterAll(async () => {
      await s.cleanup();
    });
    it('create with any path either fails or writes inside the root; nothing outside changes', async () => {
      const before = await snapshotOutside(s.base);
      await fc.assert(
        fc.asyncProperty(pathArb, async (raw) => {
          const r = await s.memory.tool.execute({ command: 'create', path: raw, file_text: 'p' }, agent);
          if (!r.isError) {
            const p = parseMemoryPath(raw);
            expect((await s.memory.read(p.path)).content).toBe('p');
          } else expect(r.content).not.toContain(s.base);
        }),
        { numRuns: 150 },
      );
      expect(await snapshotOutside(s.base)).toEqual(before);
    });
  });
});

type Cmd =
  | { t: 'create'; p: string; text: string }
  | { t: 'write'; p: string; text: string }
  | { t: 'str_replace'; p: string; old: string; text: string }
  | { t: 'insert'; p: string; line: number; text: string }
  | { t: 'delete'; p: string }
  | { t: 'rename'; p: string; to: string };

const files = ['/memories/a.md', '/memories/b.md', '/memories/d/c.md', '/memories/d/e/f.md'];
const pathA = fc.constantFrom(...files);
const textA = fc.string({ unit: fc.constantFrom('a', 'b', '\n'), maxLength: 12 });
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ t: fc.constant('create' as const), p: pathA, text: textA }),
  fc.record({ t: fc.constant('write' as const), p: pathA, text: textA }),
  fc.record({
    t: fc.constant('str_replace' as const),
    p: pathA,
    old: fc.string({ unit: fc.constantFrom('a', 'b', '\n'), maxLength: 3 }),
    text: textA,
  }),
  fc.record({
    t: fc.constant('insert' as const),
    p: pathA,
    line: fc.integer({ min: -1, max: 6 }),
    text: textA,
  }),
  fc.record({ t: fc.constant('delete' as const), p: pathA }),
  fc.record({ t: fc.constant('rename' as const), p: pathA, to: pathA }),
);

function occurrences(hay: string, needle: string): number {
  let n = 0;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) n++;
  return n;
}

/** The model: a map of files. Returns whether the command should succeed. */
function applyModel(m: Map<string, string>, c: Cmd): boolean {
  const cur = m.get(c.p);
  switch (c.t) {
    case 'create':
      if (cur !== undefined) return false;
      m.set(c.p, c.text);
      return true;
    case 'write':
      m.set(c.p, c.text);
      return true;
    case 'str_replace': {
      if (cur === undefined || c.old === '' || occurrences(cur, c.old) !== 1) return false;
      m.set(
        c.p,
        cur.replace(c.old, () => c.text),
      );
      return true;
    }
    case 'insert': {
      if (cur === undefined) return false;
      const lines = cur.split('\n');
      if (c.line < 0 || c.line > lines.length) return false;
      lines.splice(c.line, 0, c.text.endsWith('\n') ? c.text.slice(0, -1) : c.text);
      m.set(c.p, lines.join('\n'));
      return true;
    }
    case 'delete':
      return m.delete(c.p);
    case 'rename':
      if (cur === undefined || m.has(c.to) || c.to === c.p) return false;
      m.delete(c.p);
      m.set(c.to, cur);
      return true;
  }
}

describe('model property', () => {
  it('a random sequence of commands leaves the store equal to a simple model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { minLength: 1, maxLength: 25 }), async (cmds) => {
        const s = await sandbox();
        try {
          const model = new Map<string, string>();
          for (const c of cmds) {
            const expected = applyModel(model, c);
            let ok: boolean;
            if (c.t === 'write')
              ok = await s.memory.write(c.p, c.text, 'any', user).then(
                () => true,
                () => false,
              );
            else {
              const input =
                c.t === 'create'
                  ? { command: 'create', path: c.p, file_text: c.text }
                  : c.t === 'str_replace'
                    ? { command: 'str_replace', path: c.p, old_str: c.old, new_str: c.text }
                    : c.t === 'insert'
                      ? { command: 'insert', path: c.p, insert_line: c.line, insert_text: c.text }
                      : c.t === 'delete'
                        ? { command: 'delete', path: c.p }
                        : { command: 'rename', old_path: c.p, new_path: c.to };
              ok = !(await s.memory.tool.execute(input, agent)).isError;
            }
            expect(ok, JSON.stringify(c)).toBe(expected);
          }
          const actual = new Map<string, string>();
          for (const e of await s.memory.list())
            if (e.kind === 'file') actual.set(e.path, (await s.memory.read(e.path)).content);
          expect(actual).toEqual(model);
        } finally {
          await s.cleanup();
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe('race', () => {
  it('concurrent agent edits and user saves (in any order) lose no edit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 6 }), async (sched, n) => {
        const s = await sandbox();
        try {
          await s.memory.create(
            '/memories/shared.md',
            Array.from({ length: n }, (_, i) => `token-${i}`).join('\n'),
          );
          const agentEdits = Array.from({ length: n }, (_, i) =>
            sched.schedule(Promise.resolve(`agent ${i}`)).then(() =>
              s.memory.tool.execute(
                {
                  command: 'str_replace',
                  path: '/memories/shared.md',
                  old_str: `token-${i}`,
                  new_str: `done-${i}`,
                },
                agent,
              ),
            ),
          );
          // The user's editor: read, edit, save with the version it read; on conflict, merge and retry.
          const userSave = sched.schedule(Promise.resolve('user')).then(async () => {
            for (;;) {
              const { content, version } = await s.memory.read('/memories/shared.md');
              try {
                return await s.memory.write('/memories/shared.md', `${content}\nuser line`, version);
              } catch (err) {
                if ((err as MemoryError).code !== 'conflict') throw err;
              }
            }
          });
          await sched.waitAll();
          const results = await Promise.all(agentEdits);
          await userSave;
          expect(results.every((r) => !r.isError)).toBe(true);
          const final = (await s.memory.read('/memories/shared.md')).content;
          for (let i = 0; i < n; i++) expect(final).toContain(`done-${i}`);
          expect(final).toContain('user line');
          expect(final).not.toContain('token-');
        } finally {
          await s.cleanup();
        }
      }),
      { numRuns: 15 },
    );
  });
});
