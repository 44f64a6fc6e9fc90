// "Forget permanently" in a synced space, then the remote's history rewritten without the forgotten
// versions (issue 16, point 5), with two real backends against the loopback git server: before, the
// remote's history holds the forgotten text; after, none of its commits does, the old history is a
// backup ref on the forgetting device only, and the other device, which has unsynced changes of its own,
// re-joins the new history by itself (its changes kept and sent, the old history never pushed back). A
// later force-push without a new marker still stops and asks.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, DEFAULT_USER, type GitServer } from '../../fixtures/git-server/index.js';
import { call, type Harness } from '../agent/harness.js';
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

describe('rewriting the remote’s history after a forget', () => {
  it('removes the forgotten versions; the other device re-joins keeping its unsynced changes', async () => {
    const repo = 'forget';
    const url = server.createRepo(repo).replace('http://', `http://${DEFAULT_USER}@`);
    for (const [h, name] of [
      [a, 'Laptop'],
      [b, 'Desktop'],
    ] as const) {
      await h.core.sync.start();
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

    // B changes things and does not sync; A forgets the file and rewrites the remote's history.
    await b.core.ctx.memory.create('/memories/b-only.md', '- Desktop note.\n', USER);
    await edit(b, '/memories/keep.md', '- Tea, one sugar.\n');
    await a.core.handlers['memory.forget']({ path: '/memories/door.md' }, call);
    const rewritten = await a.core.handlers['sync.rewriteHistory']({}, call);
    expect(rewritten.view.status.state).toBe('synced');
    // No backup of the old history: this device's git folder keeps no version of a forgotten file.
    expect(rewritten.backup).toBeNull();
    expect(server.git(repo, ['rev-list', 'main']).trim().split('\n')).toHaveLength(1);
    expect(log()).not.toMatch(/441[78]/);
    expect(server.git(repo, ['log', '-1', '--format=%B', 'main'])).toMatch(/Mnemo-Rewrite: [0-9a-f]{24}/);
    const local = await execFileAsync('git', [
      '--git-dir',
      path.join(a.dataDir, 'sync', 'personal.git'),
      'log',
      '-p',
      '--all',
    ]);
    expect(local.stdout).not.toMatch(/441[78]/);
    expect(local.stdout).toMatch(/Mnemo-Rewrite: [0-9a-f]{24}/);

    // B re-joins on its own: its unsynced changes stay and go; the forget reaches it; no old commit returns.
    const rb = await b.core.handlers['sync.syncNow']({}, call);
    expect(rb.view.status.state).toBe('synced');
    expect(await paths(b)).not.toContain('/memories/door.md');
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
