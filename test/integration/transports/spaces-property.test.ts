// A fast-check property over the wire: random memory operations, copies and moves, each call naming a
// random space in its envelope (through the in-memory pair, the real RpcServer and core.spaces), leave every
// space equal to its own model: what one space's call does shows up in that space (and, for a copy or
// move, in the one it names as `to`), and nowhere else.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/create-core.js';
import { RpcServer } from '../../../electron/core/rpc/server.js';
import { createMemoryPair } from '../../../electron/core/transports/memory-pair.js';
import { spaceBound } from '../../../shared/transport/api-proxy.js';
import { testHost } from './backend.js';

type Op =
  | { t: 'create'; s: number; file: string; content: string }
  | { t: 'delete'; s: number; file: string }
  | { t: 'copy' | 'move'; s: number; to: number; file: string };

const files = ['/memories/a.md', '/memories/b.md', '/memories/deep/c.md'];
const space = fc.nat({ max: 2 });
const file = fc.constantFrom(...files);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    t: fc.constant('create' as const),
    s: space,
    file,
    content: fc.string({ unit: fc.constantFrom('x', 'y', ' ', '\n', 'é'), maxLength: 10 }),
  }),
  fc.record({ t: fc.constant('delete' as const), s: space, file }),
  fc.record({ t: fc.constantFrom('copy' as const, 'move' as const), s: space, to: space, file }),
);

describe('spaces over the wire', () => {
  it('random calls in random spaces leave each space equal to its own model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-spaces-wire-'));
        const core = await createCore({ dataDir, host: testHost, env: { HOME: dataDir } });
        const server = new RpcServer({
          handlers: core.handlers,
          bus: core.bus,
          spaces: core.spaces,
          log: core.log,
        });
        const client = createMemoryPair(server);
        try {
          const ids = [
            'personal',
            (await client['spaces.create']({ name: 'A' })).space.id,
            (await client['spaces.create']({ name: 'B' })).space.id,
          ];
          const apis = ids.map((id) => spaceBound(client, () => id));
          const model = ids.map(() => new Map<string, string>());
          for (const o of ops) {
            const here = model[o.s]!;
            const api = apis[o.s]!;
            if (o.t === 'create') {
              const ok = !here.has(o.file);
              const done = await api['memory.create']({ path: o.file, content: o.content }).then(
                () => true,
                () => false,
              );
              expect(done).toBe(ok);
              if (ok) here.set(o.file, o.content);
            } else if (o.t === 'delete') {
              const ok = here.has(o.file);
              const done = await api['memory.delete']({ path: o.file }).then(
                () => true,
                () => false,
              );
              expect(done).toBe(ok);
              here.delete(o.file);
            } else {
              const there = model[o.to]!;
              const ok = o.s !== o.to && here.has(o.file) && !there.has(o.file);
              const channel = o.t === 'copy' ? 'memory.copyToSpace' : 'memory.moveToSpace';
              const done = await api[channel]({ path: o.file, to: ids[o.to]! }).then(
                () => true,
                () => false,
              );
              expect({ o, done }).toEqual({ o, done: ok });
              if (ok) {
                there.set(o.file, here.get(o.file)!);
                if (o.t === 'move') here.delete(o.file);
              }
            }
          }
          for (const [i, api] of apis.entries()) {
            const listed = (await api['memory.list']({})).entries.filter((e) => e.kind === 'file');
            expect(listed.map((e) => e.path).sort()).toEqual([...model[i]!.keys()].sort());
            for (const [p, content] of model[i]!) {
              expect((await api['memory.read']({ path: p })).content).toBe(content);
            }
          }
        } finally {
          client.close();
          await core.close();
          await rm(dataDir, { recursive: true, force: true });
        }
      }),
      { numRuns: 12 },
    );
  });
});
