// The context meter of a conversation opened after a restart (issue 14, item 5), through the backend's
// handlers against the fake API: a window's open (its last page, then context.get) reads the page sidecar
// and the file's tail, and replays no file, with the figures a replay gives; a sidecar the file no longer
// matches (another process appended, a hand edit in place) is not used, and the meter is the replay's.
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContextUsage } from '../../../shared/channels/context.js';
import { getAgent } from '../../../electron/core/agent/index.js';
import { PAGES_DIR } from '../../../electron/core/conversations/page-file.js';
import type { ConversationRecord } from '../../../electron/core/conversations/records.js';
import { type Harness, call, startHarness } from './harness.js';
import { conversationFile, garbleHead, longChat } from './long-chat.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const store = () => getAgent(h!.core.ctx).store;
const meter = (id: string): Promise<ContextUsage> =>
  h!.core.handlers['context.get']({ conversationId: id }, call);
/** Files this start replayed: checked at start (the cache did not describe them) or opened since. */
const reads = (): number => store().stats.replayed + store().stats.opened;
const fileOf = (id: string): string => conversationFile(h!, id);

/** A window's open after a start: the list, the last page, the meter. */
async function openAfterRestart(id: string, list = true): Promise<ContextUsage> {
  await h!.restart();
  if (list) await h!.core.handlers['conversations.list']({}, call);
  await h!.core.handlers['conversations.get']({ id, limit: 4 }, call);
  return meter(id);
}

/** The reference: the meter of a start that has no sidecar, so it replays the file. */
async function replayedMeter(id: string): Promise<ContextUsage> {
  await h!.core.close();
  rmSync(path.join(h!.dataDir, 'conversations', PAGES_DIR), { recursive: true, force: true });
  await h!.restart();
  const usage = await meter(id);
  expect(reads()).toBe(1);
  return usage;
}

async function conversation(): Promise<string> {
  h = await startHarness();
  return longChat(h, 12, 3);
}

describe('the context meter after a restart', () => {
  it('comes from the page sidecar, replaying no file, with the figures a replay gives', async () => {
    const id = await conversation();
    const opened = await openAfterRestart(id);
    expect(reads()).toBe(0);
    expect(opened.total).toBeGreaterThan(0);
    expect(opened.measured).toBe(true);

    // Not read at all: with the file's first half overwritten by garbage of the same size and its
    // stat kept, a replay could not read it (no meta line), and the meter is still the same.
    await h!.core.close();
    const putBack = garbleHead(h!, id, 0.5);
    // (No list: its check of the heads would find the file no conversation and drop it.)
    expect(await openAfterRestart(id, false)).toEqual(opened);
    expect(reads()).toBe(0);

    await h!.core.close();
    putBack();
    expect(await replayedMeter(id)).toEqual(opened);
  });

  it('is the replay’s once the file changed behind the sidecar: appended by another process, edited by hand', async () => {
    const id = await conversation();
    await openAfterRestart(id);
    // Another process (a CLI run) appended a reply with its usage: the sidecar no longer vouches.
    const at = new Date().toISOString();
    const reply: ConversationRecord = {
      t: 'msg',
      id: 'cli-a1',
      kind: 'assistant',
      role: 'assistant',
      content: [{ type: 'text', text: 'From the other process.' }],
      usage: { input: 54_321, output: 12, cacheRead: 0, cacheWrite: 0 },
      at,
    };
    await h!.core.close();
    await appendFile(fileOf(id), `${JSON.stringify(reply)}\n`);
    const appended = await openAfterRestart(id);
    expect(reads()).toBe(1);
    expect(appended.total).toBe(54_321 + 12);
    expect(await replayedMeter(id)).toEqual(appended);

    // A sidecar for the file as it is now (written by that replay's start), then a digit of the usage
    // changed in place: same size and inode, only the mtime tells.
    expect((await openAfterRestart(id)).total).toBe(54_333);
    expect(reads()).toBe(0);
    await h!.core.close();
    const file = fileOf(id);
    const before = statSync(file).mtimeMs;
    writeFileSync(file, readFileSync(file, 'utf8').replace('"input":54321', '"input":64321'));
    const t = new Date(before + 5_000);
    utimesSync(file, t, t);
    const edited = await openAfterRestart(id);
    expect(edited.total).toBe(64_333);
    expect(reads()).toBe(1);
    expect(await replayedMeter(id)).toEqual(edited);
  });
});
