// The page sidecars survive a SIGKILL at any moment: a child keeps adding turns to long conversations and
// saving (each save writes their sidecars) and is killed at a random point; every sidecar left is whole
// (the old one or the new one, never torn), a first open through one gives exactly the pages a full replay
// of the file gives, and once the files are replayed where a sidecar could not be used, the next start
// opens every conversation through its sidecar.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl } from '../../../electron/core/conversations/jsonl.js';
import { PAGES_DIR, TURN_BYTES } from '../../../electron/core/conversations/page-file.js';
import { lastPage, pageAt } from '../../../electron/core/conversations/pages.js';
import type { ConversationRecord } from '../../../electron/core/conversations/records.js';
import { rebuild } from '../../../electron/core/conversations/state.js';
import { ConversationStore } from '../../../electron/core/conversations/store.js';

const root = path.resolve(import.meta.dirname, '../../..');
const worker = path.join(root, 'dist/test/integration/agent/page-index-crash-worker.js');
let dir: string;
const at = '2026-01-01T00:00:00.000Z';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mnemo-page-crash-'));
  const store = new ConversationStore(dir);
  await store.init();
  for (let c = 0; c < 3; c++) {
    const records: ConversationRecord[] = [];
    for (let i = 0; i < 1_500; i++) {
      const user = i % 2 === 0;
      const text = `c${c} message ${i}`;
      records.push({
        t: 'msg',
        id: `c${c}-${i}`,
        kind: user ? 'user' : 'assistant',
        role: user ? 'user' : 'assistant',
        content: [{ type: 'text', text }],
        ...(user ? { text } : {}),
        at,
      });
    }
    await store.create({ memory: true, title: `Long ${c}`, records });
  }
  await store.close();
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

function killAfter(afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [worker, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), afterMs));
    child.on('exit', () => resolve());
  });
}

/** Opens each conversation through its sidecar, walking every page back; returns how many could. */
async function openAll(store: ConversationStore, limit: number): Promise<number> {
  let indexed = 0;
  for (const id of store.ids()) {
    const { records } = await readJsonl<ConversationRecord>(path.join(dir, `${id}.jsonl`), { repair: false });
    const ref = rebuild(records)!;
    let page = await store.indexedPage(id, { last: true }, limit);
    if (!page) {
      await store.open(id); // what conversations.get does then (the sidecar is written again)
      continue;
    }
    indexed += 1;
    expect(page).toEqual(lastPage(ref, limit));
    // A few pages back, and the first one: each the replay's.
    for (let i = 0; page.older && i < 5; i++) {
      const next = await store.indexedPage(id, { before: page.older }, limit);
      expect(next).toEqual(pageAt(ref, { before: page.older }, limit));
      page = next!;
    }
  }
  return indexed;
}

describe('page sidecars and SIGKILL', () => {
  it.each([20, 60, 110, 170, 260, 400])(
    'killed %i ms in, the next start opens what the files hold',
    async (ms) => {
      await killAfter(ms);
      const folder = path.join(dir, PAGES_DIR);
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        if (name.endsWith('.tmp')) continue; // a write cut short: never renamed into place
        // Whole: the old sidecar or the new one (its first line JSON, then as many turns as it says).
        const bytes = await readFile(path.join(folder, name));
        const newline = bytes.indexOf(0x0a);
        const head = JSON.parse(bytes.toString('utf8', 0, newline)) as { turns: number };
        expect(bytes.length - newline - 1).toBe(head.turns * TURN_BYTES);
      }
      let store = new ConversationStore(dir);
      try {
        await store.init();
        await openAll(store, 6);
      } finally {
        await store.close();
      }
      store = new ConversationStore(dir);
      try {
        await store.init();
        expect(await openAll(store, 6)).toBe(3);
        expect(store.stats).toMatchObject({ replayed: 0, opened: 0 });
      } finally {
        await store.close();
      }
    },
  );
});
