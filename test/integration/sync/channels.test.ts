// The sync.* channels over the real WebSocket transport: two data folders as two devices, each a real
// backend with its SyncService started (as browser mode starts it), against the loopback git server. A
// call works in the space its envelope names; the token goes in and never comes back out (views, events,
// log files); a wrong token saves nothing; a conflict is listed, detailed and resolved; a disconnect keeps
// the data.
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/create-core.js';
import type { Api, EventMeta, EventPayload } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';
import { spaceBound } from '../../../shared/transport/api-proxy.js';
import {
  DEFAULT_TOKEN,
  DEFAULT_USER,
  startGitServer,
  type GitServer,
} from '../../fixtures/git-server/index.js';
import { testHost, until } from '../transports/backend.js';
import { webSocketTransport, type Client, type Transport } from '../transports/transports.js';
import { removeAll } from './support.js';

interface Window {
  dataDir: string;
  client: Client;
  api: (space: string) => Api;
  close(): Promise<void>;
}

async function open(name: string): Promise<Window> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `mnemo-sync-ui-${name}-`));
  // Every sync below is asked for (syncNow): a write's own debounced sync, which a loaded machine can run
  // before the test's syncNow, would leave that one nothing to send and no conflict to find.
  const core = await createCore({ dataDir, host: testHost, env: {}, syncTiming: { debounceMs: 600_000 } });
  await core.sync.start();
  const transport: Transport = await webSocketTransport({
    core,
    handlers: core.handlers,
    dataDir,
    close: () => core.close(),
  });
  const client = await transport.connect();
  await client.api['app.ready']({});
  return {
    dataDir,
    client,
    api: (space) => spaceBound(client.api, () => space),
    async close() {
      client.drop();
      await transport.close();
      await core.close();
    },
  };
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

/** Every file under dir, as text (the log files, settings, sync's own files). */
function allText(dir: string): string {
  let out = '';
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, entry);
    if (statSync(file).isFile() && !file.includes('.git' + path.sep)) out += readFileSync(file, 'latin1');
  }
  return out;
}

let server: GitServer;
let a: Window;
let b: Window;
beforeAll(async () => {
  server = await startGitServer();
  a = await open('laptop');
  b = await open('desktop');
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await server?.close();
  removeAll(a?.dataDir ?? '', b?.dataDir ?? '');
});

describe('sync channels between two devices', () => {
  it('joins per space, syncs a fact across, resolves a conflict, disconnects keeping the data', async () => {
    const url = server.createRepo('work').replace('http://', `http://${DEFAULT_USER}@`);
    const work = (await a.client.api['spaces.create']({ name: 'Work' })).space.id;
    const aWork = a.api(work);
    const aPersonal = a.api('personal');
    const bPersonal = b.api('personal');
    const events: { payload: EventPayload<'sync.status'>; meta: EventMeta }[] = [];
    a.client.api.on('sync.status', (payload, meta) => events.push({ payload, meta }));

    expect(await aWork['sync.status']({})).toEqual({ remote: null, status: { state: 'off' }, conflicts: 0 });

    // A wrong token: refused with a clear message, nothing saved.
    const wrong = await refusal(
      aWork['sync.configure']({ url, token: 'not-the-token', deviceName: 'Laptop' }),
    );
    expect(wrong.code).toBe('forbidden');
    expect(wrong.message).toMatch(/refused/i);
    expect((await aWork['sync.status']({})).remote).toBeNull();

    const joined = await aWork['sync.configure']({ url, token: DEFAULT_TOKEN, deviceName: 'Laptop' });
    expect(joined).toMatchObject({
      joined: true,
      view: { remote: { username: DEFAULT_USER, device: 'Laptop', hasToken: true } },
    });
    expect(JSON.stringify(joined)).not.toContain(DEFAULT_TOKEN);
    // Only the space the envelope named has a remote.
    expect((await aPersonal['sync.status']({})).remote).toBeNull();
    // The join's own first sync ends before the file below is written, or it could be the one to send it.
    await until(() => events.some((e) => e.meta.space === work && e.payload.status.state === 'synced'));

    await aWork['memory.create']({
      path: '/memories/team.md',
      content: '- standup at 9\n- deploys on Tuesday\n',
    });
    const sent = await aWork['sync.syncNow']({});
    expect(sent.sent).toBeGreaterThan(0);
    expect(sent.view.status.state).toBe('synced');
    await until(() => events.some((e) => e.meta.space === work && e.payload.status.state === 'synced'));
    expect(events.every((e) => e.meta.space === work)).toBe(true);

    // B joins with its Personal space (empty: the remote's space is taken without asking) and has the fact.
    const bJoined = await bPersonal['sync.configure']({ url, token: DEFAULT_TOKEN, deviceName: 'Desktop' });
    expect(bJoined.joined).toBe(true);
    await bPersonal['sync.syncNow']({});
    expect((await bPersonal['memory.read']({ path: '/memories/team.md' })).content).toContain('standup at 9');

    // Both change the same line: B keeps its own file and gets a conflict card's data.
    const aRead = await aWork['memory.read']({ path: '/memories/team.md' });
    await aWork['memory.write']({
      path: '/memories/team.md',
      content: '- standup at 10\n- deploys on Tuesday\n',
      baseVersion: aRead.version,
    });
    await aWork['sync.syncNow']({});
    const bRead = await bPersonal['memory.read']({ path: '/memories/team.md' });
    await bPersonal['memory.write']({
      path: '/memories/team.md',
      content: '- standup at 8:30\n- deploys on Tuesday\n',
      baseVersion: bRead.version,
    });
    const conflicted = await bPersonal['sync.syncNow']({});
    expect(conflicted.conflicts).toBe(1);
    expect(conflicted.view.conflicts).toBe(1);
    const { conflicts } = await bPersonal['sync.conflicts']({});
    expect(conflicts).toEqual([expect.objectContaining({ path: '/memories/team.md', device: 'Laptop' })]);
    const detail = await bPersonal['sync.conflict']({ id: conflicts[0]!.id });
    expect(detail.mine).toContain('standup at 8:30');
    expect(detail.theirs).toContain('standup at 10');
    expect(detail.draft).toContain('standup at 8:30');
    expect(detail.draft).toContain('standup at 10');
    // The memory the model reads has no conflict markers.
    expect((await bPersonal['memory.read']({ path: '/memories/team.md' })).content).not.toContain('<<<<<<<');

    // The draft as it is (with its markers) is never saved into memory.
    const marked = await refusal(bPersonal['sync.resolve']({ id: detail.id, text: detail.draft }));
    expect(marked.code).toBe('invalid_request');
    expect(marked.message).toMatch(/conflict markers/);
    expect((await bPersonal['sync.conflicts']({})).conflicts).toHaveLength(1);
    const edited = '- standup at 9:30 (agreed)\n- deploys on Tuesday\n';
    const resolved = await bPersonal['sync.resolve']({ id: detail.id, text: edited });
    expect(resolved.conflicts).toBe(0);
    expect((await bPersonal['memory.read']({ path: '/memories/team.md' })).content).toBe(edited);
    const gone = await refusal(bPersonal['sync.conflict']({ id: detail.id }));
    expect(gone.code).toBe('not_found');
    await bPersonal['sync.syncNow']({});
    await aWork['sync.syncNow']({});
    expect((await aWork['memory.read']({ path: '/memories/team.md' })).content).toBe(edited);

    // A forgets a file permanently: B's window is told, once, by the sync that erased it there, with
    // the device that forgot it (the event tagged with B's space).
    const told: { payload: EventPayload<'sync.forgotten'>; meta: EventMeta }[] = [];
    b.client.api.on('sync.forgotten', (payload, meta) => told.push({ payload, meta }));
    await aWork['memory.create']({ path: '/memories/alarm.md', content: '- alarm code 7070\n' });
    await aWork['sync.syncNow']({});
    await bPersonal['sync.syncNow']({});
    expect((await bPersonal['memory.read']({ path: '/memories/alarm.md' })).content).toContain('7070');
    await aWork['memory.forget']({ path: '/memories/alarm.md' });
    await aWork['sync.syncNow']({});
    await bPersonal['sync.syncNow']({});
    await until(() => told.length > 0);
    expect(told).toEqual([
      {
        payload: { forgotten: [{ path: '/memories/alarm.md', device: 'Laptop' }] },
        meta: { space: 'personal' },
      },
    ]);
    await bPersonal['sync.syncNow']({});
    expect(told).toHaveLength(1);

    // Disconnect: the remote goes, the memory stays; a sync now says there is no remote.
    const off = await aWork['sync.disconnect']({});
    expect(off).toEqual({ remote: null, status: { state: 'off' }, conflicts: 0 });
    expect((await aWork['memory.read']({ path: '/memories/team.md' })).content).toBe(edited);
    const none = await refusal(aWork['sync.syncNow']({}));
    expect(none.code).toBe('invalid_request');
    expect(none.message).toMatch(/no sync remote/i);

    // No token, the refused one included, was written in plain text outside its own file (logs, settings,
    // state).
    for (const dir of [a.dataDir, b.dataDir]) {
      const text = allText(dir).replaceAll(/"data":"[^"]*"/g, '');
      expect(text).not.toContain(DEFAULT_TOKEN);
      expect(text).not.toContain('not-the-token');
    }
  });

  it('refuses a malformed payload before anything is stored', async () => {
    const api = a.api('personal');
    const error = await refusal(api['sync.configure']({ url: '', deviceName: 'x' } as never));
    expect(error.code).toBe('invalid_request');
    expect((await api['sync.status']({})).remote).toBeNull();
  });
});
