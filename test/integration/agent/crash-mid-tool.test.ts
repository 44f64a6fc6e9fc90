// A crash between a reply's tool_use and its recorded result: the conversation file ends at the tool_use
// (as the app left it when killed), the user writes again, and the real backend's request is accepted by
// the fake API. The result the model gets says truthfully whether the memory write was applied: the memory's
// journal is asked by tool_use id. Before the fix, every later message failed with the API's 400 for ever.
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../shared/channels/chat.js';
import {
  type FakeAnthropic,
  startFakeAnthropic,
  text,
  toolUse,
} from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, of, send, startHarness, validRequests } from './harness.js';

const STOPPED = 'The app stopped before this result was recorded.';

/**
 * The copy holds the run's conversation lock with the pid of this (live) test process; a SIGKILLed app
 * leaves the same lock with a dead pid. Give the copied locks the pid of a process that has exited.
 */
async function asIfItsHolderDied(dataDir: string): Promise<void> {
  const dead = spawnSync(process.execPath, ['-e', '']).pid;
  const dir = path.join(dataDir, 'conversations');
  for (const name of await readdir(dir))
    if (name.endsWith('.lock')) await writeFile(path.join(dir, name, 'pid'), String(dead));
}
let fake: FakeAnthropic | undefined;
const harnesses: Harness[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
  await fake?.close();
  fake = undefined;
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

const conversationFile = (dataDir: string, id: string) => path.join(dataDir, 'conversations', `${id}.jsonl`);

/** Cuts the conversation file right after the line of the reply that holds this tool_use. */
async function cutAfterToolUse(file: string, toolUseId: string): Promise<void> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  const at = lines.findIndex(
    (l) => l.includes(`"tool_use"`) && l.includes(`"${toolUseId}"`) && l.includes('"assistant"'),
  );
  expect(at).toBeGreaterThan(0);
  await writeFile(file, `${lines.slice(0, at + 1).join('\n')}\n`);
}

/** Continues the conversation on a fresh backend over `dataDir` and returns the request it sent. */
async function continueAfterCrash(dataDir: string, conversationId: string) {
  const h = await startHarness({ fake: fake!, dataDir });
  harnesses.push(h);
  const before = fake!.messageRequests().length;
  const { events } = await send(h, 'Did you save it?', conversationId);
  expect(of(events, 'run.error')).toEqual([]);
  expect(of(events, 'run.finished')[0]!.status).toBe('done');
  validRequests(fake!);
  const request = fake!.messageRequests()[before]!;
  return { h, request, events };
}

function resultFor(request: { body: unknown }, toolUseId: string) {
  const messages = (
    request.body as { messages: { role: string; content: { type: string; tool_use_id?: string }[] }[] }
  ).messages;
  const at = messages.findIndex((m) =>
    m.content.some((b) => b.type === 'tool_result' && b.tool_use_id === toolUseId),
  );
  expect(at).toBeGreaterThan(0);
  return { message: messages[at]!, previous: messages[at - 1]! };
}

describe('a crash between a tool_use and its result', () => {
  it('says the memory write was applied when the journal holds it, and the request is accepted', async () => {
    fake = await startFakeAnthropic();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-crash-'));
    dirs.push(dataDir);
    const first = await startHarness({ fake, dataDir });
    fake.enqueue(
      toolUse({
        id: 'toolu_applied',
        name: 'memory',
        input: { command: 'create', path: '/memories/plans.md', file_text: 'Trip to Lisbon in May.\n' },
      }),
      text('Saved.'),
    );
    const { res } = await send(first, 'Remember my trip to Lisbon in May.');
    await first.close();
    // Killed after the memory journaled the write, before the tool result reached the conversation file.
    await cutAfterToolUse(conversationFile(dataDir, res.conversationId), 'toolu_applied');

    const { h, request } = await continueAfterCrash(dataDir, res.conversationId);
    const { message, previous } = resultFor(request, 'toolu_applied');
    expect(previous.role).toBe('assistant');
    expect(message.content[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_applied',
      is_error: true,
      content: `${STOPPED} The memory change was applied: /memories/plans.md was created. Do not make it again.`,
    });
    expect(message.content.at(-1)).toMatchObject({ type: 'text', text: 'Did you save it?' });
    expect((await h.core.ctx.memory.read('/memories/plans.md')).content).toBe('Trip to Lisbon in May.\n');

    // Recorded once: the next message sends the same result again, without asking anew.
    const next = await send(h, 'Thanks.', res.conversationId);
    expect(of(next.events, 'run.finished')[0]!.status).toBe('done');
    expect(resultFor(fake.lastMessageRequest(), 'toolu_applied').message.content[0]).toEqual(
      message.content[0],
    );
    validRequests(fake);
  });

  it('says the memory write was not applied when the app died before it (waiting for the review)', async () => {
    fake = await startFakeAnthropic();
    const live = await startHarness({ fake, settings: { memoryWriteMode: 'ask' } });
    harnesses.push(live);
    fake.enqueue(
      toolUse({
        id: 'toolu_pending',
        name: 'memory',
        input: { command: 'create', path: '/memories/plans.md', file_text: 'Trip to Lisbon in May.\n' },
      }),
    );
    const res = await live.core.handlers['chat.send']({ text: 'Remember my trip.', memory: true }, call);
    await live.waitFor((e: RunEvent) => e.runId === res.runId && e.type === 'review.request');
    // The disk as a SIGKILL leaves it now: the reply with the tool_use is synced, nothing was written.
    const dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-crash-'));
    dirs.push(dataDir);
    await cp(live.dataDir, dataDir, { recursive: true });
    await asIfItsHolderDied(dataDir);
    const copied = await readFile(conversationFile(dataDir, res.conversationId), 'utf8');
    expect(copied.trimEnd().split('\n').at(-1)).toContain('"toolu_pending"');

    const { h, request } = await continueAfterCrash(dataDir, res.conversationId);
    const { message } = resultFor(request, 'toolu_pending');
    expect(message.content[0]).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_pending',
      is_error: true,
      content: `${STOPPED} The memory change was not applied (the memory's journal has no record of it); make it again if it still matters.`,
    });
    await expect(h.core.ctx.memory.read('/memories/plans.md')).rejects.toMatchObject({ code: 'not_found' });
  });
});
