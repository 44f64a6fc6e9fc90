// The data folder as another user could find it: a folder made by an older version, a copy or a restore
// may be 0755, and everything under it (memory, conversations, a token, a plain-text API key) would be
// readable by every account of the machine. Any CLI run makes it owner-only again, and its sync folder
// too, and says so in the log; a folder that is owner-only already is left alone and nothing is logged.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAnthropic, startFakeAnthropic } from '../../fixtures/fake-anthropic/index.js';
import { assertCliBuilt, cliEnv, runCli } from '../support/cli-process.js';

let fake: FakeAnthropic;
const dirs: string[] = [];

beforeAll(async () => {
  assertCliBuilt();
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'mnemo-mode-'));
  dirs.push(d);
  return d;
}

const modeOf = (p: string): number => statSync(p).mode & 0o777;
const logOf = (dataDir: string): string => readFileSync(path.join(dataDir, 'logs', 'mnemo.log'), 'utf8');

describe('the data folder is owner-only after a start', { timeout: 60_000 }, () => {
  it('a 0755 folder and its sync folder become 0700', async () => {
    const home = folder();
    const dataDir = path.join(home, 'Mnemo');
    mkdirSync(path.join(dataDir, 'sync'), { recursive: true });
    chmodSync(dataDir, 0o755);
    chmodSync(path.join(dataDir, 'sync'), 0o775);
    const r = await runCli(['--data-dir', dataDir, '--spaces'], cliEnv(home, fake.url));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'sync'))).toBe(0o700);
    const log = logOf(dataDir);
    expect(log).toContain('data folder made owner-only (0700)');
    expect(log).toContain('"was":"755"');
    expect(log).toContain('"was":"775"');
    // The log names the folders relative to the data folder, never by their host path.
    expect(log).not.toContain(home);
  });

  it('an owner-only folder is left as it is, and nothing is logged', async () => {
    const home = folder();
    const dataDir = path.join(home, 'Mnemo');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o700);
    const r = await runCli(['--data-dir', dataDir, '--spaces'], cliEnv(home, fake.url));
    expect(r.code).toBe(0);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(logOf(dataDir)).not.toContain('made owner-only');
  });
});
