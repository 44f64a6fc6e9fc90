// A remote whose history was rewritten elsewhere, through the window's channels (sync.syncNow,
// sync.resolveRewritten) of two real backends against the loopback git server: the sync stops with the
// `rewritten` status and overwrites nothing; "push my copy" keeps the remote's copy as a backup ref on
// this device and puts this copy on the remote; "take the remote's" copies the space aside first, then
// takes what the remote holds. The backup's place is said relative to the data folder, never as a host path,
// also when another sync (the window's focus) queued behind the choice's.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContractError } from '../../../shared/errors.js';
import { DEFAULT_TOKEN, DEFAULT_USER, type GitServer } from '../../fixtures/git-server/index.js';
import { call, type Harness } from '../agent/harness.js';
import { twoBackends } from './support.js';

const two = twoBackends();
let server: GitServer;
let a: Harness;
let b: Harness;
beforeAll(() => ({ server, a, b } = two));

const write = (h: Harness, p: string, text: string) => h.core.ctx.memory.create(p, text, { kind: 'user' });
const read = async (h: Harness, p: string) => (await h.core.ctx.memory.read(p)).content;

describe('a rewritten remote from the window', () => {
  it('stops, then pushes this copy or takes the remote’s, each after a backup it names', async () => {
    const repo = 'rewritten';
    const url = server.createRepo(repo).replace('http://', `http://${DEFAULT_USER}@`);
    for (const [h, name] of [
      [a, 'Laptop'],
      [b, 'Desktop'],
    ] as const) {
      await h.core.sync.start();
      const joined = await h.core.handlers['sync.configure'](
        { url, token: DEFAULT_TOKEN, deviceName: name },
        call,
      );
      expect(joined.joined).toBe(true);
    }
    await write(a, '/memories/one.md', 'one\n');
    await a.core.handlers['sync.syncNow']({}, call);
    await b.core.handlers['sync.syncNow']({}, call);
    expect(await read(b, '/memories/one.md')).toBe('one\n');

    // Elsewhere, the history is replaced by one whose tree is empty.
    server.rewriteHistory(repo, server.git(repo, ['mktree'], '').trim());
    await write(b, '/memories/two.md', 'two\n');
    const stopped = await b.core.handlers['sync.syncNow']({}, call).then(
      () => null,
      (e: unknown) => e,
    );
    expect(stopped).toBeInstanceOf(ContractError);
    expect((stopped as ContractError).details).toMatchObject({ syncError: 'rewritten' });
    expect((await b.core.handlers['sync.status']({}, call)).status).toMatchObject({
      state: 'error',
      kind: 'rewritten',
    });
    expect(await read(b, '/memories/one.md')).toBe('one\n');
    const rewrittenHead = server.git(repo, ['rev-parse', 'main']).trim();

    // The window gets focus while the choice's sync runs: a plain sync queues behind it, and the answer
    // is still the choice's (its backup), not the later sync's.
    const resolving = b.core.handlers['sync.resolveRewritten']({ how: 'push-mine' }, call);
    let settled = false;
    void resolving.finally(() => (settled = true));
    const syncing = async () => (await b.core.handlers['sync.status']({}, call)).status.state === 'syncing';
    while (!settled && !(await syncing())) await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    b.core.sync.focus();
    const mine = await resolving;
    expect(mine.view.status.state).toBe('synced');
    expect(mine.backup).toMatch(/refs\/sync\/backup-\S+ in sync\/personal\.git\/ in the app's data folder/);
    expect(mine.backup).not.toContain(b.dataDir);
    const ref = /(refs\/sync\/backup-\S+)/.exec(mine.backup!)![1]!;
    expect(readFileSync(path.join(b.dataDir, 'sync', 'personal.git', ref), 'utf8').trim()).toBe(
      rewrittenHead,
    );
    expect(server.git(repo, ['ls-tree', '-r', '--name-only', 'main'])).toContain('memories/two.md');
    // A's copy holds the history B's push kept: A merges as usual.
    await a.core.handlers['sync.syncNow']({}, call);
    expect(await read(a, '/memories/two.md')).toBe('two\n');

    // Rewritten again, without the memory files; A has a change of its own and takes the remote's.
    const tree = server.git(
      repo,
      ['mktree'],
      server.git(repo, ['ls-tree', 'main']).replace(/^.*\tmemories\n/m, ''),
    );
    server.rewriteHistory(repo, tree.trim());
    await write(a, '/memories/three.md', 'three\n');
    await expect(a.core.handlers['sync.syncNow']({}, call)).rejects.toThrow(/history was rewritten/);
    const theirs = await a.core.handlers['sync.resolveRewritten']({ how: 'take-theirs' }, call);
    expect(theirs.backup).toMatch(
      /^this space as it was, in sync\/personal\.backups\/\S+\/ in the app's data folder$/,
    );
    expect(theirs.backup).not.toContain(a.dataDir);
    const backups = readdirSync(path.join(a.dataDir, 'sync', 'personal.backups'));
    expect(backups).toHaveLength(1);
    const folder = path.join(a.dataDir, 'sync', 'personal.backups', backups[0]!);
    expect(readFileSync(path.join(folder, 'memories', 'three.md'), 'utf8')).toBe('three\n');
    expect(existsSync(path.join(a.dataDir, 'memories', 'three.md'))).toBe(false);
    expect((await a.core.handlers['sync.status']({}, call)).status.state).toBe('synced');
  });
});
