// The recall index's long jobs (the first build, a save, the load after a restart) run in slices: the
// event loop gets turns throughout them, and changes made to the conversations meanwhile are followed,
// never lost or applied twice. With sliceMs 0 a job gives a turn after every step, so the count of turns
// says whether it yields at all, whatever the machine's speed.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import { INDEX_DIR } from '../../../electron/core/recall/persist.js';
import { RecallIndex, type RecallSource } from '../../../electron/core/recall/recall-index.js';
import { userMessages } from '../../fixtures/user-messages.js';

let dir: string;
beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'mnemo-recall-slices-'))));
afterEach(async () => rm(dir, { recursive: true, force: true }));

const user = userMessages();

/** The most documents the index took in between two turns of the event loop while `job` ran. */
async function mostPerTurn(index: RecallIndex, job: () => Promise<unknown>): Promise<number> {
  let most = 0;
  let last = index.size;
  let running = true;
  const tick = (): void => {
    if (!running) return;
    most = Math.max(most, Math.abs(index.size - last));
    last = index.size;
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    await job();
  } finally {
    running = false;
  }
  return Math.max(most, Math.abs(index.size - last));
}

async function onDisk(): Promise<string> {
  const folder = path.join(dir, INDEX_DIR);
  const names = await readdir(folder);
  return (await Promise.all(names.map((f) => readFile(path.join(folder, f), 'utf8')))).join('\n');
}

async function seed(conversations: number, messages: number): Promise<string[]> {
  const store = new ConversationStore(dir);
  const ids: string[] = [];
  for (let c = 0; c < conversations; c++) {
    const records = Array.from({ length: messages }, (_, m) => user(`walnut mark${c}q pecan ${m}`));
    ids.push((await store.create({ memory: true, records })).meta.id);
  }
  await store.close();
  return ids;
}

describe('recall index long jobs', () => {
  it('the first build gives the event loop a turn between documents', async () => {
    await seed(4, 30);
    const store = new ConversationStore(dir);
    const index = new RecallIndex(store, path.join(dir, INDEX_DIR), { sliceMs: 0 });
    // 120 documents, at most one between turns (it used to yield every 25 conversations: here, never).
    expect(await mostPerTurn(index, () => index.open())).toBe(1);
    expect(index.size).toBe(120);
    await index.close();
    await store.close();
  });

  it('changes made while the build yields are followed: nothing lost, nothing deleted stays', async () => {
    await seed(6, 200);
    const store = new ConversationStore(dir);
    await store.init();
    // The store, with deletions that reach the index at once (the store's own take a few file
    // operations, which a build yielding after every document would outrun).
    const gone = new Set<string>();
    const listeners = new Set<(id: string) => void>();
    store.onChange((id) => listeners.forEach((l) => l(id)));
    const source: RecallSource = {
      init: () => store.init(),
      heads: () => store.heads().filter((h) => !gone.has(h.id)),
      has: (id) => !gone.has(id) && store.has(id),
      open: (id) => store.open(id),
      onChange: (l) => (listeners.add(l), () => listeners.delete(l)),
    };
    const remove = (id: string) => (gone.add(id), listeners.forEach((l) => l(id)));
    // The order the build takes them in; each conversation's messages carry its own word (mark<c>q).
    const order = store.heads().map((h) => h.id);
    const marks = new Map(order.map((id) => [id, store.get(id).messages[0]!.text!.split(' ')[1]!]));
    const index = new RecallIndex(source, path.join(dir, INDEX_DIR), { sliceMs: 0, batchMs: 1 });
    const opening = index.open();
    // Early in the last conversation (a turn after every document): delete it and the first, change
    // two done before it.
    for (let i = 0; i < 100_000 && index.size < 1_010; i++) await new Promise((r) => setImmediate(r));
    expect(index.size).toBe(1_010);
    remove(order[5]!);
    remove(order[0]!);
    await store.rewrite(order[3]!, (records) =>
      records.map((r) =>
        r.t === 'msg' ? { ...r, text: 'forgotten', content: [{ type: 'text', text: 'forgotten' }] } : r,
      ),
    );
    await store.append(order[4]!, [user('hazelnut late')]);
    await opening;
    const hits = async (q: string) => (await index.search(q, { limit: 1_000 })).hits;
    expect((await hits('hazelnut')).map((h) => h.conversationId)).toEqual([order[4]]);
    const walnut = await hits('walnut');
    expect(new Set(walnut.map((h) => h.conversationId))).toEqual(new Set([order[1], order[2], order[4]]));
    expect(walnut).toHaveLength(600);
    // What the index holds agrees with the conversations, not only what the live check lets through.
    expect(index.size).toBe(200 + 200 + 201 + 200);
    await index.save();
    const saved = await onDisk();
    for (const id of [order[0]!, order[3]!, order[5]!]) expect(saved).not.toContain(marks.get(id));
    for (const id of [order[1]!, order[2]!, order[4]!]) expect(saved).toContain(marks.get(id));
    await index.close();
    await store.close();
  });
});
