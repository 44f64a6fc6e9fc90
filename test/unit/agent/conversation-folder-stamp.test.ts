// A start takes the summary cache's list for the folder's names when the folder stamp a previous start's
// check wrote into the cache is the folder's stat now (no name came or went). What another process did
// while the app was closed must still show: a file appended to or edited in place (the folder unchanged)
// is found by the check's stat, and a file added or removed changes the folder, so the names are read.
// And a window's first list: the newest conversations, parsed from the first rows of the cache's list.
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFolder } from '../../../electron/core/conversations/folder-load.js';
import type { ConversationRecord } from '../../../electron/core/conversations/records.js';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import {
  CACHE_FILE,
  HEADS_KEY,
  LIST_AT,
  headerOf,
} from '../../../electron/core/conversations/summary-cache.js';
import { readCacheHead } from '../../../electron/core/conversations/summary-read.js';
import { userMessages } from '../../fixtures/user-messages.js';

let dir: string;
beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'mnemo-folder-stamp-'))));
afterEach(async () => rm(dir, { recursive: true, force: true }));

const msg = userMessages();
const line = (r: ConversationRecord): string => `${JSON.stringify(r)}\n`;
const file = (id: string): string => path.join(dir, `${id}.jsonl`);

/** The folder's last change put a minute back: as if made well before this start (ctime stays now). */
function ageFolder(): void {
  const past = new Date(Date.now() - 60_000);
  utimesSync(dir, past, past);
}

/** Three conversations, One the oldest; their ids. */
async function threeConversations(): Promise<string[]> {
  const store = new ConversationStore(dir);
  await store.init();
  const ids: string[] = [];
  for (const title of ['One', 'Two', 'Three'])
    ids.push((await store.create({ memory: true, title, records: [msg(title)] })).meta.id);
  await store.close();
  return ids;
}

/** Three conversations, then a start whose check vouches for the cache (the folder is old enough). */
async function vouchedFolder(): Promise<string[]> {
  const ids = await threeConversations();
  ageFolder();
  expect((await listFolder(dir)).from).toBe('names');
  const check = new ConversationStore(dir);
  await check.init();
  await check.close();
  expect((await listFolder(dir)).from).toBe('vouched');
  return ids;
}

/** A conversation 'from-cli' written by another process (a CLI run). */
function fromCli(): void {
  const meta = {
    t: 'meta',
    v: 1,
    id: 'from-cli',
    title: 'From the CLI',
    createdAt: msg('').at,
    memory: true,
  };
  writeFileSync(file('from-cli'), `${JSON.stringify(meta)}\n${line(msg('hello'))}`);
}

async function started(): Promise<ConversationStore> {
  const store = new ConversationStore(dir);
  await store.init();
  return store;
}

describe('a start from the folder stamp in the summary cache', () => {
  it('reads no names when nothing changed, and lists every conversation', async () => {
    const ids = await vouchedFolder();
    const store = await started();
    try {
      expect(
        store
          .list()
          .map((s) => s.id)
          .sort(),
      ).toEqual([...ids].sort());
      expect(store.stats).toMatchObject({ cached: 3, replayed: 0 });
    } finally {
      await store.close();
    }
    // The start wrote nothing: the next one is vouched for too.
    expect((await listFolder(dir)).from).toBe('vouched');
  });

  it('still finds a file another process appended to (the folder itself unchanged)', async () => {
    const [a] = await vouchedFolder();
    await appendFile(file(a!), line(msg('from the CLI')));
    expect((await listFolder(dir)).from).toBe('vouched');
    const store = await started();
    try {
      expect(store.summary(a!).messageCount).toBe(2);
      expect(store.stats).toMatchObject({ cached: 2, replayed: 1 });
    } finally {
      await store.close();
    }
  });

  it('still finds a file edited in place to the same size (only its mtime moved)', async () => {
    const [, b] = await vouchedFolder();
    const text = readFileSync(file(b!), 'utf8');
    const edited = text.replace('"title":"Two"', '"title":"Owt"');
    expect(edited.length).toBe(text.length);
    const before = statSync(file(b!)).mtimeMs;
    writeFileSync(file(b!), edited);
    const later = new Date(before + 5_000);
    utimesSync(file(b!), later, later);
    expect((await listFolder(dir)).from).toBe('vouched');
    const store = await started();
    try {
      expect(store.summary(b!).title).toBe('Owt');
    } finally {
      await store.close();
    }
  });

  it('reads the names again once a file was added or removed by another process', async () => {
    const [a, b] = await vouchedFolder();
    fromCli();
    await rm(file(a!));
    // Even with the folder's time put back (a copy that keeps times): its ctime moved.
    ageFolder();
    expect((await listFolder(dir)).from).toBe('names');
    const store = await started();
    try {
      const ids = store.list().map((s) => s.id);
      expect(ids).toContain('from-cli');
      expect(ids).toContain(b);
      expect(ids).not.toContain(a);
    } finally {
      await store.close();
    }
  });

  it('reads the names when the list was edited in place since it was vouched for', async () => {
    const [a] = await vouchedFolder();
    const cache = path.join(dir, CACHE_FILE);
    const text = readFileSync(cache, 'utf8');
    // The same length, the folder untouched: only the ids the stamp was vouched with tell.
    const edited = text.replace(`["${a}",`, `["${'z'.repeat(a!.length)}",`);
    expect(edited.length).toBe(text.length);
    writeFileSync(cache, edited);
    expect((await listFolder(dir)).from).toBe('names');
    const store = await started();
    try {
      expect(store.list().map((s) => s.id)).toContain(a);
    } finally {
      await store.close();
    }
  });
});

describe("a window's first list", () => {
  it('is the newest conversations, from the first rows of the list alone', async () => {
    const [one] = await vouchedFolder();
    const store = await started();
    try {
      expect(store.firstPage(2)).toEqual({ conversations: store.list().slice(0, 2), more: true });
      expect(store.firstPage(2).conversations.map((s) => s.title)).toEqual(['Three', 'Two']);
      expect(store.firstPage(3)).toEqual({ conversations: store.list(), more: false });
    } finally {
      await store.close();
    }
    // The oldest row made invalid (same length, so the part's bounds hold): the first two still parse,
    // the whole list does not. The first rows are cut from the part without parsing the rest.
    const cache = path.join(dir, CACHE_FILE);
    const text = readFileSync(cache, 'utf8');
    writeFileSync(cache, text.replace(`["${one}","One",`, `["${one}",12345,`));
    const read = readCacheHead(dir);
    expect(read.first(2)?.list.map((s) => s.title)).toEqual(['Three', 'Two']);
    expect(read.first(2)?.more).toBe(true);
    expect(read.list).toBeNull();
  });

  it('right after a start is the same whatever the list was vouched for or not', async () => {
    await threeConversations();
    const again = new ConversationStore(dir);
    try {
      await again.ready();
      expect(again.firstPage(1).conversations.map((s) => s.title)).toEqual(['Three']);
      expect(again.firstPage(1).more).toBe(true);
    } finally {
      await again.close();
    }
  });

  it('a cache whose list is on one line (written by an earlier version) is written again, a row per line', async () => {
    await threeConversations();
    const cache = path.join(dir, CACHE_FILE);
    const text = readFileSync(cache, 'utf8');
    const end = text.indexOf(HEADS_KEY, LIST_AT);
    const oneLine = text.slice(LIST_AT, end).replaceAll('\n', '');
    writeFileSync(cache, `${headerOf(oneLine.length)}${oneLine}${text.slice(end)}`);
    expect(readCacheHead(dir).first(1)).toBeNull();
    const again = await started();
    try {
      expect(again.firstPage(2).conversations.map((s) => s.title)).toEqual(['Three', 'Two']);
      expect(again.stats.replayed).toBe(0);
    } finally {
      await again.close();
    }
    expect(
      readCacheHead(dir)
        .first(1)
        ?.list.map((s) => s.title),
    ).toEqual(['Three']);
  });

  it('announces a conversation another process starts right after it, before the folder is watched', async () => {
    await vouchedFolder();
    const store = new ConversationStore(dir);
    try {
      // As the list's handler does: discover, watch (from the next turn), answer.
      await store.discover();
      store.watchFolder(() => undefined);
      expect(store.firstPage(5).conversations).toHaveLength(3);
      const announced = new Promise<string>((resolve) => store.onChange(resolve));
      fromCli();
      expect(await announced).toBe('from-cli');
      expect(store.list().map((s) => s.title)).toContain('From the CLI');
    } finally {
      await store.close();
    }
  });

  it('a title edited in place since the list was vouched for makes the start read the names', async () => {
    await vouchedFolder();
    const cache = path.join(dir, CACHE_FILE);
    const text = readFileSync(cache, 'utf8');
    const edited = text.replace('"Two"', '"Owt"');
    expect(edited.length).toBe(text.length);
    writeFileSync(cache, edited);
    expect((await listFolder(dir)).from).toBe('names');
  });
});
