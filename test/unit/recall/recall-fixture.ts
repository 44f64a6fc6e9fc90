// The recall unit tests' fixture: each test gets a temp data folder with a real conversation store and
// recall index on it (closed, and the folder removed, after the test), and messages a second apart.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { MessageRecord } from '../../../electron/core/conversations/records.js';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import { INDEX_DIR } from '../../../electron/core/recall/persist.js';
import { RecallIndex } from '../../../electron/core/recall/recall-index.js';

export interface Opened {
  store: ConversationStore;
  index: RecallIndex;
}

let n = 0;
export const user = (text: string, at?: string): MessageRecord => ({
  t: 'msg',
  id: `m${++n}`,
  kind: 'user',
  role: 'user',
  content: [{ type: 'text', text }],
  text,
  at: at ?? new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
});
export const assistant = (text: string): MessageRecord => ({
  ...user(text),
  kind: 'assistant',
  role: 'assistant',
  text: undefined,
});

/** Registers the hooks; what it returns works inside a test. */
export function recallFixture(prefix: string) {
  const open: Opened[] = [];
  let dir = '';
  beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), prefix))));
  afterEach(async () => {
    for (const { store, index } of open.splice(0)) {
      await index.close();
      await store.close();
    }
    await rm(dir, { recursive: true, force: true });
  });
  const conversations = (): string => path.join(dir, 'conversations');
  const indexDir = (): string => path.join(conversations(), INDEX_DIR);
  async function start(): Promise<Opened> {
    const store = new ConversationStore(conversations());
    const index = new RecallIndex(store, indexDir(), { batchMs: 5 });
    open.push({ store, index });
    await index.open();
    return { store, index };
  }
  return {
    conversations,
    indexDir,
    start,
    /** Closes `s` and starts again on the same folder. */
    async restart(s: Opened): Promise<Opened> {
      await s.index.close();
      await s.store.close();
      open.splice(open.indexOf(s), 1);
      return start();
    },
    /** The test closed what it started itself: not to be closed again. */
    closedByTest(): void {
      open.splice(0);
    },
  };
}
