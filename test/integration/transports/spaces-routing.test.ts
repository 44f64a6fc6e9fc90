// Spaces over the three real transports: a call runs in the space its envelope names, and nowhere else.
// Every channel that is not space-free is refused for a space that does not exist (before its payload is
// looked at, so no handler can run and forget the space); memory and conversations written through one
// space's client stay in that space's folder; events arrive tagged with the space they happened in.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invokeNames, isSpaceFree, type Api, type EventMeta } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import { spaceBound } from '../../../shared/transport/api-proxy.js';
import { newConversation } from '../agent/harness.js';
import { startBackend, until, type TestBackend } from './backend.js';
import { transports, type Client, type Transport } from './transports.js';

async function refusal(promise: Promise<unknown>): Promise<ContractError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ContractError);
    return error as ContractError;
  }
  throw new Error('expected the call to be refused');
}

const spaced = invokeNames.filter((name) => !isSpaceFree(name) && name !== 'app.ready');

describe.each(transports)('spaces over the %s', (_name, factory) => {
  let backend: TestBackend;
  let transport: Transport;
  let client: Client;
  let work: string;
  let home: string;
  const inSpace = (id: unknown): Api => spaceBound(client.api, () => id as string);

  beforeAll(async () => {
    backend = await startBackend();
    transport = await factory(backend);
    client = await transport.connect();
    await client.api['app.ready']({});
    work = (await client.api['spaces.create']({ name: 'Work' })).space.id;
    home = (await client.api['spaces.create']({ name: 'Home', colour: '#16a34a' })).space.id;
  });
  afterAll(async () => {
    client?.drop();
    await transport?.close();
    await backend?.close();
  });

  it('refuses every memory, conversation, chat, context and settings channel in a space that does not exist', async () => {
    expect(spaced.length).toBeGreaterThan(30);
    const api = inSpace('abcdef012345');
    for (const channel of spaced) {
      const error = await refusal((api[channel] as (req: unknown) => Promise<unknown>)({}));
      expect({ channel, code: error.code }).toEqual({ channel, code: 'not_found' });
      expect(error.message).toMatch(/space/i);
    }
  });

  it.each([['../personal'], ['PERSONAL'], [''], [42], [null], [{ id: 'personal' }]])(
    'refuses a malformed space %j without running anything',
    async (space) => {
      const error = await refusal(inSpace(space)['memory.create']({ path: '/memories/x.md', content: 'x' }));
      expect(error.code).toBe('invalid_request');
      expect(existsSync(path.join(backend.dataDir, 'memories', 'x.md'))).toBe(false);
    },
  );

  it('keeps each space’s memory and conversations in its own folder', async () => {
    await inSpace(work)['memory.create']({ path: '/memories/client.md', content: '- NDA project' });
    await inSpace(home)['memory.create']({ path: '/memories/garden.md', content: '- tomatoes' });
    await client.api['memory.create']({ path: '/memories/personal.md', content: '- mine' });
    const listed = async (id: string) =>
      (await inSpace(id)['memory.list']({})).entries.filter((e) => e.kind === 'file').map((e) => e.path);
    expect(await listed(work)).toEqual(['/memories/client.md']);
    expect(await listed(home)).toEqual(['/memories/garden.md']);
    expect(await listed('personal')).toEqual(['/memories/personal.md']);
    expect(existsSync(path.join(backend.dataDir, 'spaces', work, 'memories', 'client.md'))).toBe(true);
    expect(existsSync(path.join(backend.dataDir, 'memories', 'client.md'))).toBe(false);
    await refusal(inSpace(home)['memory.read']({ path: '/memories/client.md' }));
    expect((await inSpace(home)['memory.search']({ query: 'NDA' })).hits).toEqual([]);

    // Made by the space's store (no channel makes an empty conversation); listed through the transport.
    const conversation = await newConversation((await backend.core.spaces.open(work)).ctx, {
      title: 'Client call',
    });
    expect((await inSpace(work)['conversations.list']({})).conversations.map((c) => c.id)).toEqual([
      conversation.id,
    ]);
    expect((await inSpace(home)['conversations.list']({})).conversations).toEqual([]);
    expect((await client.api['conversations.list']({})).conversations).toEqual([]);
    expect((await refusal(inSpace(home)['conversations.get']({ id: conversation.id }))).code).toBe(
      'not_found',
    );

    const listing = (await client.api['spaces.list']({})).spaces;
    expect(listing.map((s) => [s.name, s.conversations, s.memoryFiles])).toEqual([
      ['Personal', 0, 1],
      ['Work', 1, 1],
      ['Home', 0, 1],
    ]);
  });

  it('tags every event with the space it happened in; the space-free ones go untagged', async () => {
    const seen: { path: string; meta: EventMeta }[] = [];
    const lists: EventMeta[] = [];
    const offMemory = client.api.on('memory.changed', (change, meta) =>
      seen.push({ path: change.path, meta }),
    );
    const offSpaces = client.api.on('spaces.changed', (_list, meta) => lists.push(meta));
    await inSpace(home)['memory.create']({ path: '/memories/events.md', content: 'x' });
    await client.api['memory.create']({ path: '/memories/events.md', content: 'y' });
    await inSpace(work)['spaces.recolour']({ id: work, colour: '#dc2626' });
    await until(() => seen.length >= 2 && lists.length >= 1, 'the events');
    offMemory();
    offSpaces();
    expect(seen).toEqual([
      { path: '/memories/events.md', meta: { space: home } },
      { path: '/memories/events.md', meta: { space: 'personal' } },
    ]);
    expect(lists).toEqual([{}]);
  });

  it('keeps a space’s own write mode to that space', async () => {
    await inSpace(work)['settings.set']({ patch: { memoryWriteMode: 'read-only', maxTurns: 9 } });
    expect((await inSpace(work)['settings.get']({})).settings).toMatchObject({
      memoryWriteMode: 'read-only',
      maxTurns: 9,
    });
    // The model's other settings are global; the write mode is not.
    expect((await inSpace(home)['settings.get']({})).settings).toMatchObject({
      memoryWriteMode: 'automatic',
      maxTurns: 9,
    });
    expect((await client.api['settings.get']({})).settings.memoryWriteMode).toBe('automatic');
    const listed = (await client.api['spaces.list']({})).spaces.find((s) => s.id === work);
    expect(listed?.settings).toEqual({ memoryWriteMode: 'read-only' });

    // Personal writes the global value, as before spaces; once it has its own, that one.
    await client.api['settings.set']({ patch: { backfillBudgetTokens: 1234 } });
    expect((await inSpace(home)['settings.get']({})).settings.backfillBudgetTokens).toBe(1234);
    await client.api['spaces.configure']({ id: 'personal', patch: { memoryWriteMode: 'ask' } });
    await client.api['settings.set']({ patch: { memoryWriteMode: 'read-only' } });
    expect((await client.api['settings.get']({})).settings.memoryWriteMode).toBe('read-only');
    expect((await inSpace(home)['settings.get']({})).settings.memoryWriteMode).toBe('automatic');
    // A reset in a space clears its own values too.
    await inSpace(work)['settings.reset']({});
    expect((await inSpace(work)['settings.get']({})).settings).toMatchObject({
      memoryWriteMode: 'automatic',
      maxTurns: expect.any(Number),
    });
    expect((await client.api['spaces.list']({})).spaces.find((s) => s.id === work)?.settings).toEqual({});
    await client.api['spaces.configure']({ id: 'personal', patch: { memoryWriteMode: null } });
  });

  it('refuses a deleted space, lists it in the trash, and answers it again once restored', async () => {
    const gone = (await client.api['spaces.create']({ name: 'Short-lived' })).space.id;
    await inSpace(gone)['memory.create']({ path: '/memories/note.md', content: 'kept' });
    // Asked in the space itself: the space-free channels answer even there.
    const { trashed } = await inSpace(gone)['spaces.delete']({ id: gone });
    expect(trashed).toMatchObject({ id: gone, name: 'Short-lived' });
    expect(trashed).not.toHaveProperty('folder');
    const error = await refusal(inSpace(gone)['memory.list']({}));
    expect(error.code).toBe('not_found');
    // Which space is gone, so the window can leave it (renderer/store/spaces.ts).
    expect(error.details).toEqual({ spaceGone: gone });
    expect(error.message).toMatch(/space/);
    expect(error.message).not.toMatch(/\/tmp\//);
    await refusal(inSpace(gone)['memory.create']({ path: '/memories/after.md', content: 'no' }));
    expect((await inSpace(gone)['spaces.trashed']({})).spaces.map((s) => s.id)).toContain(gone);
    await inSpace(gone)['spaces.restore']({ id: gone });
    expect((await inSpace(gone)['memory.read']({ path: '/memories/note.md' })).content).toBe('kept');
    expect((await inSpace(gone)['memory.list']({})).entries.map((e) => e.path)).not.toContain(
      '/memories/after.md',
    );
  });
});
