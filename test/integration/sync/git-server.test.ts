// The loopback git server itself: real git clients push and clone through it, wrong credentials get 401,
// and down() refuses connections until up().
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_TOKEN,
  DEFAULT_USER,
  startGitServer,
  type GitServer,
} from '../../fixtures/git-server/index.js';

let server: GitServer;
let tmp: string;
beforeAll(async () => {
  server = await startGitServer();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'mnemo-git-client-'));
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

// Asynchronous: the server answers from this process's event loop.
const git = (cwd: string, args: string[]): Promise<{ status: number; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      'git',
      ['-c', 'user.name=T', '-c', 'user.email=t@example.invalid', '-c', 'credential.helper=', ...args],
      { cwd, encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0', HOME: tmp } },
      (error, _stdout, stderr) => resolve({ status: error ? 1 : 0, stderr }),
    );
  });

const withAuth = (url: string, user: string, token: string) =>
  url.replace('http://', `http://${user}:${token}@`);

describe('git server fixture', () => {
  it('serves push and clone over HTTP with basic auth', async () => {
    const url = server.createRepo('one');
    const work = path.join(tmp, 'work');
    expect((await git(tmp, ['init', '-q', '-b', 'main', work])).status).toBe(0);
    writeFileSync(path.join(work, 'a.md'), 'hello\n');
    await git(work, ['add', '.']);
    expect((await git(work, ['commit', '-qm', 'first'])).status).toBe(0);
    const push = await git(work, ['push', '-q', withAuth(url, DEFAULT_USER, DEFAULT_TOKEN), 'main']);
    expect(push.stderr).toBe('');
    expect(push.status).toBe(0);
    const clone = path.join(tmp, 'clone');
    expect((await git(tmp, ['clone', '-q', withAuth(url, DEFAULT_USER, DEFAULT_TOKEN), clone])).status).toBe(
      0,
    );
    expect(readFileSync(path.join(clone, 'a.md'), 'utf8')).toBe('hello\n');
  });

  it('answers wrong credentials with 401 and changes nothing', async () => {
    const url = server.createRepo('two');
    const r = await git(tmp, ['ls-remote', withAuth(url, DEFAULT_USER, 'wrong')]);
    expect(r.status).not.toBe(0);
    expect(server.requests.at(-1)?.status).toBe(401);
  });

  it('refuses connections while down, and serves again once up on the same port', async () => {
    const url = server.createRepo('three');
    const port = server.port;
    await server.down();
    expect((await git(tmp, ['ls-remote', withAuth(url, DEFAULT_USER, DEFAULT_TOKEN)])).status).not.toBe(0);
    await server.up();
    expect(server.port).toBe(port);
    expect((await git(tmp, ['ls-remote', withAuth(url, DEFAULT_USER, DEFAULT_TOKEN)])).status).toBe(0);
  });

  it('rewrites a repository history as a force-push from elsewhere would', () => {
    const before = server.git('one', ['rev-parse', 'main']).trim();
    const after = server.rewriteHistory('one');
    expect(after).not.toBe(before);
    expect(server.git('one', ['rev-list', '--count', 'main']).trim()).toBe('1');
    expect(server.git('one', ['rev-parse', 'main^{tree}']).trim()).toBe(
      server.git('one', ['rev-parse', `${before}^{tree}`]).trim(),
    );
  });
});
