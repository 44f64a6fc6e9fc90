// The recall index over a real conversation store on a temp folder: stemming, phrases, accents, ranking,
// recency, incremental updates, persistence and corruption, and that deleted, edited-away, redacted,
// temporary and "don't search this" text is never found, live or after a restart.
import { readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import type { RecallIndex } from '../../../electron/core/recall/recall-index.js';
import { assistant, recallFixture, user } from './recall-fixture.js';

const { conversations, indexDir, start, restart, closedByTest } = recallFixture('mnemo-recall-');
/** Every shard file of the index, joined (what is on disk). */
async function onDisk(): Promise<string> {
  const names = await readdir(indexDir()).catch(() => [] as string[]);
  return (await Promise.all(names.map((n) => readFile(path.join(indexDir(), n), 'utf8')))).join('\n');
}
/** Rewrites every shard file with `spoil`. */
async function spoilAll(spoil: (text: string) => string): Promise<void> {
  for (const n of await readdir(indexDir())) {
    const file = path.join(indexDir(), n);
    const text = await readFile(file, 'utf8');
    // The spoiling must hit something, or the test would pass on a file left whole.
    expect(spoil(text)).not.toBe(text);
    await writeFile(file, spoil(text));
  }
}

const found = async (index: RecallIndex, q: string, o = {}) =>
  (await index.search(q, o)).hits.map((h) => h.snippet);

/** A forget whose file part failed: every message's live text becomes "gone", the file keeps it. */
const redactLiveOnly = (store: ConversationStore, id: string): Promise<boolean> =>
  store.redact(
    id,
    (records) => {
      for (const r of records)
        if (r.t === 'msg') {
          r.text = 'gone';
          r.content = [{ type: 'text', text: 'gone' }];
        }
      return true;
    },
    async () => false,
  );

describe('recall index', () => {
  it('matches inflections, case and accents, and highlights the word as written', async () => {
    const { store, index } = await start();
    await store.create({
      memory: true,
      records: [user('We had dinner at the Café Rosé near the RESTAURANTS row')],
    });
    for (const q of ['restaurant', 'Restaurants', 'cafe', 'CAFÉ', 'rose', 'dinners']) {
      expect(await found(index, q), q).toHaveLength(1);
    }
    const [hit] = (await index.search('restaurant')).hits;
    expect(hit!.ranges.map(([s, e]) => hit!.snippet.slice(s, e))).toEqual(['RESTAURANTS']);
    expect(await found(index, 'pizza')).toEqual([]);
  });

  it('a quoted phrase must appear as written; loose words need not be adjacent', async () => {
    const { store, index } = await start();
    await store.create({ memory: true, records: [user('the door was blue, the house red')] });
    await store.create({ memory: true, records: [user('a blue door on the red house')] });
    expect(await found(index, 'blue door')).toHaveLength(2);
    expect(await found(index, '"blue door"')).toEqual(['a blue door on the red house']);
    expect(await found(index, '“red house”')).toEqual(['a blue door on the red house']);
    expect(await found(index, '"door blue"')).toEqual([]);
  });

  it('ranks the better match first, and among equal matches the newer one', async () => {
    const { store, index } = await start();
    // Eight equal messages, in conversations spread over the index's shards: equal scores, newest first.
    for (const month of [3, 1, 8, 5, 2, 7, 4, 6])
      await store.create({ memory: true, records: [user('risotto', `2026-0${month}-01T00:00:00.000Z`)] });
    const { hits } = await index.search('risotto');
    expect(hits.map((h) => h.at.slice(0, 7))).toEqual([8, 7, 6, 5, 4, 3, 2, 1].map((m) => `2026-0${m}`));
    await store.create({
      memory: true,
      records: [user('mushroom risotto and more risotto', '2025-01-01T00:00:00.000Z')],
    });
    expect((await index.search('mushroom risotto')).hits[0]!.snippet).toContain('mushroom');
  });

  it('follows appends, edits (truncate), renames and deletions, and excludes the asking conversation', async () => {
    const { store, index } = await start();
    const a = await store.create({ memory: true, records: [user('first note about kayaks')] });
    const m = user('second note about canoes');
    await store.append(a.meta.id, [m, assistant('Canoes are nice.')]);
    expect(await found(index, 'canoe')).toHaveLength(2);
    expect(await found(index, 'canoe', { exclude: a.meta.id })).toEqual([]);
    await store.append(a.meta.id, [{ t: 'truncate', fromMessageId: m.id, at: new Date().toISOString() }]);
    expect(await found(index, 'canoe')).toEqual([]);
    expect(await found(index, 'kayak')).toHaveLength(1);
    await store.rename(a.meta.id, 'Paddling plans');
    expect((await index.search('paddling', { titles: true })).hits[0]?.messageId).toBeUndefined();
    await store.delete(a.meta.id);
    expect(await found(index, 'kayak')).toEqual([]);
    expect(await found(index, 'paddling', { titles: true })).toEqual([]);
  });

  it('never indexes temporary or "don\'t search this" conversations', async () => {
    const { store, index } = await start();
    await store.create({ memory: false, records: [user('temporary secret zebra')] });
    const b = await store.create({ memory: true, records: [user('marked giraffe')] });
    expect(await found(index, 'giraffe')).toHaveLength(1);
    await store.rewrite(b.meta.id, ([meta, ...rest]) => [
      { ...meta!, noSearch: true } as typeof meta & object,
      ...rest,
    ]);
    expect(await found(index, 'giraffe')).toEqual([]);
    expect(await found(index, 'zebra')).toEqual([]);
    await index.save();
    const file = await onDisk();
    expect(file).not.toMatch(/zebra|giraff/);
  });

  it('filters by date', async () => {
    const { store, index } = await start();
    await store.create({ memory: true, records: [user('tango lesson', '2026-05-01T10:00:00.000Z')] });
    await store.create({ memory: true, records: [user('tango night', '2026-07-01T10:00:00.000Z')] });
    expect(await found(index, 'tango', { after: '2026-06-01' })).toEqual(['tango night']);
    expect(await found(index, 'tango', { before: '2026-06-01' })).toEqual(['tango lesson']);
  });

  it('is saved and reused: a restart neither loses nor rebuilds it, and sees what changed meanwhile', async () => {
    let s = await start();
    const a = await s.store.create({ memory: true, records: [user('violin recital')] });
    await s.index.save();
    const saved = await onDisk();
    expect(saved).toContain('violin');
    s = await restart(s);
    expect(await found(s.index, 'violin')).toHaveLength(1);
    // Another process appends while this one is closed: the restart's cheap check sees it.
    await s.index.close();
    await s.store.append(a.meta.id, [user('cello lesson')]);
    await s.store.close();
    closedByTest();
    s = await start();
    expect(await found(s.index, 'cello')).toHaveLength(1);
  });

  it('a deleted conversation is gone after a restart even if the index was never saved after it', async () => {
    let s = await start();
    const a = await s.store.create({ memory: true, records: [user('submarine sandwich')] });
    await s.index.save();
    // Deleted by another process (no index of ours saw it).
    const other = new ConversationStore(conversations());
    await other.init();
    await other.delete(a.meta.id);
    await other.close();
    s = await restart(s);
    expect(await found(s.index, 'submarine')).toEqual([]);
    await s.index.save();
    expect(await onDisk()).not.toContain('submarin');
  });

  it('redacted text leaves the index at once and after a restart, and the saved file', async () => {
    let s = await start();
    const a = await s.store.create({ memory: true, records: [user('my locker code is quagmire')] });
    await s.index.save();
    await s.store.rewrite(a.meta.id, (records) =>
      records.map((r) =>
        r.t === 'msg'
          ? {
              ...r,
              text: '[forgotten by the user]',
              content: [{ type: 'text', text: '[forgotten by the user]' }],
            }
          : r,
      ),
    );
    expect(await found(s.index, 'quagmire')).toEqual([]);
    await s.index.save();
    expect(await onDisk()).not.toContain('quagmir');
    s = await restart(s);
    expect(await found(s.index, 'quagmire')).toEqual([]);
    expect(await found(s.index, 'forgotten')).toHaveLength(1);
  });

  it('text redacted in memory but still in the file (a forget whose file part failed) is found again after a restart', async () => {
    let s = await start();
    const a = await s.store.create({ memory: true, records: [user('the basil grows here')] });
    await s.index.save();
    // The live records change, the file does not: after a restart the conversation holds the words again.
    await redactLiveOnly(s.store, a.meta.id);
    expect(await found(s.index, 'basil')).toEqual([]);
    await s.index.save();
    s = await restart(s);
    expect(s.store.get(a.meta.id).messages[0]!.text).toContain('basil');
    expect(await found(s.index, 'basil')).toHaveLength(1);
    expect(await found(s.index, 'gone')).toEqual([]);
  });

  it('the same, when the redaction came before the index had seen the conversation', async () => {
    let s = await start();
    // No wait between them: the index first sees the conversation already redacted, so no document of
    // it changed in place; the store's word is what marks it to be checked against its file.
    const a = await s.store.create({ memory: true, records: [user('the cedar stands')] });
    await redactLiveOnly(s.store, a.meta.id);
    expect(await found(s.index, 'cedar')).toEqual([]);
    await s.index.save();
    s = await restart(s);
    expect(s.store.get(a.meta.id).messages[0]!.text).toContain('cedar');
    expect(await found(s.index, 'cedar')).toHaveLength(1);
    expect(await found(s.index, 'gone')).toEqual([]);
  });

  it.each([
    ['torn', (t: string) => t.slice(0, t.length / 2)],
    ['not json', () => 'garbage'],
    ['another version', (t: string) => t.replace(/"v":\d+/, '"v":99')],
    ['an index of another shape', (t: string) => t.replace('["d",[[', '["d",[["x",')],
    ['a line of another kind', (t: string) => t.replace('["d",', '["nope",')],
  ])('a %s index file is rebuilt from the conversations', async (_name, spoil) => {
    let s = await start();
    await s.store.create({ memory: true, records: [user('harpsichord tuning')] });
    await s.index.save();
    await s.index.close();
    await s.store.close();
    closedByTest();
    await spoilAll(spoil);
    s = await start();
    expect(await found(s.index, 'harpsichord')).toHaveLength(1);
    expect(s.index.size).toBe(1);
  });

  it('as typed in the sidebar: the last word is a prefix from three letters on, and two letters match a whole word', async () => {
    const { store, index } = await start();
    await store.create({ memory: true, records: [user('we met at the harbour')] });
    await store.create({ memory: true, records: [user('and he just said ha')] });
    await index.settled();
    const typed = { prefix: true, titles: true };
    expect(await found(index, 'ha', typed)).toEqual(['and he just said ha']);
    expect(await found(index, 'har', typed)).toEqual(['we met at the harbour']);
    expect(await found(index, 'met harb', typed)).toEqual(['we met at the harbour']);
  });

  it('checks a hit in a conversation nobody opened by reading it without holding the event loop', async () => {
    const s = await start();
    const id = (await s.store.create({ memory: true, records: [user('the lighthouse keeper')] })).meta.id;
    await s.index.settled();
    const again = await restart(s);
    await again.index.settled();
    // After a restart no body is read: the hit's conversation is read from its file now.
    expect(again.store.peek(id)).toBeUndefined();
    let turned = false;
    setImmediate(() => (turned = true));
    expect(await found(again.index, 'lighthouse')).toEqual(['the lighthouse keeper']);
    // The loop went on while it was read (a synchronous read finished the search within this turn).
    expect(turned).toBe(true);
    expect(again.store.peek(id)).toBeDefined();
  });

  it('a temp file of a save cut short is removed at the next load (it may hold forgotten text)', async () => {
    let s = await start();
    await s.store.create({ memory: true, records: [user('tuba')] });
    await s.index.save();
    s = await restart(s);
    const leftover = path.join(indexDir(), 'shard-03.json.99999.tmp');
    await writeFile(leftover, 'secret words');
    const old = new Date(Date.now() - 120_000);
    await utimes(leftover, old, old);
    await restart(s);
    expect(await readdir(indexDir())).not.toContain('shard-03.json.99999.tmp');
  });

  it('a manifest that does not list every indexed document is not trusted (nothing stays behind)', async () => {
    let s = await start();
    const a = await s.store.create({ memory: true, records: [user('xylophone repair')] });
    await s.index.save();
    await s.index.close();
    await s.store.close();
    closedByTest();
    await spoilAll((t) => t.replace(/\[\["[^"]+","[^"]+"\]\]/, '[]'));
    s = await start();
    await s.store.delete(a.meta.id);
    await s.index.save();
    expect(await onDisk()).not.toContain('xylophon');
  });

  it('a change rewrites only the shard of its conversation', async () => {
    const s = await start();
    const ids: string[] = [];
    for (let i = 0; i < 40; i++)
      ids.push((await s.store.create({ memory: true, records: [user(`oboe ${i}`)] })).meta.id);
    await s.index.save();
    const before = new Map<string, number>();
    for (const f of await readdir(indexDir())) before.set(f, (await stat(path.join(indexDir(), f))).mtimeMs);
    expect(before.size).toBeGreaterThan(4);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await s.store.delete(ids[7]!);
    await s.index.save();
    let changed = 0;
    for (const f of await readdir(indexDir()))
      if ((await stat(path.join(indexDir(), f))).mtimeMs !== before.get(f)) changed++;
    expect(changed).toBe(1);
    expect(await found(s.index, 'oboe', { limit: 100 })).toHaveLength(39);
  });

  it('updates off the write path: a change only marks the conversation, a batch follows', async () => {
    const { store, index } = await start();
    const a = await store.create({ memory: true, records: [user('alpha')] });
    await index.settled();
    store.appendQueued(a.meta.id, [user('bravo zulu')]);
    // Nothing ran yet (the batch is a timer): the append returned at once.
    expect(index.size).toBe(1);
    await index.settled();
    expect(index.size).toBe(2);
  });
});
