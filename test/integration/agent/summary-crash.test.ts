// The summary cache survives a SIGKILL at any moment: a child keeps changing conversations and saving the
// cache and is killed at a random point; the next start gives exactly the summaries a full replay of the
// files gives (a cache left behind the files is caught by the files' stats), the cache file is whole (the
// old one or the new one, never torn), and a start after that one replays nothing.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headOf } from '../../../electron/core/conversations/heads.js';
import { readJsonl } from '../../../electron/core/conversations/jsonl.js';
import type { ConversationRecord } from '../../../electron/core/conversations/records.js';
import { rebuild } from '../../../electron/core/conversations/state.js';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import { CACHE_FILE } from '../../../electron/core/conversations/summary-cache.js';

const root = path.resolve(import.meta.dirname, '../../..');
const worker = path.join(root, 'dist/test/integration/agent/summary-crash-worker.js');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mnemo-summary-crash-'));
  const store = new ConversationStore(dir);
  await store.init();
  for (let c = 0; c < 12; c++) await store.create({ memory: c % 4 !== 0, title: `Seed ${c}` });
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

describe('summary cache and SIGKILL', () => {
  it.each([15, 45, 80, 130, 200, 320])(
    'killed %i ms in, the next start lists what the files hold',
    async (ms) => {
      await killAfter(ms);
      const cache = await readFile(path.join(dir, CACHE_FILE), 'utf8').catch(() => null);
      // Whole: the old cache or the new one (the temp file is only ever renamed into place complete).
      if (cache !== null) expect(() => JSON.parse(cache) as unknown).not.toThrow();
      let store = new ConversationStore(dir);
      try {
        await store.init();
        const heads = store.heads().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        expect(heads).toEqual(await replayed());
        expect(store.stats.cached + store.stats.replayed).toBe(heads.length);
      } finally {
        await store.close();
      }
      // That start's cache describes the files as they are: the next one replays nothing.
      store = new ConversationStore(dir);
      try {
        await store.init();
        expect(store.stats.replayed).toBe(0);
      } finally {
        await store.close();
      }
    },
  );
});
