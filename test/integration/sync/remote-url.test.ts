// A token put in the remote's address, as a user runs the CLI (`--sync-remote`) and as the window joins
// (core.sync.join, behind sync.configure), against the loopback git server. The address is saved in
// remote.json and shown in the window, the terminal and the log, so a token in its query string, its
// fragment, its password or as its user name is refused, with a message that says where the token goes
// and repeats the address without it; nothing is saved, and the clean address then joins as usual.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/create-core.js';
import { SyncError } from '../../../electron/core/sync/report.js';
import { DEFAULT_TOKEN, DEFAULT_USER, type GitServer } from '../../fixtures/git-server/index.js';
import { testHost } from '../agent/harness.js';
import { type CliResult } from '../support/cli-process.js';
import { cliRig } from './cli-rig.js';

const rig = cliRig('sync-url');
let server: GitServer;
beforeAll(() => ({ server } = rig));
const folder = (): string => rig.folder('x');
const runCli = (dataDir: string, args: string[]): Promise<CliResult> => rig.runCli(dataDir, args);

/** Every file under `dir`, read whole: the token must be in none of them. */
function everything(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(path.join(e.parentPath, e.name), 'latin1'))
    .join('\n');
}

const SECRET = 'tok-3f9a1c77e2';
const GITHUB_TOKEN = `ghp_${'Q7x'.repeat(12)}`;

describe('a token in the remote address', { timeout: 120_000 }, () => {
  let n = 0;
  it.each([
    ['its query string', (url: string) => `${url}?access_token=${SECRET}`, (url: string) => url],
    ['its fragment', (url: string) => `${url}#${SECRET}`, (url: string) => url],
    [
      'its password',
      (url: string) => url.replace('http://', `http://${DEFAULT_USER}:${SECRET}@`),
      // The user name is no secret: the address is repeated with it, as it would be saved.
      (url: string) => url.replace('http://', `http://${DEFAULT_USER}@`),
    ],
  ])('in %s: refused through the CLI, nothing saved; the clean address joins', async (_, dirty, shown) => {
    const url = server.createRepo(`url-${++n}`);
    const dir = folder();
    const r = await runCli(dir, ['--sync-remote', dirty(url)]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `Put the token in the token field (or MNEMO_SYNC_TOKEN), not in the address: ${shown(url)}`,
    );
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(existsSync(path.join(dir, 'sync', 'personal.remote.json'))).toBe(false);
    expect(existsSync(path.join(dir, 'sync', 'personal.token'))).toBe(false);
    expect(everything(dir)).not.toContain(SECRET);
    const joined = await runCli(dir, ['--sync-remote', url]);
    expect(joined.stderr).toBe('');
    expect(joined.code).toBe(0);
    expect(readFileSync(path.join(dir, 'sync', 'personal.remote.json'), 'utf8')).toContain(`"url":"${url}"`);
  });

  it('as the user name: refused, and shown without it', async () => {
    const url = server.createRepo(`url-${++n}`);
    const dir = folder();
    const r = await runCli(dir, ['--sync-remote', url.replace('http://', `http://${GITHUB_TOKEN}@`)]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `Put the token in the token field (or MNEMO_SYNC_TOKEN), not in the address: ${url}`,
    );
    expect(everything(dir)).not.toContain(GITHUB_TOKEN);
  });

  it('through the window (join): the same message, as a SyncError the window can show', async () => {
    const url = server.createRepo(`url-${++n}`);
    const dir = folder();
    const core = await createCore({ dataDir: dir, host: testHost, env: {} });
    try {
      const refused = await core.sync
        .join('personal', {
          url: `${url}?private_token=${SECRET}`,
          token: DEFAULT_TOKEN,
          username: DEFAULT_USER,
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(refused).toBeInstanceOf(SyncError);
      expect((refused as SyncError).message).toBe(
        `Put the token in the token field (or MNEMO_SYNC_TOKEN), not in the address: ${url}`,
      );
      expect(existsSync(path.join(dir, 'sync', 'personal.remote.json'))).toBe(false);
    } finally {
      await core.close();
    }
    expect(everything(dir)).not.toContain(SECRET);
  });
});
