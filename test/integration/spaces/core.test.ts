// A backend with several spaces: each chat, memory, backfill, search, temporary conversation, write mode
// and export stays in its own space; Personal behaves as before; spaces are opened only when used.
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gate, text, toolUse } from '../../fixtures/fake-anthropic/index.js';
import type { HostServices } from '../../../electron/core/host.js';
import { createCore } from '../../../electron/core/create-core.js';
import { PERSONAL_ID, SpaceRegistry, TRASH_KEEP_MS } from '../../../electron/core/spaces/index.js';
import { type Harness, call, cardsOf, newConversation, send, startHarness } from '../agent/harness.js';
import { follow, ofType, sendIn } from './support.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const USER = { kind: 'user' } as const;

describe('spaces in the backend', () => {
  it('a fresh backend lists Personal and writes nothing for spaces', async () => {
    h = await startHarness();
    expect((await h.core.spaces.list()).map((s) => s.name)).toEqual(['Personal']);
    expect(existsSync(path.join(h.dataDir, 'spaces'))).toBe(false);
    expect(existsSync(path.join(h.dataDir, 'space.json'))).toBe(false);
    expect(await h.core.spaces.open(PERSONAL_ID)).toMatchObject({
      ctx: h.core.ctx,
      handlers: h.core.handlers,
    });
  });

  it('a chat in a space writes its memory and conversation there, and sees nothing of Personal', async () => {
    h = await startHarness();
    await h.core.ctx.memory.create('/memories/personal.md', 'PERSONAL-CANARY lives here\n', USER);
    const { space } = await h.core.spaces.ensure('Work');
    const work = await h.core.spaces.open(space.id);
    await work.ctx.memory.create('/memories/work.md', 'WORK-FACT: deadline Friday\n', USER);
    const followed = follow(work);
    const personalEvents: string[] = [];
    h.core.bus.subscribe((name) => personalEvents.push(name));

    h.fake.enqueue(
      toolUse({ name: 'memory_search', input: { query: 'CANARY' } }),
      toolUse({ name: 'memory', input: { command: 'view', path: '/memories/personal.md' } }),
      toolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/new.md', file_text: 'from work' },
      }),
      text('Done.'),
    );
    const { res, events } = await sendIn(work, followed, 'What do you know?');
    expect(ofType(events, 'run.finished')[0]!.status).toBe('done');
    const [backfill] = cardsOf(events, 'backfill');
    expect(backfill!.files.map((f) => f.path)).toEqual(['/memories/work.md']);
    const results = ofType(events, 'tool.result');
    expect(results[0]!.result).not.toContain('personal.md');
    expect(results[1]!.isError).toBe(true);
    expect(results[2]!.isError).toBe(false);

    const requests = JSON.stringify(h.fake.messageRequests().map((r) => r.body));
    expect(requests).toContain('WORK-FACT');
    expect(requests).not.toContain('PERSONAL-CANARY');
    const workDir = path.join(h.dataDir, 'spaces', space.id);
    expect(readFileSync(path.join(workDir, 'memories', 'new.md'), 'utf8')).toBe('from work');
    expect(existsSync(path.join(h.dataDir, 'memories', 'new.md'))).toBe(false);
    expect(readdirSync(path.join(workDir, 'conversations'))).toEqual([`${res.conversationId}.jsonl`]);
    expect(existsSync(path.join(h.dataDir, 'conversations', `${res.conversationId}.jsonl`))).toBe(false);
    // Personal's lists and events know nothing of it.
    expect((await h.core.handlers['conversations.list']({}, call)).conversations).toEqual([]);
    expect(personalEvents).toEqual([]);
    await expect(h.core.handlers['conversations.get']({ id: res.conversationId }, call)).rejects.toThrow(
      /does not exist/,
    );
    expect((await work.handlers['conversations.list']({}, call)).conversations.map((c) => c.id)).toEqual([
      res.conversationId,
    ]);
    expect(
      (await h.core.spaces.listWithCounts()).map((s) => [s.name, s.conversations, s.memoryFiles]),
    ).toEqual([
      ['Personal', 0, 1],
      ['Work', 1, 2],
    ]);
  });

  it('a temporary conversation belongs to its space but reads and writes no memory', async () => {
    h = await startHarness();
    const { space } = await h.core.spaces.ensure('Home');
    const home = await h.core.spaces.open(space.id);
    await home.ctx.memory.create('/memories/home.md', 'HOME-SECRET\n', USER);
    const journalBefore = await home.ctx.memory.journal();
    const followed = follow(home);
    h.fake.enqueue(text('Off the record.'));
    const { res, events } = await sendIn(home, followed, 'Just between us', { memory: false });
    expect(cardsOf(events, 'backfill')).toEqual([]);
    const body = h.fake.messageRequests()[0]!.body;
    expect(JSON.stringify(body)).not.toContain('HOME-SECRET');
    expect((body.tools ?? []).map((t: { name: string }) => t.name)).toEqual([]);
    // It belongs to the space it was started in, yet is never listed, counted or kept in its folder.
    expect(
      (await home.handlers['conversations.get']({ id: res.conversationId }, call)).conversation,
    ).toMatchObject({ id: res.conversationId, memory: false });
    expect(
      await h.core.handlers['conversations.get']({ id: res.conversationId }, call).catch(() => null),
    ).toBeNull();
    expect((await home.handlers['conversations.list']({}, call)).conversations).toEqual([]);
    expect(readdirSync(path.join(h.dataDir, 'spaces', space.id, 'conversations'))).not.toContain(
      `${res.conversationId}.jsonl`,
    );
    const counted = await h.core.spaces.listWithCounts();
    expect(counted.find((s) => s.name === 'Home')).toMatchObject({ conversations: 0 });
    expect(await home.ctx.memory.journal()).toEqual(journalBefore);
  });

  it('the write mode and backfill budget are per space; the global setting is the default', async () => {
    h = await startHarness();
    const { space } = await h.core.spaces.ensure('Client');
    await h.core.spaces.configure(space.id, { memoryWriteMode: 'read-only', backfillBudgetTokens: 0 });
    const client = await h.core.spaces.open(space.id);
    await client.ctx.memory.create('/memories/brief.md', 'CLIENT-BRIEF\n', USER);
    const followed = follow(client);
    const create = { command: 'create', path: '/memories/x.md', file_text: 'x' };
    h.fake.enqueue(toolUse({ name: 'memory', input: create }), text('ok'));
    const inClient = await sendIn(client, followed, 'Note this');
    expect(ofType(inClient.events, 'tool.result')[0]).toMatchObject({ isError: true });
    expect(cardsOf(inClient.events, 'backfill')[0]!.files).toEqual([]); // budget 0: the index only
    expect(client.ctx.settings.get()).toMatchObject({
      memoryWriteMode: 'read-only',
      backfillBudgetTokens: 0,
    });
    // Personal keeps the global settings.
    h.fake.enqueue(toolUse({ name: 'memory', input: create }), text('ok'));
    const inPersonal = await send(h, 'Note this');
    expect(ofType(inPersonal.events, 'tool.result')[0]).toMatchObject({ isError: false });
    expect(h.core.ctx.settings.get().memoryWriteMode).toBe('automatic');
    // Cleared: the space follows the global setting again.
    await h.core.spaces.configure(space.id, { memoryWriteMode: null });
    h.core.ctx.settings.set({ memoryWriteMode: 'ask' });
    expect(client.ctx.settings.get().memoryWriteMode).toBe('ask');
  });

  it('exports a space to a zip named after it (Personal keeps its name) and imports into the space named', async () => {
    const saved: string[] = [];
    const zips: Uint8Array[] = [];
    const host: HostServices = {
      kind: 'test',
      saveFile: async ({ defaultName, data }) => {
        saved.push(defaultName);
        zips.push(data);
        return { saved: true, fileName: defaultName };
      },
      pickImport: async () => ({ kind: 'zip', name: 'acme.zip', data: zips[0]! }),
      openExternal: async () => false,
      openFolder: async () => false,
    };
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-space-export-'));
    const core = await createCore({ dataDir, host, env: { HOME: dataDir } });
    try {
      const { space } = await core.spaces.ensure('Acme Café');
      const acme = await core.spaces.open(space.id);
      await acme.ctx.memory.create('/memories/a.md', 'a', USER);
      await acme.handlers['memory.export']({ includeJournal: false }, call);
      await core.handlers['memory.export']({ includeJournal: false }, call);
      expect(saved[0]).toMatch(/^mnemo-memory-acme-cafe-\d{4}-\d{2}-\d{2}\.zip$/);
      expect(saved[1]).toMatch(/^mnemo-memory-\d{4}-\d{2}-\d{2}\.zip$/);
      await core.spaces.rename(PERSONAL_ID, 'Home');
      await core.handlers['memory.export']({ includeJournal: false }, call);
      expect(saved[2]).toMatch(/^mnemo-memory-home-\d{4}-\d{2}-\d{2}\.zip$/);
      // Acme's export imported into Beta: lands in Beta only; Beta's import token means nothing elsewhere.
      const beta = await core.spaces.open((await core.spaces.ensure('Beta')).space.id);
      const { preview } = await beta.handlers['memory.importPreview']({}, call);
      expect(preview).toMatchObject({ added: ['/memories/a.md'] });
      await expect(
        core.handlers['memory.importApply']({ token: preview!.token, overwriteConflicts: false }, call),
      ).rejects.toThrow();
      await expect(
        acme.handlers['memory.importApply']({ token: preview!.token, overwriteConflicts: false }, call),
      ).rejects.toThrow();
      expect(
        await beta.handlers['memory.importApply']({ token: preview!.token, overwriteConflicts: false }, call),
      ).toMatchObject({
        added: 1,
      });
      expect((await beta.ctx.memory.read('/memories/a.md')).content).toBe('a');
      expect((await core.ctx.memory.list()).filter((e) => e.kind === 'file')).toEqual([]);
      expect(existsSync(path.join(dataDir, 'memories', 'a.md'))).toBe(false);
    } finally {
      await core.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('opens no space at start: with 50 spaces nothing of theirs is read or written', async () => {
    h = await startHarness();
    const registry = new SpaceRegistry(h.dataDir);
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) ids.push((await registry.create({ name: `Space ${i}` })).id);
    await registry.close();
    await h.restart();
    const journal = (id: string) => readdirSync(path.join(h!.dataDir, 'spaces', id, 'memory-journal'));
    for (const id of ids) expect(journal(id)).toEqual([]);
    const opened = await h.core.spaces.open(ids[7]!);
    expect(journal(ids[7]!).length).toBeGreaterThan(0);
    expect(h.core.spaces.isOpen(ids[8]!)).toBe(false);
    for (const id of ids.filter((id) => id !== ids[7])) expect(journal(id)).toEqual([]);
    // Closing the backend closes the spaces it opened.
    await h.core.close();
    await expect(opened.ctx.memory.create('/memories/late.md', 'x', USER)).rejects.toThrow(/closed/);
  });

  it('deleting an open space closes it first, refuses Personal, and restores it whole', async () => {
    h = await startHarness();
    const { space } = await h.core.spaces.ensure('Old');
    const old = await h.core.spaces.open(space.id);
    await old.ctx.memory.create('/memories/keep.md', 'keep me', USER);
    await h.core.spaces.delete(space.id);
    expect(h.core.spaces.isOpen(space.id)).toBe(false);
    await expect(old.ctx.memory.create('/memories/late.md', 'x', USER)).rejects.toThrow(/closed/);
    await expect(h.core.spaces.open(space.id)).rejects.toThrow(/does not exist/);
    await expect(h.core.spaces.delete(PERSONAL_ID)).rejects.toThrow(/Personal cannot be deleted/);
    await h.core.spaces.restore(space.id);
    const back = await h.core.spaces.open(space.id);
    expect((await back.ctx.memory.read('/memories/keep.md')).content).toBe('keep me');
  });

  it("no handler of one space reaches another's conversations, runs or memory", async () => {
    h = await startHarness();
    const { space } = await h.core.spaces.ensure('Work');
    const work = await h.core.spaces.open(space.id);
    const followed = follow(work);
    const paused = gate({ afterEvents: 4, reply: text('a slow answer from work') });
    h.fake.enqueue(paused);
    const res = await work.handlers['chat.send']({ text: 'hi', memory: true }, call);
    await paused.reached;
    // From Personal, the running Work run and its conversation do not exist.
    expect(await h.core.handlers['chat.abort']({ runId: res.runId }, call)).toEqual({ aborted: false });
    await expect(
      h.core.handlers['chat.attach'](
        { runId: res.runId, conversationId: res.conversationId, afterSeq: 0 },
        call,
      ),
    ).resolves.toMatchObject({ run: null, events: [] });
    expect(work.ctx.runs.running()).toEqual([res.runId]);
    paused.release();
    expect(ofType(await followed.finished(res.runId), 'run.finished')[0]!.status).toBe('done');
    for (const channel of ['conversations.get', 'conversations.export'] as const) {
      await expect(h.core.handlers[channel]({ id: res.conversationId }, call)).rejects.toThrow(
        /does not exist/,
      );
    }
    await expect(
      h.core.handlers['conversations.rename']({ id: res.conversationId, title: 'x' }, call),
    ).rejects.toThrow(/does not exist/);
    await expect(h.core.handlers['conversations.delete']({ id: res.conversationId }, call)).rejects.toThrow(
      /does not exist/,
    );
    await work.ctx.memory.create('/memories/w.md', 'work only', USER);
    await expect(h.core.handlers['memory.read']({ path: '/memories/w.md' }, call)).rejects.toThrow(
      /does not exist/,
    );
    expect((await h.core.handlers['memory.search']({ query: 'work only', limit: 20 }, call)).hits).toEqual(
      [],
    );
    expect((await work.handlers['conversations.get']({ id: res.conversationId }, call)).conversation.id).toBe(
      res.conversationId,
    );
  });

  it('memory limits are global: a change through Personal applies to every open space', async () => {
    h = await startHarness();
    const { space } = await h.core.spaces.ensure('Work');
    const work = await h.core.spaces.open(space.id);
    await h.core.handlers['settings.set']({ patch: { memoryFileCapBytes: 2048 } }, call);
    await new Promise((resolve) => setImmediate(resolve));
    expect(work.ctx.memory.limits.fileCapBytes).toBe(2048);
    await expect(work.ctx.memory.create('/memories/big.md', 'x'.repeat(4096), USER)).rejects.toThrow(
      /2048-byte limit/,
    );
  });

  it('forgetting a file in one space rewrites nothing of another space that quoted the same text', async () => {
    h = await startHarness();
    const LINE = 'The launch codename is Bluebird and it ships in March.';
    h.fake.enqueue(text(`Noted: ${LINE}`));
    const personal = await send(h, `Remember: ${LINE}`);
    await h.core.close(); // Personal's conversation only on disk, as a file the forget could reach
    await h.restart();
    const personalFile = path.join(h.dataDir, 'conversations', `${personal.res.conversationId}.jsonl`);
    const before = readFileSync(personalFile, 'utf8');
    expect(before).toContain(LINE);
    const { space } = await h.core.spaces.ensure('Work');
    const work = await h.core.spaces.open(space.id);
    const followed = follow(work);
    await work.ctx.memory.create('/memories/launch.md', `${LINE}\n`, USER);
    h.fake.enqueue(text(`In Work too: ${LINE}`));
    const inWork = await sendIn(work, followed, 'What is the codename?');
    await work.handlers['memory.forget']({ path: '/memories/launch.md' }, call);
    const workFile = path.join(
      h.dataDir,
      'spaces',
      space.id,
      'conversations',
      `${inWork.res.conversationId}.jsonl`,
    );
    expect(readFileSync(workFile, 'utf8')).not.toContain(LINE);
    expect(readFileSync(personalFile, 'utf8')).toBe(before);
  });

  it('erases deleted spaces once the trash has kept them 30 days, and keeps the recent ones', async () => {
    h = await startHarness();
    const old = await h.core.spaces.create({ name: 'Old' });
    const recent = await h.core.spaces.create({ name: 'Recent' });
    await h.core.spaces.delete(old.id);
    await h.core.spaces.delete(recent.id);
    const trash = path.join(h.dataDir, 'spaces', '.trash');
    const entry = readdirSync(trash).find((n) => n.endsWith(old.id))!;
    const aged = path.join(trash, `${Date.now() - TRASH_KEEP_MS - 1000}-${old.id}`);
    renameSync(path.join(trash, entry), aged);
    // The deletes looked at the trash too; whichever pass erased it, it is gone once this one is done.
    await h.core.spaces.emptyTrashSoon(0);
    expect(existsSync(aged)).toBe(false);
    expect((await h.core.spaces.trashed()).map((t) => t.name)).toEqual(['Recent']);
  });

  it("spaces.onEvent hears every space's events, each tagged with its space", async () => {
    h = await startHarness();
    const { space } = await h.core.spaces.ensure('Work');
    const work = await h.core.spaces.open(space.id);
    const heard: [string, string][] = [];
    const stop = h.core.spaces.onEvent((spaceId, name) => heard.push([spaceId, name]));
    await work.ctx.memory.create('/memories/w.md', 'w', USER);
    await h.core.ctx.memory.create('/memories/p.md', 'p', USER);
    stop();
    await work.ctx.memory.create('/memories/later.md', 'l', USER);
    expect(heard.filter(([, name]) => name === 'memory.changed')).toEqual([
      [space.id, 'memory.changed'],
      [PERSONAL_ID, 'memory.changed'],
    ]);
  });
});

describe('the counts beside each space', () => {
  it('are answered from memory, and follow every change made here at once', async () => {
    h = await startHarness();
    const work = (await h.core.spaces.ensure('Work')).space;
    const home = (await h.core.spaces.ensure('Home')).space;
    const counts = async () =>
      (await h!.core.spaces.listWithCounts()).map((s) => [s.name, s.conversations, s.memoryFiles]);
    expect(await counts()).toEqual([
      ['Personal', 0, 0],
      ['Work', 0, 0],
      ['Home', 0, 0],
    ]);
    // Written behind the backend's back (as another process would): not counted again yet.
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path.join(h.dataDir, 'spaces', home.id, 'memories', 'by-hand.md'), 'x\n');
    expect((await counts())[2]).toEqual(['Home', 0, 0]);

    // Changes made here: in an open space, and by a transfer into a space not opened before.
    const w = await h.core.spaces.open(work.id);
    await w.ctx.memory.create('/memories/a.md', 'a\n', USER);
    const conversation = await newConversation(h.core.ctx, { title: 'Moved' });
    await h.core.handlers['conversations.moveToSpace']({ id: conversation.id, to: home.id }, call);
    await h.core.handlers['memory.create']({ path: '/memories/p.md', content: 'p\n' }, call);
    const until = Date.now() + 5_000;
    let now = await counts();
    while (
      JSON.stringify(now) !==
        JSON.stringify([
          ['Personal', 0, 1],
          ['Work', 0, 1],
          ['Home', 1, 1],
        ]) &&
      Date.now() < until
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      now = await counts();
    }
    expect(now).toEqual([
      ['Personal', 0, 1],
      ['Work', 0, 1],
      ['Home', 1, 1],
    ]);
  });
});
