// A simulated power cut: a file layer that forgets every write to a file not followed by a sync of that
// file. A SIGKILL cannot show a missing sync (the page cache survives it); this can. The layer wraps the
// real node:fs calls memory/ makes (fs itself, not our code): a write through a descriptor marks the
// file's inode dirty, an fdatasync/fsync marks it clean (the journal's appends too: a write, then
// fdatasync). At the cut, the data folder is copied with every dirty file torn (its bytes zeroed, its
// size kept), and a memory opened on the copy must hold every acknowledged change, each file a complete
// version, the journal agreeing with the files.
import fs from 'node:fs';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory, type Memory } from '../../../memory/index.js';

const dirty = new Set<number>();
let tracking = true;
const originals = { writeFileSync: fs.writeFileSync, writeSync: fs.writeSync, fdatasync: fs.fdatasync };
let handleProto: { datasync: () => Promise<void>; sync: () => Promise<void> } | undefined;
let originalHandle: { datasync: () => Promise<void>; sync: () => Promise<void> } | undefined;

const inodeOf = (fd: number): number => fs.fstatSync(fd).ino;

beforeAll(async () => {
  // A write through a descriptor (the temp file of a note) leaves the file dirty until it is synced.
  fs.writeFileSync = function (this: unknown, file: unknown, ...rest: unknown[]) {
    if (tracking && typeof file === 'number') dirty.add(inodeOf(file));
    return (originals.writeFileSync as (...a: unknown[]) => void).call(this, file, ...rest);
  } as typeof fs.writeFileSync;
  fs.writeSync = function (this: unknown, fd: number, ...rest: unknown[]) {
    if (tracking) dirty.add(inodeOf(fd));
    return (originals.writeSync as (...a: unknown[]) => number).call(this, fd, ...rest);
  } as typeof fs.writeSync;
  fs.fdatasync = function (this: unknown, fd: number, cb: (err: Error | null) => void) {
    const ino = inodeOf(fd);
    return originals.fdatasync.call(this, fd, (err) => {
      if (!err) dirty.delete(ino);
      cb(err);
    });
  } as typeof fs.fdatasync;
  syncBuiltinESMExports();
  const probe = await fs.promises.open(os.tmpdir(), 'r');
  handleProto = Object.getPrototypeOf(probe) as typeof handleProto;
  await probe.close();
  originalHandle = { datasync: handleProto!.datasync, sync: handleProto!.sync };
  for (const name of ['datasync', 'sync'] as const)
    handleProto![name] = async function (this: { fd: number }) {
      const ino = inodeOf(this.fd);
      await originalHandle![name].call(this);
      dirty.delete(ino);
    };
});

afterAll(() => {
  Object.assign(fs, originals);
  syncBuiltinESMExports();
  if (handleProto && originalHandle) Object.assign(handleProto, originalHandle);
});

/** The data folder as a power cut would leave it: every file not synced since its last write is torn. */
async function powerCut(dataDir: string): Promise<string> {
  tracking = false;
  const copy = await mkdtemp(path.join(os.tmpdir(), 'mnemo-cut-'));
  try {
    // The lease and the trash come and go while the memory runs (neither is read after a restart).
    const skip = /memory-journal[\\/](lock|lock\.pid|trash[\\/].+)$/;
    await cp(dataDir, copy, { recursive: true, verbatimSymlinks: true, filter: (src) => !skip.test(src) });
    const walk = async (rel: string): Promise<void> => {
      for (const e of await readdir(path.join(dataDir, rel), { withFileTypes: true })) {
        const r = path.join(rel, e.name);
        if (e.isDirectory()) await walk(r);
        else if (e.isFile() && dirty.has(fs.lstatSync(path.join(dataDir, r)).ino))
          fs.writeFileSync(path.join(copy, r), Buffer.alloc(fs.lstatSync(path.join(dataDir, r)).size));
      }
    };
    await walk('memories');
    // What the copy holds is what survived: clean (inode numbers of removed files are reused).
    const clean = async (dir: string): Promise<void> => {
      for (const e of await readdir(dir, { withFileTypes: true }))
        if (e.isDirectory()) await clean(path.join(dir, e.name));
        else dirty.delete(fs.lstatSync(path.join(dir, e.name)).ino);
    };
    await clean(copy);
    // The lease of the process that lost power: a restart finds its owner dead.
    await rm(path.join(copy, 'memory-journal', 'lock'), { recursive: true, force: true });
    await rm(path.join(copy, 'memory-journal', 'lock.pid'), { force: true });
  } finally {
    tracking = true;
  }
  return copy;
}

const content = (i: number) => `v${i}\n${'note line\n'.repeat(1 + ((i * 37) % 60))}end\n`;

async function verify(copy: string, acked: Map<string, number>, when: string): Promise<void> {
  const memory = await createMemory({ dataDir: copy, watch: false });
  try {
    for (const [p, v] of acked) {
      const { content: text, version } = await memory.read(p);
      expect(text, `${when}: ${p} holds its last acknowledged version`).toBe(content(v));
      expect((await memory.history(p))[0]!.afterHash, `journal agrees with ${p}`).toBe(version);
    }
  } finally {
    await memory.close();
  }
}

describe('power cut (writes not followed by a sync are lost)', () => {
  it('every acknowledged change survives, before and after checkpoints, and a torn note is redone', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ file: fc.integer({ min: 0, max: 4 }), flush: fc.boolean() }), {
          minLength: 1,
          maxLength: 12,
        }),
        async (ops) => {
          dirty.clear();
          const base = await mkdtemp(path.join(os.tmpdir(), 'mnemo-power-'));
          const dataDir = path.join(base, 'data');
          const memory: Memory = await createMemory({ dataDir, watch: false });
          const copies: string[] = [];
          try {
            const acked = new Map<string, number>();
            for (const [i, op] of ops.entries()) {
              const p = `/memories/n${op.file}.md`;
              if (i % 3 === 2 && acked.has(p))
                await memory.tool.execute(
                  { command: 'str_replace', path: p, old_str: `v${acked.get(p)}\n`, new_str: `v${i}\n` },
                  { kind: 'user' },
                );
              await memory.write(p, content(i), 'any');
              acked.set(p, i);
              if (op.flush) await memory.flush();
            }
            copies.push(await powerCut(dataDir));
            await verify(copies[0]!, acked, 'first cut');
            // Cut again after the recovered memory closed: what recovery redid was synced by its checkpoint.
            copies.push(await powerCut(copies[0]!));
            await verify(copies[1]!, acked, 'second cut');
          } finally {
            await memory.close();
            for (const c of copies) await rm(c, { recursive: true, force: true });
            await rm(base, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 15 },
    );
  }, 120_000);
});
