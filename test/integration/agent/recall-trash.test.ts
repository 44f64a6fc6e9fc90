// A deleted conversation leaves recall at once, not when the window's Undo runs out: the model's
// conversation_search (real SDK, fake Messages API) finds nothing right after conversations.delete; the
// Undo (conversations.restore) brings it back, listed and found again; a process killed before the Undo
// leaves it deleted for good (not listed, not restorable, nowhere on disk, the recall index included); and
// a forget while it waits in the trash erases its copies there too.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getAgent } from '../../../electron/core/agent/index.js';
import { TRASH_DIR } from '../../../electron/core/conversations/trash.js';
import { PASSAGES, expectForgottenEverywhere, filesHolding, seedConversations } from './forget-support.js';
import { type Harness, call, startHarness } from './harness.js';
import { QUESTION, scriptModel } from '../../fixtures/recall-model.js';
import { ask } from './recall-support.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const root = path.resolve(import.meta.dirname, '../../..');
const worker = path.join(root, 'dist/test/integration/agent/trash-worker.js');
const FOUND = 'You mentioned Chez Gaston.';
const NOTHING = 'I found nothing about a restaurant.';

const gaston = (dataDir: string) => filesHolding(dataDir, ['Gaston', 'gaston']);

/** Runs the worker on `dataDir` to start a backend there and close it again (a CLI run, a second window). */
function startElsewhere(dataDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const child = spawn(process.execPath, [worker, dataDir, '--start'], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, HOME: dataDir },
    });
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`the worker ended with ${code}`)),
    );
  });
}

/** Runs the worker, which deletes `id` and is SIGKILLed once the deletion answered. */
function deleteThenKill(dataDir: string, id: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [worker, dataDir, id], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, HOME: dataDir },
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('deleted')) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error('the worker ended without deleting')),
    );
  });
}

describe('deleting a conversation: at once, with an Undo', () => {
  it('recall finds nothing right after the delete; restore brings it back, listed and found', async () => {
    h = await startHarness();
    scriptModel(h.fake);
    const { handlers, bus } = h.core;
    const told = await ask(handlers, bus, 'Last night we ate at a restaurant called Chez Gaston. Lovely.');
    expect((await ask(handlers, bus, QUESTION)).answer).toBe(FOUND);

    await handlers['conversations.delete']({ id: told.conversationId }, call);
    // The other conversation (which the model told) is deleted too, so only the first could answer.
    const asked = (await handlers['conversations.list']({}, call)).conversations.filter(
      (c) => c.id !== told.conversationId,
    );
    for (const c of asked) await handlers['conversations.delete']({ id: c.id }, call);
    expect((await ask(handlers, bus, QUESTION)).answer).toBe(NOTHING);
    const listed = await handlers['conversations.list']({}, call);
    expect(listed.conversations.map((c) => c.id)).not.toContain(told.conversationId);
    expect(await gaston(h.dataDir)).toContainEqual(expect.stringContaining(TRASH_DIR));

    const restored = await handlers['conversations.restore']({ id: told.conversationId }, call);
    expect(restored.conversation.id).toBe(told.conversationId);
    expect((await handlers['conversations.list']({}, call)).conversations.map((c) => c.id)).toContain(
      told.conversationId,
    );
    expect((await ask(handlers, bus, QUESTION)).answer).toBe(FOUND);
    const search = await handlers['conversations.search']({ query: 'gaston' }, call);
    expect(search.results.map((r) => r.id)).toContain(told.conversationId);
    // Opened as before.
    const shown = await handlers['conversations.get']({ id: told.conversationId }, call);
    expect(JSON.stringify(shown.items)).toContain('Chez Gaston');
  });

  it('another process starting on the folder leaves a live window its Undo', async () => {
    h = await startHarness();
    scriptModel(h.fake);
    const { handlers, bus } = h.core;
    const told = await ask(handlers, bus, 'Last night we ate at a restaurant called Chez Gaston. Lovely.');
    await handlers['conversations.delete']({ id: told.conversationId }, call);

    expect(await startElsewhere(h.dataDir)).toContain('started');
    // Its start left the trashed file where it was.
    expect(await gaston(h.dataDir)).toContainEqual(expect.stringContaining(TRASH_DIR));
    const restored = await handlers['conversations.restore']({ id: told.conversationId }, call);
    expect(restored.conversation.id).toBe(told.conversationId);
    expect((await ask(handlers, bus, QUESTION)).answer).toBe(FOUND);
  });

  it('killed before the Undo: deleted for good at the next start, on disk and in the recall index', async () => {
    h = await startHarness();
    scriptModel(h.fake);
    const told = await ask(h.core.handlers, h.core.bus, 'We ate at a restaurant called Chez Gaston.');
    // The recall index holds it on disk before (the test can fail).
    await getAgent(h.core.ctx).recall.open();
    await getAgent(h.core.ctx).recall.save();
    expect((await gaston(h.dataDir)).some((f) => f.includes('.recall-index'))).toBe(true);
    await h.core.close();

    await deleteThenKill(h.dataDir, told.conversationId);
    expect(await gaston(h.dataDir)).toContainEqual(expect.stringContaining(TRASH_DIR));

    h.core = (await startHarness({ fake: h.fake, dataDir: h.dataDir })).core;
    const { handlers, bus } = h.core;
    expect((await handlers['conversations.list']({}, call)).conversations.map((c) => c.id)).not.toContain(
      told.conversationId,
    );
    await expect(handlers['conversations.restore']({ id: told.conversationId }, call)).rejects.toThrow(
      'That conversation was deleted for good.',
    );
    expect((await ask(handlers, bus, QUESTION)).answer).toBe(NOTHING);
    await getAgent(h.core.ctx).recall.save();
    expect(await gaston(h.dataDir)).toEqual([]);
  });

  it('a forget while a conversation waits in the trash erases its copies there; a restore brings it back redacted', async () => {
    h = await startHarness({ settings: { contextStrategy: 'local' } });
    const { a } = await seedConversations(h);
    await h.core.handlers['conversations.delete']({ id: a }, call);
    expect((await filesHolding(h.dataDir, PASSAGES)).some((f) => f.includes(TRASH_DIR))).toBe(true);

    await h.core.handlers['memory.forget']({ path: '/memories/medical/health.md' }, call);
    await expectForgottenEverywhere(h.dataDir);
    await h.core.handlers['conversations.restore']({ id: a }, call);
    await expectForgottenEverywhere(h.dataDir);
    const shown = await h.core.handlers['conversations.get']({ id: a }, call);
    for (const passage of PASSAGES) expect(JSON.stringify(shown)).not.toContain(passage);
  });
});
