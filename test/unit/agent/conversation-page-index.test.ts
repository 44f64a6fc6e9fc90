// The page sidecars (conversations/.pages/<id>.json) against the files they index: whatever happened to
// the files (the store's appends, truncations and pins, another process's appends, a torn last line, a
// cut, a hand edit in place, the sidecar damaged or deleted), a page read through the sidecar after a
// restart is exactly the page a full replay of the file gives, walking back to the first; a sidecar that
// cannot be used is replaced once the file is replayed, so the next start opens through it. And an open
// through it reads only the file's tail: a file whose start is overwritten with garbage still opens.
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { appendFile, readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headOf, summaryOf } from '../../../electron/core/conversations/heads.js';
import { readJsonl } from '../../../electron/core/conversations/jsonl.js';
import { PAGES_DIR, pageFileOf } from '../../../electron/core/conversations/page-file.js';
import { type Page, lastPage, pageAt } from '../../../electron/core/conversations/pages.js';
import type { ConversationRecord } from '../../../electron/core/conversations/records.js';
import { type ConversationState, rebuild } from '../../../electron/core/conversations/state.js';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import {
  type FileFault,
  applyFileFault,
  editInPlace,
  fileFaults,
  isFileFault,
  keepSidecars,
  line,
  sidecarFolder,
} from './sidecar-faults.js';
import { type Step, records, step } from './transcript-steps.js';

const { dir, file } = sidecarFolder('mnemo-pages-');
const at = '2026-01-01T00:00:00.000Z';

/** The reference: the file replayed from its first line, as an open without a sidecar does. */
async function replayed(id: string): Promise<ConversationState | null> {
  const { records: all } = await readJsonl<ConversationRecord>(file(id), { repair: false }).catch(() => ({
    records: [],
  }));
  const state = rebuild(all);
  return state?.meta.id === id ? state : null;
}

/**
 * Opens each conversation as a window does after a start: its last page through the sidecar, then every
 * page before it; each must be the full replay's page. Returns how many opened through their sidecar.
 */
async function openAll(store: ConversationStore, ids: string[], limit: number): Promise<number> {
  let indexed = 0;
  for (const id of ids) {
    const ref = await replayed(id);
    if (!ref || !store.has(id)) continue;
    let page = await store.indexedPage(id, { last: true }, limit);
    if (!page) {
      // What conversations.get does then: replay the file (which writes its sidecar again).
      expect(lastPage(await store.open(id), limit)).toEqual(lastPage(ref, limit));
      continue;
    }
    indexed += 1;
    expect(store.summary(id)).toEqual(summaryOf(headOf(ref)));
    expect(page).toEqual(lastPage(ref, limit));
    while (page.older) {
      const want: Page = pageAt(ref, { before: page.older }, limit);
      const next = await store.indexedPage(id, { before: page.older }, limit);
      expect(next).toEqual(want);
      page = next!;
    }
  }
  return indexed;
}

type Op =
  | { op: 'create'; steps: Step[] }
  | { op: 'append'; c: number; steps: Step[] }
  | { op: 'truncate'; c: number; pick: number }
  | { op: 'pin'; c: number; pick: number; pinned: boolean }
  | { op: 'foreignAppend'; c: number; steps: Step[]; again: boolean }
  | { op: 'editInPlace'; c: number }
  | FileFault
  | { op: 'restart' };

const c = fc.nat(3);
const steps = fc.array(step, { minLength: 1, maxLength: 8 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), steps }),
  { weight: 3, arbitrary: fc.record({ op: fc.constant('append' as const), c, steps }) },
  fc.record({ op: fc.constant('truncate' as const), c, pick: fc.nat() }),
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('pin' as const), c, pick: fc.nat(), pinned: fc.boolean() }),
  },
  // again: with the ids of the conversations' first records (a hand edit, a bad merge).
  fc.record({ op: fc.constant('foreignAppend' as const), c, steps, again: fc.boolean() }),
  fc.record({ op: fc.constant('editInPlace' as const), c }),
  ...fileFaults(
    c,
    [
      '',
      '{',
      'null',
      '{"v":1,"id":"x","stamp":[1,2,3],"pinned":[],"deltas":[],"entries":[],"items":[]}',
      '{"v":1,"stamp":[0,0,0],"pinned":[1],"deltas":[5,0],"entries":[1],"items":[1,2]}',
    ],
    { drop: true },
  ),
  fc.constant({ op: 'restart' as const }),
);

/** One character of the last message text changed (x for y), or null where there is none. */
function changeLastText(text: string): string | null {
  const i = text.lastIndexOf('"text":"');
  const p = i + '"text":"'.length;
  if (i < 0 || text[p] === '"' || text[p] === '\\') return null;
  return text.slice(0, p) + (text[p] === 'x' ? 'y' : 'x') + text.slice(p + 1);
}

describe('page sidecar', () => {
  it('a page read through it after a restart is the page of a full replay, whatever happened to the files', async () => {
    let served = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 14 }),
        fc.integer({ min: 1, max: 6 }),
        async (ops, limit) => {
          await rm(dir(), { recursive: true, force: true });
          let store = new ConversationStore(dir());
          await store.init();
          const ids: string[] = [];
          const kept = new Map<string, Buffer[]>();
          let batch = 0;
          const restart = async () => {
            await store.close();
            store = new ConversationStore(dir());
            await store.init();
          };
          try {
            for (const o of ops) {
              const prefix = `b${batch++}-`;
              if (o.op === 'create') {
                ids.push((await store.create({ memory: true, records: records(o.steps, prefix) })).meta.id);
                continue;
              }
              if (o.op === 'restart') {
                await restart();
                await keepSidecars(dir(), ids, kept);
                served += await openAll(store, ids, limit);
                continue;
              }
              const id = ids[o.c];
              if (!id || !store.has(id)) continue;
              if (isFileFault(o)) {
                await applyFileFault(dir(), id, o, kept);
                continue;
              }
              switch (o.op) {
                case 'append':
                  // A foreign edit may have left the file unreadable to the store: refused, nothing lost.
                  await store.append(id, records(o.steps, prefix)).catch(() => undefined);
                  break;
                case 'truncate':
                case 'pin': {
                  const state = await store.open(id).catch(() => null);
                  const m = state?.messages[o.pick % Math.max(1, state.messages.length)];
                  if (!m) break;
                  const record: ConversationRecord =
                    o.op === 'truncate'
                      ? { t: 'truncate', fromMessageId: m.id, at }
                      : { t: 'pin', messageId: m.id, pinned: o.pinned, at };
                  await store.append(id, [record]).catch(() => undefined);
                  break;
                }
                case 'foreignAppend':
                  await appendFile(
                    file(id),
                    records(o.steps, o.again ? 'b0-' : `f${prefix}`)
                      .map(line)
                      .join(''),
                  );
                  break;
                case 'editInPlace':
                  // Only the mtime tells: see editInPlace.
                  await store.close();
                  editInPlace(file(id), changeLastText);
                  store = new ConversationStore(dir());
                  await store.init();
                  break;
              }
            }
            await restart();
            served += await openAll(store, ids, limit);
            // The sidecars that start wrote (or left) describe the files: every open now goes through one.
            await restart();
            // (Not one whose records repeat ids, which no sidecar is written for: which record a cursor
            // or a truncation names would depend on records before the pages read.)
            const live = [];
            for (const id of ids) {
              const ref = store.has(id) ? await replayed(id) : null;
              if (ref && new Set(ref.entries.map((e) => e.record.id)).size === ref.entries.length)
                live.push(id);
            }
            expect(await openAll(store, live, limit)).toBe(live.length);
            served += live.length;
          } finally {
            await store.close();
          }
        },
      ),
      {
        numRuns: 100,
        examples: [
          // An earlier sidecar put back beside a current summary cache (a kill between their saves).
          [
            [
              { op: 'create', steps: [{ op: 'user' }, { op: 'assistant', text: true, tools: [] }] },
              { op: 'restart' },
              { op: 'append', c: 0, steps: [{ op: 'user' }, { op: 'assistant', text: true, tools: [] }] },
              { op: 'restart' },
              { op: 'restoreSidecar', c: 0, pick: 0 },
            ],
            1,
          ],
        ],
      },
    );
    // Not vacuous: most opens went through a sidecar.
    expect(served).toBeGreaterThan(25);
  });

  it('an open through it reads the tail only: the file’s start overwritten with garbage, its last page still opens', async () => {
    let store = new ConversationStore(dir());
    await store.init();
    const steps: Step[] = [];
    for (let i = 0; i < 200; i++) steps.push({ op: 'user' }, { op: 'assistant', text: true, tools: [] });
    const { meta } = await store.create({ memory: true, records: records(steps, 'g-') });
    const want = lastPage((await replayed(meta.id))!, 4);
    await store.close();
    const f = file(meta.id);
    const { size, mtimeMs } = statSync(f);
    // The first nine tenths, meta line included, become same-size garbage; the stat stays the same.
    const data = readFileSync(f);
    data.fill(0x23, 0, Math.floor(size * 0.9));
    writeFileSync(f, data);
    // Half a millisecond in: the float of seconds utimes takes cannot round it down a millisecond.
    const t = (Math.floor(mtimeMs) + 0.5) / 1000;
    utimesSync(f, t, t);

    store = new ConversationStore(dir());
    try {
      await store.init();
      // A replay can no longer read it (no meta line): only the tail the last page needs was read.
      expect(await replayed(meta.id)).toBeNull();
      expect(await store.indexedPage(meta.id, { last: true }, 4)).toEqual(want);
      expect(store.stats).toMatchObject({ replayed: 0, opened: 0 });
    } finally {
      await store.close();
    }
  });

  it('holds offsets, counts and ids, never a conversation’s text', async () => {
    const store = new ConversationStore(dir());
    await store.init();
    const secret = 'zebra-passphrase-4471';
    const { meta } = await store.create({
      memory: true,
      title: secret,
      records: [
        {
          t: 'msg',
          id: 'u1',
          kind: 'user',
          role: 'user',
          text: secret,
          content: [{ type: 'text', text: secret }],
          at,
        },
      ],
    });
    await store.append(meta.id, [{ t: 'pin', messageId: 'u1', pinned: true, at }]);
    await store.close();
    const names = await readdir(path.join(dir(), PAGES_DIR));
    expect(names).toEqual([`${meta.id}.json`]);
    const text = await readFile(pageFileOf(dir(), meta.id), 'utf8');
    expect(text).toContain('"u1"');
    expect(text).not.toContain(secret);
  });

  it('goes with its conversation: deleted, moved to another space', async () => {
    let store = new ConversationStore(dir());
    await store.init();
    const first = (await store.create({ memory: true, records: records([{ op: 'user' }], 'd-') })).meta.id;
    const second = (await store.create({ memory: true, records: records([{ op: 'user' }], 'e-') })).meta.id;
    await store.close();
    store = new ConversationStore(dir());
    const other = path.join(dir(), 'other-space');
    try {
      await store.init();
      const sidecars = async () => (await readdir(path.join(dir(), PAGES_DIR))).sort();
      expect(await sidecars()).toEqual([`${first}.json`, `${second}.json`].sort());
      await store.delete(first);
      expect(await sidecars()).toEqual([`${second}.json`]);
      await store.moveTo(second, other);
      expect(await sidecars()).toEqual([]);
    } finally {
      await store.close();
    }
    // Nothing written for them at close either.
    expect(await readdir(path.join(dir(), PAGES_DIR))).toEqual([]);
  });
});
