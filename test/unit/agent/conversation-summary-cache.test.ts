// The summary cache (conversations/.summaries.json) against the files it summarizes: whatever happened
// to the files (the store's appends, another process's appends, a torn last line, a cut, a hand edit in
// place or by replacement, the cache deleted or damaged), a start's heads equal those of a full replay of
// every file; and a start from a current cache reads no conversation body.
import { readFileSync, renameSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { appendFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFolder } from '../../../electron/core/conversations/folder-load.js';
import { headOf } from '../../../electron/core/conversations/heads.js';
import { readJsonl } from '../../../electron/core/conversations/jsonl.js';
import type { ConversationRecord } from '../../../electron/core/conversations/records.js';
import { rebuild } from '../../../electron/core/conversations/state.js';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import { CACHE_FILE } from '../../../electron/core/conversations/summary-cache.js';
import { RecallIndex } from '../../../electron/core/recall/recall-index.js';
import { RecallTools } from '../../../electron/core/recall/tools.js';
import { userMessages } from '../../fixtures/user-messages.js';

let dir: string;
beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'mnemo-summaries-'))));
afterEach(async () => rm(dir, { recursive: true, force: true }));

const msg = userMessages();
const line = (r: ConversationRecord): string => `${JSON.stringify(r)}\n`;

/** The reference: every file replayed from its first line, as a start without a cache does. */
async function replayed(): Promise<unknown[]> {
  const out = [];
  for (const name of (await readdir(dir)).sort()) {
    if (!name.endsWith('.jsonl')) continue;
    const { records } = await readJsonl<ConversationRecord>(path.join(dir, name), { repair: false });
    const state = rebuild(records);
    if (state && `${state.meta.id}.jsonl` === name) out.push(headOf(state));
  }
  return out;
}

const started = (store: ConversationStore): unknown[] =>
  store.heads().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

const file = (id: string): string => path.join(dir, `${id}.jsonl`);

type Op =
  | { op: 'create'; text: string }
  | { op: 'append'; c: number; text: string; kind: 'user' | 'assistant' }
  | { op: 'rename'; c: number; title: string }
  | { op: 'foreignAppend'; c: number; text: string }
  | { op: 'torn'; c: number; text: string }
  | { op: 'cut'; c: number; at: number }
  | { op: 'editInPlace'; c: number }
  | { op: 'editReplace'; c: number; title: string }
  | { op: 'dropCache' }
  | { op: 'damageCache'; text: string }
  | { op: 'restart' };

const words = fc.constantFrom('amber', 'basil', 'cedar', 'delta café', 'ember\nline two', '');
const c = fc.nat(4);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), text: words }),
  fc.record({
    op: fc.constant('append' as const),
    c,
    text: words,
    kind: fc.constantFrom('user' as const, 'assistant' as const),
  }),
  fc.record({ op: fc.constant('rename' as const), c, title: words }),
  fc.record({ op: fc.constant('foreignAppend' as const), c, text: words }),
  fc.record({ op: fc.constant('torn' as const), c, text: words }),
  fc.record({ op: fc.constant('cut' as const), c, at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ op: fc.constant('editInPlace' as const), c }),
  fc.record({ op: fc.constant('editReplace' as const), c, title: words }),
  fc.constant({ op: 'dropCache' as const }),
  fc.record({
    op: fc.constant('damageCache' as const),
    text: fc.constantFrom(
      '',
      '{',
      'null',
      '{"v":1,"heads":{"x":{"head":1,"stamp":[1,2,3]}}}',
      '{"v":1,"heads":[["x",null],[1,2,3,4,5,6,7,8,9,10,11,12,13,14],"row"]}',
      '{"v":1,"heads":[["../x",null,"t","a","b",true,false,1,"m",1,"",1,1,1]]}',
      '{"v":3,"list":[',
      '{"v":3,"list":[["x"]],"heads":[]}',
      '{"v":3,"list":[["x","t","a","b",true,1,2]],"heads":[]}',
      '{"v":3,"list":[],"heads":[["x",null,"t","a","b",true,false,1,"m",1,"",1,1,1]]',
    ),
  }),
  fc.constant({ op: 'restart' as const }),
);

describe('summary cache', () => {
  it('a start gives the heads of a full replay, whatever happened to the files and the cache', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 16 }), async (ops) => {
        await rm(dir, { recursive: true, force: true });
        let store = new ConversationStore(dir);
        await store.init();
        const ids: string[] = [];
        const restart = async () => {
          await store.close();
          store = new ConversationStore(dir);
          await store.init();
          expect(started(store)).toEqual(await replayed());
        };
        try {
          for (const o of ops) {
            if (o.op === 'create') {
              ids.push((await store.create({ memory: true, records: [msg(o.text)] })).meta.id);
              continue;
            }
            if (o.op === 'restart') await restart();
            else if (o.op === 'dropCache') await rm(path.join(dir, CACHE_FILE), { force: true });
            else if (o.op === 'damageCache') await writeFile(path.join(dir, CACHE_FILE), o.text);
            const id = ids[o.op === 'dropCache' || o.op === 'damageCache' || o.op === 'restart' ? -1 : o.c];
            if (!id || !store.has(id)) continue;
            const f = file(id);
            switch (o.op) {
              case 'append':
                // A foreign edit may have left the file unreadable to the store: refused, nothing lost.
                await store.append(id, [msg(o.text, o.kind)]).catch(() => undefined);
                break;
              case 'rename':
                await store.rename(id, o.title).catch(() => undefined);
                break;
              case 'foreignAppend':
                await appendFile(f, line(msg(o.text)) + line({ t: 'title', title: o.text, at: msg('').at }));
                break;
              case 'torn':
                await appendFile(f, line(msg(o.text)).slice(0, 12));
                break;
              case 'cut': {
                const size = statSync(f).size;
                truncateSync(f, Math.floor(size * o.at));
                break;
              }
              case 'editInPlace': {
                // Same length, same inode, one character changed in a message's text: only the mtime tells.
                // By hand while the app is closed (with it open, the live state would not hold it either).
                const text = readFileSync(f, 'utf8');
                const i = text.indexOf('"text":"');
                const at = i + '"text":"'.length;
                if (i < 0 || text[at] === '"' || text[at] === '\\') break;
                await store.close();
                const before = statSync(f).mtimeMs;
                writeFileSync(f, text.slice(0, at) + (text[at] === 'x' ? 'y' : 'x') + text.slice(at + 1));
                // Kept apart from the stat the cache may hold, even on a coarse clock.
                const t = new Date(before + 5_000);
                utimesSync(f, t, t);
                store = new ConversationStore(dir);
                await store.init();
                break;
              }
              case 'editReplace': {
                const lines = readFileSync(f, 'utf8').split('\n');
                let meta: ConversationRecord | undefined;
                try {
                  meta = JSON.parse(lines[0]!) as ConversationRecord;
                } catch {
                  break; // cut before its first line ended
                }
                if (meta.t !== 'meta') break;
                lines[0] = JSON.stringify({ ...meta, title: `${o.title} (edited)` });
                writeFileSync(`${f}.edit`, lines.join('\n'));
                renameSync(`${f}.edit`, f);
                break;
              }
            }
          }
          await restart();
          // And once more: the cache the last start wrote describes the files exactly.
          await restart();
          expect(store.stats.replayed).toBe(0);
        } finally {
          await store.close();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a start from a current cache reads no conversation body', async () => {
    const store = new ConversationStore(dir);
    await store.init();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const state = await store.create({
        memory: true,
        title: `Chat ${i}`,
        records: [msg(`hello ${i}`)],
      });
      await store.append(state.meta.id, [msg(`answer ${i}`, 'assistant')]);
      ids.push(state.meta.id);
    }
    const listed = store.list();
    await store.close();
    // Every body replaced in place by garbage of the same length, its mtime put back: the files' stats
    // are what the cache recorded, so only reading a body could tell. A start must not.
    for (const id of ids) {
      const f = file(id);
      const { size, mtimeMs } = statSync(f);
      writeFileSync(f, 'x'.repeat(size - 1) + '\n');
      // Put back within the same millisecond (the cache's stamps are whole milliseconds).
      const back = (Math.floor(mtimeMs) + 0.5) / 1000;
      utimesSync(f, back, back);
    }
    const again = new ConversationStore(dir);
    try {
      await again.init();
      expect(again.list()).toEqual(listed);
      expect(again.stats).toEqual({ cached: 30, replayed: 0, opened: 0 });
      // Reading one now does find the garbage: the start above really read none of them.
      await expect(again.open(ids[0]!)).rejects.toThrow(/does not exist/);
      expect(again.has(ids[0]!)).toBe(false);
    } finally {
      await again.close();
    }
  });

  it('replays only the files that changed since the cache was written', async () => {
    const store = new ConversationStore(dir);
    await store.init();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await store.create({ memory: true, records: [msg(`hi ${i}`)] })).meta.id);
    await store.close();
    // Another process appended to one; a crash left a torn line on another.
    await appendFile(file(ids[1]!), line(msg('from the CLI')));
    await appendFile(file(ids[3]!), '{"t":"msg","id":"half');
    const again = new ConversationStore(dir);
    try {
      await again.init();
      expect(again.stats).toMatchObject({ cached: 3, replayed: 2 });
      expect(started(again)).toEqual(await replayed());
      expect(again.summary(ids[1]!).messageCount).toBe(2);
    } finally {
      await again.close();
    }
  });

  it('after a restart, the recall index loads and recent_conversations lists without reading a body', async () => {
    let store = new ConversationStore(dir);
    let index = new RecallIndex(store, path.join(dir, '.recall-index'));
    await index.open();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const words = i === 7 ? 'the saffron risotto place' : `ordinary chat number ${i}`;
      ids.push((await store.create({ memory: true, title: `Chat ${i}`, records: [msg(words)] })).meta.id);
    }
    await index.close();
    await store.close();
    store = new ConversationStore(dir);
    index = new RecallIndex(store, path.join(dir, '.recall-index'));
    const tools = new RecallTools(index, store);
    try {
      await index.open();
      const recent = await tools.execute('recent_conversations', { limit: 20 }, 'none');
      expect(recent.content).toContain('ordinary chat number 3');
      expect(recent.content).toContain('the saffron risotto place');
      expect(store.stats).toMatchObject({ replayed: 0, opened: 0 });
      // A search reads the bodies of its hits only (each hit is checked against what the file holds).
      const { hits } = await index.search('saffron');
      expect(hits.map((h) => h.conversationId)).toEqual([ids[7]]);
      expect(store.stats.opened).toBe(1);
    } finally {
      await index.close();
      await store.close();
    }
  });

  it('lists from the cache at once, then announces what the check against the files changed', async () => {
    const store = new ConversationStore(dir);
    await store.init();
    const a = (await store.create({ memory: true, title: 'Kept', records: [msg('one')] })).meta.id;
    const b = (await store.create({ memory: true, title: 'Appended to', records: [msg('two')] })).meta.id;
    const c = (await store.create({ memory: true, title: 'Deleted', records: [msg('three')] })).meta.id;
    await store.close();
    // Another process, after our last save: one more message in b, c's file removed.
    await appendFile(file(b), line(msg('from elsewhere')));
    await rm(file(c));
    const again = new ConversationStore(dir);
    const changed: string[] = [];
    again.onChange((id) => changed.push(id));
    try {
      await again.ready();
      // Listed before the check has read b's file again: as the cache had it.
      expect(again.summary(b).messageCount).toBe(1);
      await again.init();
      // c's file is not in the listing: never listed, so nothing to announce.
      expect(changed).toEqual([b]);
      expect(again.list().map((s) => [s.id, s.messageCount])).toEqual(
        expect.arrayContaining([
          [a, 1],
          [b, 2],
        ]),
      );
      expect(again.has(c)).toBe(false);
      expect(started(again)).toEqual(await replayed());
    } finally {
      await again.close();
    }
  });

  it('a listing taken before the store was made (a space opening) still ends with the files as they are', async () => {
    const store = new ConversationStore(dir);
    await store.init();
    const a = (await store.create({ memory: true, title: 'Kept', records: [msg('one')] })).meta.id;
    const b = (await store.create({ memory: true, title: 'Appended to', records: [msg('two')] })).meta.id;
    const c = (await store.create({ memory: true, title: 'Deleted', records: [msg('three')] })).meta.id;
    await store.close();
    // A space opening lists its folder ahead (prefetchFolder); then another process appends to b and
    // deletes c, before the store that takes the listing is made.
    const listing = listFolder(dir);
    await listing;
    await appendFile(file(b), line(msg('from elsewhere')));
    await rm(file(c));
    const again = new ConversationStore(dir, { listing });
    try {
      await again.ready();
      await again.init();
      expect(again.has(c)).toBe(false);
      expect(again.summary(a).messageCount).toBe(1);
      expect(again.summary(b).messageCount).toBe(2);
      expect(started(again)).toEqual(await replayed());
      expect(again.stats).toMatchObject({ cached: 1, replayed: 1 });
    } finally {
      await again.close();
    }
  });

  it('checks the heads listed from the cache only once the first list was answered', async () => {
    const store = new ConversationStore(dir);
    await store.init();
    const a = (await store.create({ memory: true, title: 'Appended to', records: [msg('one')] })).meta.id;
    await store.close();
    await appendFile(file(a), line(msg('from elsewhere')));
    const again = new ConversationStore(dir);
    const changed = new Promise<string>((resolve) => again.onChange(resolve));
    try {
      await again.ready();
      // Some turns of the loop, as a start takes before its window asks for the list: no check yet (a
      // stat per conversation, on the way to the first list, was most of what a big history added).
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(again.stats.cached).toBe(0);
      expect(again.list().map((s) => s.messageCount)).toEqual([1]);
      // Once it is answered, the check follows by itself and announces what it corrected.
      expect(await changed).toBe(a);
      expect(again.summary(a).messageCount).toBe(2);
      expect(again.stats.replayed).toBe(1);
    } finally {
      await again.close();
    }
  });

  it('a saved list that disagrees with its heads (a hand edit) is shown first, then corrected', async () => {
    const store = new ConversationStore(dir);
    await store.init();
    const a = (await store.create({ memory: true, title: 'Real title', records: [msg('one')] })).meta.id;
    await store.close();
    const cache = path.join(dir, CACHE_FILE);
    const text = readFileSync(cache, 'utf8');
    // The list part only (it comes first): the heads part still holds the real title.
    const edited = text.replace('"Real title"', '"Edited"');
    expect(edited).not.toBe(text);
    writeFileSync(cache, edited);
    const again = new ConversationStore(dir);
    const changed = new Promise<string>((resolve) => again.onChange(resolve));
    try {
      await again.ready();
      expect(again.list().map((s) => s.title)).toEqual(['Edited']);
      expect(await changed).toBe(a);
      expect(again.list().map((s) => s.title)).toEqual(['Real title']);
      expect(again.stats.replayed).toBe(0);
    } finally {
      await again.close();
    }
  });

  it('a cache from before it held the list (version 1) is still used: no file is replayed', async () => {
    const store = new ConversationStore(dir);
    await store.init();
    for (let i = 0; i < 3; i++) await store.create({ memory: true, records: [msg(`hi ${i}`)] });
    await store.close();
    const cache = path.join(dir, CACHE_FILE);
    const { heads } = JSON.parse(readFileSync(cache, 'utf8')) as { heads: unknown[] };
    writeFileSync(cache, JSON.stringify({ v: 1, heads }));
    const again = new ConversationStore(dir);
    try {
      await again.ready();
      expect(again.list()).toHaveLength(3);
      await again.init();
      expect(again.stats).toMatchObject({ cached: 3, replayed: 0 });
      expect(started(again)).toEqual(await replayed());
    } finally {
      await again.close();
    }
  });

  it('with no cache (a folder from before it existed), the list waits for the files', async () => {
    const store = new ConversationStore(dir);
    await store.init();
    for (let i = 0; i < 3; i++) await store.create({ memory: true, records: [msg(`hi ${i}`)] });
    await store.close();
    await rm(path.join(dir, CACHE_FILE));
    const again = new ConversationStore(dir);
    try {
      await again.ready();
      expect(again.list()).toHaveLength(3);
      expect(again.stats.replayed).toBe(3);
    } finally {
      await again.close();
    }
  });
});
