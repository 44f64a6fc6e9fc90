// SIGKILL in the middle of a sync, at many points: the next sync completes, and nothing is lost or
// duplicated (every file arrives once with its content, a conversation both devices changed is kept
// twice and never three times, the remote's history stays a valid one).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAnthropic, startFakeAnthropic, text } from '../../fixtures/fake-anthropic/index.js';
import {
  DEFAULT_TOKEN,
  DEFAULT_USER,
  startGitServer,
  type GitServer,
} from '../../fixtures/git-server/index.js';
import { removeAll } from './support.js';

const root = path.resolve(import.meta.dirname, '../../..');
const cli = path.join(root, 'dist/electron/cli.js');
let fake: FakeAnthropic;
let server: GitServer;
const dirs: string[] = [];

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error('dist/electron/cli.js is missing: run `npm run build:node` first.');
  fake = await startFakeAnthropic();
  fake.setDefault(text('Noted.'));
  server = await startGitServer();
});
afterAll(async () => {
  await fake?.close();
  await server?.close();
  removeAll(...dirs);
});

function start(dataDir: string, args: string[], device: string) {
  const child = spawn(process.execPath, [cli, '--data-dir', dataDir, ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: dataDir,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
      MNEMO_SYNC_TOKEN: DEFAULT_TOKEN,
      MNEMO_SYNC_USER: DEFAULT_USER,
      MNEMO_SYNC_DEVICE: device,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

const run = (dataDir: string, args: string[], device: string) => start(dataDir, args, device).done;

const FILES = 150;

function files(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, rel: string): void => {
    for (const name of readdirSync(d, { withFileTypes: true })) {
      if (name.isDirectory()) walk(path.join(d, name.name), `${rel}${name.name}/`);
      else out.set(`${rel}${name.name}`, readFileSync(path.join(d, name.name), 'utf8'));
    }
  };
  walk(path.join(dir, 'memories'), '');
  return out;
}

const conversations = (dir: string) =>
  readdirSync(path.join(dir, 'conversations')).filter((n) => n.endsWith('.jsonl'));

describe('SIGKILL mid-sync', { timeout: 180_000 }, () => {
  it('the next sync completes; nothing lost, nothing duplicated', async () => {
    const url = server.createRepo('kill');
    const a = mkdtempSync(path.join(tmpdir(), 'mnemo-sync-kill-a-'));
    const b = mkdtempSync(path.join(tmpdir(), 'mnemo-sync-kill-b-'));
    dirs.push(a, b);
    expect((await run(a, ['--sync-remote', url], 'laptop')).code).toBe(0);
    expect((await run(b, ['--sync-remote', url], 'desktop')).code).toBe(0);
    // One conversation both devices continue, so the sync must keep it twice.
    expect((await run(a, ['Hello from the laptop'], 'laptop')).code).toBe(0);
    expect((await run(b, ['--sync'], 'desktop')).code).toBe(0);
    expect((await run(a, ['--continue', 'More from the laptop'], 'laptop')).code).toBe(0);
    mkdirSync(path.join(a, 'memories', 'notes'), { recursive: true });
    for (let i = 0; i < FILES; i++)
      writeFileSync(path.join(a, 'memories', 'notes', `n${i}.md`), `- fact ${i}\n`);
    expect((await run(a, ['--sync'], 'laptop')).code).toBe(0);
    // B continues the same conversation offline (its chat's syncs fail and the run goes on).
    await server.down();
    expect((await run(b, ['--continue', 'More from the desktop'], 'desktop')).code).toBe(0);
    await server.up();

    let killed = 0;
    for (const delay of [250, 500, 750, 1000, 1250, 1500, 1800, 2200]) {
      const { child, done } = start(b, ['--sync'], 'desktop');
      const timer = setTimeout(() => {
        if (child.exitCode === null) {
          child.kill('SIGKILL');
          killed++;
        }
      }, delay);
      await done;
      clearTimeout(timer);
    }
    expect(killed).toBeGreaterThan(0);
    const last = await run(b, ['--sync'], 'desktop');
    expect(last.stderr).toBe('');
    expect(last.code).toBe(0);
    expect((await run(a, ['--sync'], 'laptop')).code).toBe(0);
    expect((await run(b, ['--sync'], 'desktop')).stdout).toContain('is up to date');

    const fa = files(a);
    const fb = files(b);
    expect(fb.size).toBe(FILES);
    expect(fb).toEqual(fa);
    // The conversation both changed: the original and one copy, on both devices.
    expect(conversations(b).length).toBe(2);
    expect(conversations(a).sort()).toEqual(conversations(b).sort());
    server.git('kill', ['fsck', '--no-dangling']);
  });
});
