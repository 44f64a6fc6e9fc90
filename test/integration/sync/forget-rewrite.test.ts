// "Forget permanently" in a synced space rewrites the remote's history without the forgotten versions at
// the forgetting device's next sync, by itself, with two real backends against the
// loopback git server: before, the remote's history holds the forgotten text; after, none of its commits
// does, nor the forgetting device's git folder (no backup of the old history is kept), and the other
// device, which has unsynced changes of its own, re-joins the new history by itself (its changes kept and
// sent, the old history never pushed back), tells its windows what it erased and for which device, and
// logs the path (never the text). A later force-push without a new marker still stops and asks.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, DEFAULT_USER, type GitServer } from '../../fixtures/git-server/index.js';
import type { EventPayload } from '../../../shared/contract.js';
import { call, type Harness } from '../agent/harness.js';
import { until } from '../transports/backend.js';
import { twoBackends } from './support.js';

const execFileAsync = promisify(execFile);
const two = twoBackends();
let server: GitServer;
let a: Harness;
let b: Harness;
beforeAll(() => ({ server, a, b } = two));

const USER = { kind: 'user' } as const;
const read = async (h: Harness, p: string) => (await h.core.ctx.memory.read(p)).content;
const edit = async (h: Harness, p: string, text: string) =>
  h.core.ctx.memory.write(p, text, (await h.core.ctx.memory.read(p)).version, USER);
const paths = async (h: Harness) => (await h.core.ctx.memory.list()).map((e) => e.path);

describe('the remote’s history after a forget', () => {
  it('removes the forgotten versions; the other device re-joins keeping its unsynced changes', async () => {
    const told: EventPayload<'sync.forgotten'>[] = [];
    b.core.bus.subscribe((name, payload) => {
      if (name === 'sync.forgotten') told.push(payload as EventPayload<'sync.forgotten'>);
    });
    const repo = 'forget';
    const url = server.createRepo(repo).replace('http://', `http://${DEFAULT_USER}@`);
    // B's syncs are scheduled only once A's rewrite is on the remote: a background sync of its own (its
    // edits' debounce) could send its changes before that, and leave nothing unsynced to re-join with.
    await a.core.sync.start();
    for (const [h, name] of [
      [a, 'Laptop'],
      [b, 'Desktop'],
    ] as const) {
      expect(
        (await h.core.handlers['sync.configure']({ url, token: DEFAULT_TOKEN, deviceName: name }, call))
          .joined,
      ).toBe(true);
    }
    await a.core.ctx.memory.create('/memories/door.md', '- The door code is 4417.\n', USER);
    await a.core.ctx.memory.create('/memories/keep.md', '- Tea, no sugar.\n', USER);
    await a.core.handlers['sync.syncNow']({}, call);
    await edit(a, '/memories/door.md', '- The door code is 4418.\n');
    await a.core.handlers['sync.syncNow']({}, call);
    await b.core.handlers['sync.syncNow']({}, call);
    expect(await read(b, '/memories/door.md')).toContain('4418');
    const log = () => server.git(repo, ['log', '-p', '--root', 'main']);
    expect(log()).toContain('4417');

    // B changes things and does not sync; A forgets the file, and its next sync rewrites the remote's
    // history (no channel asks for it any more).
    await b.core.ctx.memory.create('/memories/b-only.md', '- Desktop note.\n', USER);
    await edit(b, '/memories/keep.md', '- Tea, one sugar.\n');
    await a.core.handlers['memory.forget']({ path: '/memories/door.md' }, call);
    const rewritten = await a.core.handlers['sync.syncNow']({}, call);
    expect(rewritten.view.status.state).toBe('synced');
    expect(server.git(repo, ['rev-list', 'main']).trim().split('\n')).toHaveLength(1);
    expect(log()).not.toMatch(/441[78]/);
    expect(server.git(repo, ['log', '-1', '--format=%B', 'main'])).toMatch(/Mnemo-Rewrite: [0-9a-f]{24}/);
    const gitDir = path.join(a.dataDir, 'sync', 'personal.git');
    const local = await execFileAsync('git', ['--git-dir', gitDir, 'log', '-p', '--all']);
    expect(local.stdout).not.toMatch(/441[78]/);
    expect(local.stdout).toMatch(/Mnemo-Rewrite: [0-9a-f]{24}/);
    // No backup of the old history: this device's git folder keeps no ref to a forgotten file's versions.
    const refs = await execFileAsync('git', ['--git-dir', gitDir, 'for-each-ref', 'refs/sync/']);
    expect(refs.stdout).toBe('');

    // B re-joins on its own: its unsynced changes stay and go; the forget reaches it; no old commit returns.
    await b.core.sync.start();
    const rb = await b.core.handlers['sync.syncNow']({}, call);
    expect(rb.view.status.state).toBe('synced');
    expect(await paths(b)).not.toContain('/memories/door.md');
    // Its windows are told once, with the device that forgot it; its log names the path, never the text.
    await until(() => told.length > 0);
    expect(told).toEqual([{ forgotten: [{ path: '/memories/door.md', device: 'Laptop' }] }]);
    const bLog = readFileSync(path.join(b.dataDir, 'logs', 'mnemo.log'), 'utf8');
    expect(bLog).toContain('sync: forgotten by another device');
    expect(bLog).toContain('/memories/door.md');
    expect(bLog).not.toMatch(/441[78]/);
    expect(await read(b, '/memories/b-only.md')).toBe('- Desktop note.\n');
    expect(await read(b, '/memories/keep.md')).toBe('- Tea, one sugar.\n');
    expect(server.git(repo, ['rev-list', 'main']).trim().split('\n')).toHaveLength(2);
    expect(log()).not.toMatch(/441[78]/);
    expect(server.git(repo, ['show', 'main:memories/b-only.md'])).toBe('- Desktop note.\n');
    await a.core.handlers['sync.syncNow']({}, call);
    expect(await read(a, '/memories/keep.md')).toBe('- Tea, one sugar.\n');
    expect(await read(a, '/memories/b-only.md')).toBe('- Desktop note.\n');

    // The marker is joined once: a later force-push from elsewhere stops B and asks, as any would.
    server.rewriteHistory(repo);
    await expect(b.core.handlers['sync.syncNow']({}, call)).rejects.toThrow(/history was rewritten/);
  });
});
