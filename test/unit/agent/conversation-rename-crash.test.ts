// A rename is a fact of the list itself: a start lists from the summary cache before it checks the heads
// against the files (store-base.ts), so a rename acknowledged just before a crash must already be in the
// cache, or the first list after the restart shows the old title (the fault suite caught it).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import { userMessages } from '../../fixtures/user-messages.js';

let dir: string;
beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'mnemo-rename-crash-'))));
afterEach(async () => rm(dir, { recursive: true, force: true }));

const msg = userMessages();

it('the first list after a crash right after a rename shows the new title', async () => {
  const first = new ConversationStore(dir);
  await first.init();
  const { meta } = await first.create({ memory: true, title: 'Old title', records: [msg('hello')] });
  await first.close();

  const running = new ConversationStore(dir);
  await running.init();
  await running.rename(meta.id, 'New title');
  // Killed here: no close, no timer's save (the next start runs before it would fire).
  const next = new ConversationStore(dir);
  await next.discover();
  expect(next.list().map((c) => c.title)).toEqual(['New title']);
  await next.close();
  await running.close();
});
