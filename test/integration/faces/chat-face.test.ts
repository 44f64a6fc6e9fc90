// `npm run chat`: a clear exit 3 without a key; ANTHROPIC_API_KEY wins over a stored key; the data dir
// from --data-dir or MNEMO_DATA_DIR; and after a run that wrote memory, the log file in the data dir holds
// neither the key nor the memory's contents.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFileKeyVault } from '../../../electron/core/key-vault.js';
import {
  startFakeAnthropic,
  text,
  toolUse,
  type FakeAnthropic,
} from '../../fixtures/fake-anthropic/index.js';
import { entry, run, tempDir } from './processes.js';

const ENV_KEY = 'sk-ant-api03-FROM-ENV-0123456789abcdef';
const STORED_KEY = 'sk-ant-api03-STORED-fedcba9876543210';
let fake: FakeAnthropic;

beforeAll(async () => {
  fake = await startFakeAnthropic({ apiKeys: [ENV_KEY, STORED_KEY] });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const keyOf = (headers: Record<string, string>): string | undefined =>
  headers['x-api-key'] ?? headers.authorization?.replace(/^Bearer\s+/i, '');

describe('npm run chat', () => {
  it('without any key: exit code 3 and what to set, no stack trace, no request', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const result = await run(entry('cli'), ['--data-dir', dataDir, 'hello'], {
      ANTHROPIC_BASE_URL: fake.url,
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('ANTHROPIC_API_KEY');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).not.toContain('Final answer:');
    expect(fake.requests).toHaveLength(0);
  });

  it('uses a stored key, and ANTHROPIC_API_KEY wins over it', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const stored = await run(entry('cli'), ['--data-dir', dataDir, 'warm up'], {
      ANTHROPIC_BASE_URL: fake.url,
    });
    expect(stored.code).toBe(3);
    createFileKeyVault({ dataDir }).write(STORED_KEY);

    fake.enqueue(text('Answered with the stored key.'));
    const withStored = await run(entry('cli'), ['--data-dir', dataDir, 'hi'], {
      ANTHROPIC_BASE_URL: fake.url,
    });
    expect(withStored.stdout).toContain('Final answer:');
    expect(withStored.stdout).toContain('Answered with the stored key.');
    expect(withStored.code).toBe(0);
    expect(keyOf(fake.messageRequests().at(-1)!.headers)).toBe(STORED_KEY);

    fake.enqueue(text('Answered with the env key.'));
    const withEnv = await run(entry('cli'), ['--data-dir', dataDir, 'hi again'], {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: ENV_KEY,
    });
    expect(withEnv.stdout).toContain('Answered with the env key.');
    expect(keyOf(fake.messageRequests().at(-1)!.headers)).toBe(ENV_KEY);
  });

  it('honours MNEMO_DATA_DIR, and --data-dir wins over it', async () => {
    const root = tempDir();
    const fromEnv = path.join(root, 'env-data');
    const fromFlag = path.join(root, 'flag-data');
    const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: ENV_KEY, MNEMO_DATA_DIR: fromEnv };
    fake.enqueue(text('one'), text('two'));
    expect((await run(entry('cli'), ['first'], env)).code).toBe(0);
    expect(existsSync(path.join(fromEnv, 'logs', 'mnemo.log'))).toBe(true);
    const conversationsBefore = readdirSync(fromEnv);
    expect((await run(entry('cli'), ['--data-dir', fromFlag, 'second'], env)).code).toBe(0);
    expect(existsSync(path.join(fromFlag, 'logs', 'mnemo.log'))).toBe(true);
    expect(readdirSync(fromEnv)).toEqual(conversationsBefore);
  });

  it('leaves a log in DATA_DIR/logs without the key or the memory written in the run', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const fact = 'The user is allergic to PEANUTS-7731 and hates cilantro.';
    fake.enqueue(
      toolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/preferences.md', file_text: `- ${fact}\n` },
      }),
      text('Noted: I will remember that.'),
    );
    const result = await run(entry('cli'), ['--data-dir', dataDir, `Remember this: ${fact}`], {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: ENV_KEY,
      MNEMO_DEBUG: '1',
    });
    expect(result.code).toBe(0);
    // The run really wrote the memory: so its absence from the log is meaningful.
    expect(readFileSync(path.join(dataDir, 'memories', 'preferences.md'), 'utf8')).toContain('PEANUTS-7731');
    const logs = readdirSync(path.join(dataDir, 'logs'));
    expect(logs).toContain('mnemo.log');
    const log = logs.map((f) => readFileSync(path.join(dataDir, 'logs', f), 'utf8')).join('\n');
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(ENV_KEY);
    expect(log).not.toContain('sk-ant-api03');
    expect(log).not.toContain('PEANUTS-7731');
    expect(log).not.toContain('cilantro');
    // With MNEMO_DEBUG the same redacted lines are echoed on stderr.
    expect(result.stderr).not.toContain(ENV_KEY);
    expect(result.stderr).not.toContain('PEANUTS-7731');
  });
});
