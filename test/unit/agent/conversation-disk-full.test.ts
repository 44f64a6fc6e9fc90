// A conversation whose write the disk refused (full) works again once there is space, without a restart:
// the refused records are reported as not saved and dropped, and the next run starts from the file.
// The disk is filled by making node:fs's writeSync refuse with ENOSPC (the conversation writer's write).
import fs, { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import { userMessages } from '../../fixtures/user-messages.js';

let dir: string;
const stores: ConversationStore[] = [];
const realWriteSync = fs.writeSync;
beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'mnemo-diskfull-'))));
afterEach(async () => {
  diskFull(false);
  await Promise.all(stores.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

function diskFull(full: boolean): void {
  fs.writeSync = full
    ? () => {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }
    : realWriteSync;
  syncBuiltinESMExports();
}

const msg = userMessages();

async function open(): Promise<ConversationStore> {
  const store = new ConversationStore(dir);
  stores.push(store);
  await store.init();
  return store;
}

describe('a conversation after a full disk', () => {
  it('refuses the write clearly, then takes the next run once there is space', async () => {
    const store = await open();
    const { meta } = await store.create({ memory: true, records: [msg('saved before')] });

    const first = await store.lease(meta.id);
    diskFull(true);
    await expect(store.write(meta.id, [msg('refused by the full disk')])).rejects.toThrow(/disk is full/i);
    diskFull(false);
    await first.release();

    const second = await store.lease(meta.id);
    await store.write(meta.id, [msg('after space was freed')]);
    await second.release();
    await store.flushed(meta.id);

    const texts = store.get(meta.id).messages.map((m) => m.text);
    expect(texts).toEqual(['saved before', 'after space was freed']);
    const onDisk = readFileSync(path.join(dir, `${meta.id}.jsonl`), 'utf8');
    expect(onDisk).toContain('after space was freed');
    expect(onDisk).not.toContain('refused by the full disk');
    const reread = await open();
    expect(reread.get(meta.id).messages.map((m) => m.text)).toEqual(texts);
  });
});
