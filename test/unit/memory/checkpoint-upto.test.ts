// The deferred checkpoint syncs files outside the lock while writers go on, then records exactly which
// changes it covered: a change journaled meanwhile (by this or another process) stays to be redone.
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, type JournalRecord } from '../../../memory/journal.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const rec = (id: string): JournalRecord => ({
  id,
  at: 1,
  actor: 'user',
  command: 'write',
  path: `/memories/${id}.md`,
  before: null,
  after: 'a'.repeat(64),
});

describe('checkpoint up to a record', () => {
  it('covers the changes up to that record, not the ones appended after it, also when read back', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mnemo-cp-'));
    const writer = new Journal(dir);
    await writer.load(true);
    await writer.append([rec('a'), rec('b')], new Map());
    // Another process's journal view: it reads the same file.
    const other = new Journal(dir);
    await other.load(false);
    await writer.append([rec('c')], new Map()); // journaled while the checkpoint's syncs ran
    await other.checkpointUpTo('b');
    expect(other.unsettledFrom).toBe(2);
    await writer.catchUp();
    expect(writer.unsettledFrom).toBe(2);
    const fresh = new Journal(dir);
    await fresh.load(false);
    expect(fresh.entries.slice(fresh.unsettledFrom).map((r) => r.id)).toEqual(['c']);
    for (const j of [writer, other, fresh]) await j.closeHandles();
  });

  it('writes nothing for a record already covered or gone', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mnemo-cp-'));
    const j = new Journal(dir);
    await j.load(true);
    await j.append([rec('a')], new Map());
    await j.checkpoint();
    const size = j.bytes;
    await j.checkpointUpTo('a');
    await j.checkpointUpTo('missing');
    expect(j.bytes).toBe(size);
    await j.closeHandles();
  });
});
