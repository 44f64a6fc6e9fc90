// Moving between spaces through a real transport (the in-memory pair over the RpcServer with core.spaces):
// "Copy/Move to space…" of a memory file is journaled on both sides with where it came from or went, the
// target's guards apply; "Move to space…" of a conversation carries it over, the chat says so, and its next
// turn is given the new space's memory (checked in the request the fake Messages API received).
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gate, text, toolUse } from '../../fixtures/fake-anthropic/index.js';
import { RpcServer } from '../../../electron/core/rpc/server.js';
import { createMemoryPair, type MemoryClient } from '../../../electron/core/transports/memory-pair.js';
import type { RunEvent } from '../../../shared/channels/chat.js';
import type { Api } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import { spaceBound } from '../../../shared/transport/api-proxy.js';
import { type Harness, cardsOf, startHarness } from '../agent/harness.js';

let h: Harness | undefined;
let client: MemoryClient | undefined;
afterEach(async () => {
  client?.close();
  await h?.close();
  h = client = undefined;
});

async function connect(): Promise<{
  api: Api;
  inSpace: (id: string) => Api;
  events: RunEvent[];
  spaceOf: Map<RunEvent, string | undefined>;
}> {
  h = await startHarness();
  const core = h.core;
  const server = new RpcServer({
    handlers: core.handlers,
    bus: core.bus,
    spaces: core.spaces,
    log: core.log,
  });
  client = createMemoryPair(server);
  const events: RunEvent[] = [];
  const spaceOf = new Map<RunEvent, string | undefined>();
  client.on('chat.event', (e, meta) => {
    events.push(e);
    spaceOf.set(e, meta.space);
  });
  await client['app.ready']({});
  const api = client;
  return { api, inSpace: (id) => spaceBound(api, () => id), events, spaceOf };
}

async function refusal(promise: Promise<unknown>): Promise<ContractError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ContractError);
    return error as ContractError;
  }
  throw new Error('expected the call to be refused');
}

async function finished(events: RunEvent[], runId: string): Promise<void> {
  while (!events.some((e) => e.runId === runId && e.type === 'run.finished')) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('copy and move between spaces', () => {
  it('copies and moves a memory file, journaled on both sides, guarded in the target', async () => {
    const { api, inSpace } = await connect();
    const work = (await api['spaces.create']({ name: 'Work' })).space.id;
    const home = (await api['spaces.create']({ name: 'Home' })).space.id;
    const w = inSpace(work);
    const hm = inSpace(home);
    await w['memory.create']({ path: '/memories/client.md', content: '- Acme, contact Bo\n' });

    const copied = await w['memory.copyToSpace']({ path: '/memories/client.md', to: home });
    expect(copied).toEqual({ path: '/memories/client.md', journalId: expect.any(String) });
    expect((await hm['memory.read']({ path: '/memories/client.md' })).content).toBe('- Acme, contact Bo\n');
    expect((await hm['memory.history']({ path: '/memories/client.md' })).entries).toEqual([
      expect.objectContaining({
        id: copied.journalId,
        actor: 'user',
        command: 'create',
        fromSpace: { id: work, name: 'Work' },
      }),
    ]);
    // A copy changes nothing in the source.
    expect((await w['memory.history']({ path: '/memories/client.md' })).entries).toHaveLength(1);

    // Nothing is overwritten: the same name again is a conflict, and the target keeps its version.
    await hm['memory.write']({
      path: '/memories/client.md',
      content: 'home edit\n',
      baseVersion: null,
    }).catch(() => undefined);
    const before = (await hm['memory.read']({ path: '/memories/client.md' })).content;
    const clash = await refusal(w['memory.copyToSpace']({ path: '/memories/client.md', to: home }));
    expect(clash.code).toBe('conflict');
    expect(clash.message).toContain('Home');
    expect((await hm['memory.read']({ path: '/memories/client.md' })).content).toBe(before);

    const moved = await w['memory.moveToSpace']({
      path: '/memories/client.md',
      to: home,
      as: '/memories/acme.md',
    });
    expect(moved).toMatchObject({ path: '/memories/acme.md', sourceJournalId: expect.any(String) });
    await refusal(w['memory.read']({ path: '/memories/client.md' }));
    const sourceHistory = (await w['memory.history']({ path: '/memories/client.md' })).entries;
    expect(sourceHistory[0]).toMatchObject({
      id: moved.sourceJournalId,
      command: 'delete',
      toSpace: { id: home, name: 'Home' },
      revertible: true,
    });
    expect((await hm['memory.history']({ path: '/memories/acme.md' })).entries[0]).toMatchObject({
      id: moved.journalId,
      command: 'create',
      fromSpace: { id: work, name: 'Work' },
    });
    const homeDir = path.join(h!.dataDir, 'spaces', home, 'memories');
    expect(existsSync(path.join(homeDir, 'acme.md'))).toBe(true);
    expect(existsSync(path.join(h!.dataDir, 'spaces', work, 'memories', 'client.md'))).toBe(false);
    // Undo on the source side brings the file back there (the copy in Home stays: two separate journals).
    await w['memory.revert']({ journalId: moved.sourceJournalId! });
    expect((await w['memory.read']({ path: '/memories/client.md' })).content).toBe('- Acme, contact Bo\n');
  });

  it('applies the target space’s secret guard, and refuses a move to itself or to no space', async () => {
    const { api, inSpace } = await connect();
    const work = (await api['spaces.create']({ name: 'Work' })).space.id;
    const home = (await api['spaces.create']({ name: 'Home' })).space.id;
    // Put there by another program (the memory guards what the app writes, not what is on disk).
    const key = 'sk-ant-api03-' + 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z'.repeat(2);
    writeFileSync(path.join(h!.dataDir, 'spaces', work, 'memories', 'keys.md'), `token ${key}\n`);
    const refused = await refusal(
      inSpace(work)['memory.moveToSpace']({ path: '/memories/keys.md', to: home }),
    );
    expect(refused.code).toBe('invalid_request');
    expect(refused.message).not.toContain(key);
    expect(existsSync(path.join(h!.dataDir, 'spaces', home, 'memories', 'keys.md'))).toBe(false);
    // A refused move loses nothing: the file is still where it was.
    expect((await inSpace(work)['memory.read']({ path: '/memories/keys.md' })).content).toContain('token');

    await inSpace(work)['memory.create']({ path: '/memories/a.md', content: 'a' });
    expect(
      (await refusal(inSpace(work)['memory.copyToSpace']({ path: '/memories/a.md', to: work }))).code,
    ).toBe('invalid_request');
    expect(
      (await refusal(inSpace(work)['memory.copyToSpace']({ path: '/memories/a.md', to: 'abcdef012345' })))
        .code,
    ).toBe('not_found');
    expect((await refusal(inSpace(work)['memory.copyToSpace']({ path: '/memories', to: home }))).code).toBe(
      'invalid_request',
    );
  });

  it('moves a conversation: the chat says so, and its next turn gets the new space’s memory', async () => {
    const { api, inSpace, events, spaceOf } = await connect();
    const fake = h!.fake;
    await api['memory.create']({ path: '/memories/personal.md', content: 'PERSONAL-FACT: cats\n' });
    const work = (await api['spaces.create']({ name: 'Work' })).space.id;
    const w = inSpace(work);

    fake.enqueue(text('Hello from Personal.'));
    const first = await api['chat.send']({ text: 'Hi', memory: true });
    await finished(events, first.runId);
    // Written in Work after the conversation's last message: the backfill gives it, not a change note.
    await w['memory.create']({ path: '/memories/work.md', content: 'WORK-FACT: deadline Friday\n' });
    expect(JSON.stringify(fake.lastMessageRequest().body)).toContain('PERSONAL-FACT');
    const id = first.conversationId;

    const { conversation } = await api['conversations.moveToSpace']({ id, to: work });
    expect(conversation.id).toBe(id);
    expect((await api['conversations.list']({})).conversations).toEqual([]);
    expect((await w['conversations.list']({})).conversations.map((c) => c.id)).toEqual([id]);
    expect(existsSync(path.join(h!.dataDir, 'conversations', `${id}.jsonl`))).toBe(false);
    expect(existsSync(path.join(h!.dataDir, 'spaces', work, 'conversations', `${id}.jsonl`))).toBe(true);
    expect((await refusal(api['conversations.get']({ id }))).code).toBe('not_found');
    const { items } = await w['conversations.get']({ id });
    expect(items.at(-1)).toMatchObject({
      kind: 'event',
      event: 'moved_space',
      text: 'Moved from Personal to Work. From here on the assistant uses the memory of Work.',
    });
    // Sent live too, by the chat's card path, in the space it is now in: the same card a reload shows.
    const until = Date.now() + 5_000;
    const isMoved = (e: RunEvent) => e.type === 'card' && e.card.kind === 'moved_space';
    while (!events.some(isMoved) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    const live = events.find(isMoved);
    expect(live).toMatchObject({ id: items.at(-1)!.id, card: { kind: 'moved_space', to: { id: work } } });
    expect(spaceOf.get(live!)).toBe(work);

    fake.enqueue(
      toolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/after.md', file_text: 'noted' },
      }),
      text('Noted in Work.'),
    );
    const next = await w['chat.send']({ conversationId: id, text: 'What is due?' });
    await finished(events, next.runId);
    const request = fake.messageRequests().at(-2)!.body;
    const sent = JSON.stringify(request.messages);
    // The new space's memory, given once, for this turn (after the move), with a note on why.
    const given = sent.lastIndexOf('WORK-FACT');
    expect(given).toBeGreaterThan(sent.lastIndexOf('Hello from Personal.'));
    expect(sent.indexOf('WORK-FACT')).toBe(given);
    expect(sent.indexOf('moved to another space')).toBeGreaterThan(sent.lastIndexOf('Hello from Personal.'));
    expect(sent).not.toContain('Memory update from the app');
    expect(
      cardsOf(
        events.filter((e) => e.runId === next.runId),
        'backfill',
      ),
    ).toEqual([expect.objectContaining({ files: [expect.objectContaining({ path: '/memories/work.md' })] })]);
    expect(existsSync(path.join(h!.dataDir, 'spaces', work, 'memories', 'after.md'))).toBe(true);
    expect(existsSync(path.join(h!.dataDir, 'memories', 'after.md'))).toBe(false);

    // Only once: the turn after that gets no backfill again.
    fake.enqueue(text('Still Work.'));
    const third = await w['chat.send']({ conversationId: id, text: 'Thanks' });
    await finished(events, third.runId);
    expect(
      cardsOf(
        events.filter((e) => e.runId === third.runId),
        'backfill',
      ),
    ).toEqual([]);
  });

  it('refuses to move a conversation while a reply is being written in it', async () => {
    const { api, events } = await connect();
    const work = (await api['spaces.create']({ name: 'Work' })).space.id;
    const held = gate({ afterEvents: 2, reply: text('A long answer') });
    h!.fake.enqueue(held);
    const run = await api['chat.send']({ text: 'Write a lot', memory: true });
    await held.reached;
    const error = await refusal(api['conversations.moveToSpace']({ id: run.conversationId, to: work }));
    expect(error.code).toBe('unavailable');
    held.release();
    await finished(events, run.runId);
    expect((await api['conversations.list']({})).conversations.map((c) => c.id)).toEqual([
      run.conversationId,
    ]);
    await api['conversations.moveToSpace']({ id: run.conversationId, to: work });
    expect((await api['conversations.list']({})).conversations).toEqual([]);
  });
});
