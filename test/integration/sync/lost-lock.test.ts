// Two CLI processes on one data folder, against the loopback git server: a sync that was held up (here
// stopped with SIGSTOP while it waited for the remote) past the sync lock's stale time has its lock taken
// over by the next sync. When it resumes, it must write nothing more (no ref, no state, no push): it stops
// with a message that says so, and nothing is lost (the other sync sent its change; the next one is up to
// date). The stale time is the lock's own (conversations/lock.ts, STALE_MS): the test waits until the lock
// folder's time is that old, as the taking process sees it, rather than for a fixed time.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAnthropic, startFakeAnthropic } from '../../fixtures/fake-anthropic/index.js';
import {
  DEFAULT_TOKEN,
  DEFAULT_USER,
  startGitServer,
  type GitServer,
} from '../../fixtures/git-server/index.js';
import { CLI, cliEnv, collect, ROOT, runCli, assertCliBuilt } from '../support/cli-process.js';
import { removeAll } from './support.js';

/** conversations/lock.ts's STALE_MS: a lock not refreshed for this long may be taken over. */
const STALE_MS = 10_000;

let fake: FakeAnthropic;
let server: GitServer;
const dirs: string[] = [];

beforeAll(async () => {
  assertCliBuilt();
  fake = await startFakeAnthropic();
  server = await startGitServer();
});
afterAll(async () => {
  await fake?.close();
  await server?.close();
  removeAll(...dirs);
});

async function until(what: string, condition: () => boolean, limitMs = 30_000): Promise<void> {
  for (const end = Date.now() + limitMs; !condition();) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a sync whose lock was taken over', { timeout: 120_000 }, () => {
  it('stops writing when it resumes, says so, and loses nothing', async () => {
    const url = server.createRepo('lost-lock');
    const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-sync-lock-'));
    dirs.push(dir);
    const env = cliEnv(dir, fake.url, { MNEMO_SYNC_TOKEN: DEFAULT_TOKEN, MNEMO_SYNC_USER: DEFAULT_USER });
    const joined = await runCli(['--data-dir', dir, '--sync-remote', url], env);
    expect(joined.code).toBe(0);
    const lockDir = path.join(dir, 'sync', 'personal.lock');
    const gitdir = path.join(dir, 'sync', 'personal.git');

    // A: its change committed locally, then held up waiting for the remote's head, then stopped.
    writeFileSync(path.join(dir, 'memories', 'first.md'), 'first\n');
    const release = server.hold();
    const childA = spawn(process.execPath, [CLI, '--data-dir', dir, '--sync'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const a = collect(childA);
    try {
      await until('A to ask the remote', () => server.held > 0);
    } finally {
      if (server.held === 0) childA.kill();
    }
    childA.kill('SIGSTOP');
    release(); // A's answer waits in its socket; B's requests go through
    try {
      await until('A’s lock to go stale', () => Date.now() - statSync(lockDir).mtimeMs > STALE_MS + 500);
      // B takes the stale lock over and syncs A's change and one of its own.
      writeFileSync(path.join(dir, 'memories', 'second.md'), 'second\n');
      const b = await runCli(['--data-dir', dir, '--sync'], env);
      expect(b.stderr).toBe('');
      expect(b.code).toBe(0);
      expect(b.stdout).toContain('sent: /memories/first.md');
      expect(b.stdout).toContain('sent: /memories/second.md');
    } finally {
      childA.kill('SIGCONT');
    }
    const headAfterB = readFileSync(path.join(gitdir, 'refs', 'heads', 'main'), 'utf8');
    const stateAfterB = readFileSync(path.join(dir, 'sync', 'personal.state.json'), 'utf8');

    const resumed = await a;
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain('Another window took over syncing this space');
    expect(resumed.stderr).not.toMatch(/\bat .+:\d+:\d+|\/tmp\//);
    // A wrote nothing after it resumed: B's ref and state are as B left them, and the remote has B's head.
    expect(readFileSync(path.join(gitdir, 'refs', 'heads', 'main'), 'utf8')).toBe(headAfterB);
    expect(readFileSync(path.join(dir, 'sync', 'personal.state.json'), 'utf8')).toBe(stateAfterB);
    expect(server.git('lost-lock', ['rev-parse', 'main']).trim()).toBe(headAfterB.trim());

    const again = await runCli(['--data-dir', dir, '--sync'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('is up to date');
    const tree = server.git('lost-lock', ['ls-tree', '-r', '--name-only', 'main']);
    expect(tree).toContain('memories/first.md');
    expect(tree).toContain('memories/second.md');
  });
});
