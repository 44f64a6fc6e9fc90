// The recall index survives being killed in the middle of a save: a child keeps appending messages and
// saving, is SIGKILLed at a random moment, and the next open finds every message the conversations hold
// (and nothing else), whatever state each shard file was left in.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import { INDEX_DIR } from '../../../electron/core/recall/persist.js';
import { RecallIndex } from '../../../electron/core/recall/recall-index.js';
import { messageText } from '../../../electron/core/recall/text.js';
import { userMessages } from '../../fixtures/user-messages.js';

const root = path.resolve(import.meta.dirname, '../../..');
const worker = path.join(root, 'dist/test/integration/agent/recall-crash-worker.js');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mnemo-recall-crash-'));
  const store = new ConversationStore(dir);
  await store.init();
  const user = userMessages();
  for (let c = 0; c < 40; c++)
    await store.create({ memory: true, records: [user(`seed${c} some words to index`)] });
  await store.close();
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

function killDuringSaves(afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [worker, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), afterMs));
    child.on('exit', () => resolve());
  });
}

describe('recall index and SIGKILL', () => {
  it.each([30, 90, 160, 250, 400])(
    'killed %i ms into its saves, the next open finds exactly what is there',
    async (ms) => {
      await killDuringSaves(ms);
      const store = new ConversationStore(dir);
      await store.init();
      const index = new RecallIndex(store, path.join(dir, INDEX_DIR));
      try {
        await index.open();
        const states = await Promise.all(store.ids().map((id) => store.open(id)));
        const texts = states.flatMap((s) => s.messages.map((m) => messageText(m)!));
        expect(index.size).toBe(texts.length);
        const last = texts.filter((t) => t.startsWith('word')).at(-1);
        if (last) {
          const word = last.split(' ')[0]!;
          expect((await index.search(word, { limit: 5 })).hits.map((h) => h.snippet.split(' ')[0])).toContain(
            word,
          );
        }
        expect((await index.search('seed7', { limit: 5 })).hits).toHaveLength(1);
      } finally {
        await index.close();
        await store.close();
      }
    },
  );
});
