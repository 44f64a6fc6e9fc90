// A checkpoint line tells recovery that what precedes it is on disk, so the folders those changes renamed
// into or out of must be fsynced before it is written: by a flush, by a journal prune (its rewrite ends
// with a checkpoint) and by a forget. A kill cannot reveal a missing sync (the page cache survives it), so
// an fs wrapper records the order of the real fsync and write calls on the real files.
import { open } from 'node:fs/promises';
import { readlinkSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { Memory } from '../../../memory/index.js';
import { sandbox, user, type Sandbox } from './helpers.js';

interface Call {
  op: 'sync' | 'checkpoint';
  file: string;
}

type Proto = {
  sync(this: { fd: number }, ...a: unknown[]): Promise<void>;
  write(this: { fd: number }, ...a: unknown[]): Promise<unknown>;
};

let s: Sandbox;
let root: string;
let calls: Call[];
let restore: () => void = () => undefined;

/** Record every FileHandle.sync (with the file's real path) and every write of a checkpoint line. */
async function recordFs(failSyncOf?: string): Promise<void> {
  const probe = await open(path.join(s.dataDir, 'probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as Proto;
  await probe.close();
  const { sync, write } = proto;
  const where = (fd: number): string => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return '?';
    }
  };
  proto.sync = function (...a) {
    const file = where(this.fd);
    calls.push({ op: 'sync', file });
    if (file === failSyncOf)
      return Promise.reject(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    return sync.apply(this, a);
  };
  proto.write = function (...a) {
    const data = a[0];
    const text = typeof data === 'string' ? data : Buffer.isBuffer(data) ? data.toString('utf8') : '';
    if (text.includes('{"t":"c"}')) calls.push({ op: 'checkpoint', file: where(this.fd) });
    return write.apply(this, a);
  };
  restore = () => {
    proto.sync = sync;
    proto.write = write;
  };
}

/** Every folder in `dirs` was fsynced before the first checkpoint line was written. */
function expectSyncedBeforeCheckpoint(dirs: string[]): void {
  const first = calls.findIndex((c) => c.op === 'checkpoint');
  expect(first, 'a checkpoint was written').toBeGreaterThanOrEqual(0);
  const synced = calls
    .slice(0, first)
    .filter((c) => c.op === 'sync')
    .map((c) => c.file);
  for (const d of dirs) expect(synced, `${path.relative(s.base, d)} synced first`).toContain(d);
}

beforeEach(async () => {
  s = await sandbox({ limits: { journalCapBytes: 4000 } });
  root = path.join(s.dataDir, 'memories');
  calls = [];
});
afterEach(async () => {
  restore();
  await s.cleanup();
});

const cases: [string, (m: Memory) => Promise<void>, (m: Memory) => Promise<string[]>][] = [
  [
    'a flush',
    async (m) => {
      await m.create('/memories/deep/a.md', 'a\n', user);
    },
    async (m) => {
      await m.flush();
      return [path.join(root, 'deep')];
    },
  ],
  [
    'a forget',
    async (m) => {
      await m.create('/memories/deep/a.md', 'a\n', user);
      await m.create('/memories/deep/b.md', 'b\n', user);
      await m.flush();
      await m.create('/memories/other/pending.md', 'not yet checkpointed\n', user);
    },
    async (m) => {
      await m.forget('/memories/deep/a.md');
      return [path.join(root, 'deep'), path.join(root, 'other')];
    },
  ],
  [
    'a journal prune',
    async (m) => {
      for (let i = 0; i < 3; i++) await m.create(`/memories/sub/n${i}.md`, `note ${i} `.repeat(20), user);
      await m.flush();
    },
    async (m) => {
      await m.delete('/memories/sub/n0.md', user);
      // This write takes the journal over its 4,000-byte cap, so its commit prunes it (a rewrite).
      await m.create('/memories/big.md', 'x'.repeat(3000), user);
      return [path.join(root, 'sub'), root];
    },
  ],
];

test.each(cases)('%s fsyncs the changed folders before writing its checkpoint', async (_n, before, act) => {
  await before(s.memory);
  await recordFs();
  const dirs = await act(s.memory);
  restore();
  expectSyncedBeforeCheckpoint(dirs);
});

test('a folder that cannot be synced leaves the checkpoint unwritten until it can be', async () => {
  await s.memory.create('/memories/deep/a.md', 'a\n', user);
  await recordFs(path.join(root, 'deep'));
  await expect(s.memory.flush()).rejects.toMatchObject({ code: 'EIO' });
  expect(calls.filter((c) => c.op === 'checkpoint')).toEqual([]);
  restore();
  calls = [];
  await recordFs();
  await s.memory.flush();
  expectSyncedBeforeCheckpoint([path.join(root, 'deep')]);
});
