// Issue 11, item 1: a data folder whose api-key this face cannot read (saved by the desktop app with
// safeStorage, or damaged) used to hang `npm run chat` and `npm run web` for ever at 100% CPU (the logger
// read the key to mask it, the failed read logged a warning, which read the key again...). Each face runs
// as a real child process with a timeout, so a hang fails the test instead of hanging it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { UNREADABLE_KEYCHAIN } from '../../../electron/core/key-vault.js';
import { createWsTransport, type WebSocketLike } from '../../../shared/transport/ws-client.js';
import { startFakeAnthropic, type FakeAnthropic } from '../../fixtures/fake-anthropic/index.js';
import { entry, READY_URL, run, start, tempDir } from './processes.js';

const FACE_TIMEOUT_MS = 20_000;
let fake: FakeAnthropic;

beforeAll(async () => {
  fake = await startFakeAnthropic();
});
afterAll(() => fake.close());

const SAFE_STORAGE_FILE = JSON.stringify({
  v: 1,
  scheme: 'safeStorage',
  data: Buffer.from('v10-encrypted-by-the-keychain').toString('base64'),
});

function dataDirWith(keyFile: string): string {
  const dataDir = path.join(tempDir(), 'data');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(dataDir, 'api-key'), keyFile, { mode: 0o600 });
  return dataDir;
}

const keyLines = (dataDir: string): string[] =>
  readFileSync(path.join(dataDir, 'logs', 'mnemo.log'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('API key not loaded'));

describe('a stored key this face cannot read', () => {
  it('npm run chat: exits 3 at once with what to do, and logs it once', async () => {
    const dataDir = dataDirWith(SAFE_STORAGE_FILE);
    const result = await run(
      entry('cli'),
      ['--data-dir', dataDir, 'hello'],
      { ANTHROPIC_BASE_URL: fake.url },
      FACE_TIMEOUT_MS,
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(UNREADABLE_KEYCHAIN);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(keyLines(dataDir)).toHaveLength(1);
    expect(fake.requests).toHaveLength(0);
  });

  it('npm run chat with a corrupt api-key: exit 3, exactly one log line', async () => {
    const dataDir = dataDirWith('{"v":1,"scheme":"plain","da');
    const result = await run(
      entry('cli'),
      ['--data-dir', dataDir, 'hello'],
      { ANTHROPIC_BASE_URL: fake.url },
      FACE_TIMEOUT_MS,
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('enter the key again');
    expect(keyLines(dataDir)).toHaveLength(1);
  });

  it('npm run web: starts, says why, and the status channel carries the problem to the page', async () => {
    const dataDir = dataDirWith(SAFE_STORAGE_FILE);
    const web = await start(
      entry('web-main'),
      ['--data-dir', dataDir],
      { ANTHROPIC_BASE_URL: fake.url },
      READY_URL,
      FACE_TIMEOUT_MS,
    );
    try {
      const url = new URL(web.match[1]!);
      const transport = createWsTransport({
        url: `ws://${url.host}/ws?token=${encodeURIComponent(url.searchParams.get('token') ?? '')}`,
        createSocket: (u) => new WebSocket(u, { origin: url.origin }) as unknown as WebSocketLike,
      });
      try {
        await transport.api['app.ready']({});
        const view = await transport.api['settings.get']({});
        expect(view.apiKey).toEqual({
          hasApiKey: false,
          source: 'none',
          insecureStorage: true,
          problem: UNREADABLE_KEYCHAIN,
        });
      } finally {
        transport.close();
      }
      await expect.poll(() => web.output(), { timeout: FACE_TIMEOUT_MS }).toContain(UNREADABLE_KEYCHAIN);
    } finally {
      // A hung process ignores SIGTERM; the stop must come back with the normal exit code.
      expect(await web.stop()).toBe(0);
    }
    expect(keyLines(dataDir)).toHaveLength(1);
  });
});
