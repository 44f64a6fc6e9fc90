// A temporary chat in the terminal (`--no-memory`), as a user runs it: separate `node dist/electron/cli.js`
// processes (built before vitest) against the fake API. The run answers, and afterwards the data folder
// holds no byte of what was said, --spaces does not count it and --continue does not find it. A data folder
// where an earlier version kept one is cleaned at the next run, which says so.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAnthropic, startFakeAnthropic, text } from '../../fixtures/fake-anthropic/index.js';

const root = path.resolve(import.meta.dirname, '../../..');
const cli = path.join(root, 'dist/electron/cli.js');
let fake: FakeAnthropic;
let dataDir: string;

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error('dist/electron/cli.js is missing: run `npm run build:node` first.');
  fake = await startFakeAnthropic();
  dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-cli-temporary-'));
});
afterAll(async () => {
  await fake?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, '--data-dir', dataDir, ...args], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: dataDir,
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: fake.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every file under `dir` whose bytes hold `needle`. */
function filesHolding(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, name);
    if (statSync(file).isFile() && readFileSync(file).includes(needle)) found.push(name);
  }
  return found;
}

describe('a temporary chat in the terminal', () => {
  it('answers, then leaves no byte of itself in the data folder, and is neither counted nor continued', async () => {
    fake.enqueue(text('Kept for good: NORMAL-REPLY'));
    expect((await run(['Remember the NORMAL-WORD'])).code).toBe(0);
    fake.enqueue(text('Between us: TEMP-REPLY-5521'));
    const r = await run(['--no-memory', 'My locker code is TEMP-WORD-8812']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('TEMP-REPLY-5521');

    // A control: the kept conversation is on disk.
    expect(filesHolding(dataDir, 'NORMAL-WORD').length).toBeGreaterThan(0);
    expect(filesHolding(dataDir, 'TEMP-WORD-8812')).toEqual([]);
    expect(filesHolding(dataDir, 'TEMP-REPLY-5521')).toEqual([]);
    const conversations = readdirSync(path.join(dataDir, 'conversations')).filter((n) =>
      n.endsWith('.jsonl'),
    );
    expect(conversations).toHaveLength(1);

    const spaces = await run(['--spaces']);
    expect(spaces.code).toBe(0);
    expect(spaces.stdout).toMatch(/Personal.*\b1 conversation\b/);

    // --continue goes on with the kept conversation: the temporary one is gone.
    fake.enqueue(text('Continued.'));
    expect((await run(['--continue', 'and then?'])).code).toBe(0);
    expect(JSON.stringify(fake.lastMessageRequest().body)).toContain('NORMAL-WORD');
    expect(JSON.stringify(fake.lastMessageRequest().body)).not.toContain('TEMP-WORD-8812');
  });

  it('erases a temporary chat an earlier version kept on disk, and says how many', async () => {
    const id = randomUUID();
    const at = new Date().toISOString();
    const lines = [
      { t: 'meta', v: 1, id, title: '', createdAt: at, memory: false },
      {
        t: 'msg',
        id: randomUUID(),
        kind: 'user',
        role: 'user',
        content: [{ type: 'text', text: 'OLD-TEMP-WORD' }],
        text: 'OLD-TEMP-WORD',
        at,
      },
    ];
    await mkdir(path.join(dataDir, 'conversations'), { recursive: true });
    await writeFile(
      path.join(dataDir, 'conversations', `${id}.jsonl`),
      lines.map((l) => JSON.stringify(l) + '\n').join(''),
    );
    fake.enqueue(text('Fine.'));
    const r = await run(['hello again']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Erased 1 temporary chat an earlier version kept.');
    expect(filesHolding(dataDir, 'OLD-TEMP-WORD')).toEqual([]);
    expect(readFileSync(path.join(dataDir, 'logs', 'mnemo.log'), 'utf8')).toMatch(
      /erased temporary chats an earlier version kept.*"count":1/,
    );
    fake.enqueue(text('Fine.'));
    expect((await run(['once more'])).stderr).not.toContain('Erased');
  });
});
