// The CLI as a user runs it: separate `node dist/electron/cli.js` processes (built by `npm test` before
// vitest; this file never builds, so it cannot race another test file reading dist/) against
// the fake API started here. Acceptance (issue 4 point 6): process 1 saves a preference with a memory tool
// call; process 2 starts with that preference backfilled as data, both memory tools offered.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/create-core.js';
import { testHost } from '../agent/harness.js';
import {
  assertCliBuilt,
  CLI as cli,
  cliEnv,
  type CliResult,
  ROOT as root,
  runCli,
} from '../support/cli-process.js';
import {
  type FakeAnthropic,
  startFakeAnthropic,
  text,
  toolUse,
} from '../../fixtures/fake-anthropic/index.js';

let fake: FakeAnthropic;
let dataDir: string;

/** Sources (under the folders the CLI runs) newer than their compiled file: possibly old code under test. */
function staleSources(): string[] {
  const stale: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (/\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        const out = path.join(root, 'dist', rel.replace(/\.ts$/, '.js'));
        if (!existsSync(out) || statSync(out).mtimeMs < statSync(path.join(root, rel)).mtimeMs)
          stale.push(rel);
      }
    }
  };
  for (const dir of ['electron/core', 'shared', 'memory']) walk(dir);
  return stale;
}

beforeAll(async () => {
  assertCliBuilt();
  // A warning only: tsc -b leaves an output alone when a source was touched without a change to it.
  const stale = staleSources();
  if (stale.length > 0) {
    process.stderr.write(
      `Warning: dist/ may be older than ${stale.slice(0, 3).join(', ')}${stale.length > 3 ? ' …' : ''}; ` +
        'run `npm run build:node` to test the current sources.\n',
    );
  }
  fake = await startFakeAnthropic();
  dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-cli-'));
});

afterAll(async () => {
  await fake?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return runCli(args, cliEnv(dataDir, fake.url, env));
}

const PREFERENCE = "- Doesn't like spicy food: never recommend spicy restaurants.\n";

describe('the CLI, two processes, one memory', () => {
  it('process 1 saves the preference with a memory tool call', async () => {
    fake.reset();
    fake.enqueue(
      toolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/preferences.md', file_text: PREFERENCE },
      }),
      text('Got it: no spicy restaurants from now on.'),
    );
    const r = await run([
      '--data-dir',
      dataDir,
      "Remember this: I don't like spicy food, so don't recommend spicy restaurants from now on",
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      '[turn 1] called memory {"command":"create","path":"/memories/preferences.md"}',
    );
    expect(r.stdout).toMatch(/Final answer:\nGot it: no spicy restaurants from now on\.\n$/);
    expect(await readFile(path.join(dataDir, 'memories', 'preferences.md'), 'utf8')).toBe(PREFERENCE);
  });

  it('process 2 starts with the preference backfilled as data and both memory tools offered', async () => {
    fake.reset();
    fake.enqueue(text('Try the Lebanese grill on Main Street: mild and excellent.'));
    const r = await run(['--data-dir', dataDir, "Any good restaurants nearby you'd recommend?"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^\[memory backfill\] 1 of 1 files, about \d+ tokens: \/memories\/preferences\.md$/m,
    );
    expect(r.stdout).toContain('Final answer:\nTry the Lebanese grill on Main Street: mild and excellent.');
    const first = fake.messageRequests()[0]!.body;
    expect(first.tools.map((t: { name: string }) => t.name)).toEqual([
      'memory',
      'memory_search',
      'conversation_search',
      'recent_conversations',
    ]);
    expect(JSON.stringify(first.system)).not.toContain('spicy');
    const results = first.messages.flatMap((m: { content: { type: string }[] }) =>
      m.content.filter((b) => b.type === 'tool_result'),
    );
    expect(JSON.stringify(results)).toContain("Doesn't like spicy food");
    // Each invocation is a fresh conversation: process 1's words are not in this history.
    expect(JSON.stringify(first.messages)).not.toContain('Remember this');
  });

  it('--continue resumes the most recent conversation', async () => {
    fake.reset();
    fake.enqueue(text('The grill is on Main Street.'));
    const r = await run(['--data-dir', dataDir, '--continue', 'Where was it again?']);
    expect(r.code).toBe(0);
    const body = fake.messageRequests()[0]!.body;
    expect(JSON.stringify(body.messages)).toContain('Lebanese grill');
  });

  it('prints [compaction] when the local strategy summarizes older turns', async () => {
    fake.reset();
    fake.rule((r) =>
      typeof r.body.system === 'string' && r.body.system.includes('You summarize')
        ? text('A short summary.')
        : undefined,
    );
    fake.enqueue(text('Summarized and answered.'));
    const long = `One more question, with context: ${'details '.repeat(800)}`;
    const r = await run([
      '--data-dir',
      dataDir,
      '--continue',
      '--context',
      'local',
      '--compact-at',
      '1000',
      long,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\[compaction\] \d+ messages summarized \(local\)/m);
    const sent = fake.messageRequests().at(-1)!.body;
    expect(sent.messages[0].content[0].text).toContain('A short summary.');
  });

  it('--no-memory: no backfill, no memory tools', async () => {
    fake.reset();
    fake.enqueue(text('Hi!'));
    const r = await run(['--data-dir', dataDir, '--no-memory', 'hello']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('[memory backfill]');
    expect(fake.messageRequests()[0]!.body.tools).toBeUndefined();
  });

  it('passes --context, --compact-at, --keep-tool-results, --max-turns and --model to the loop', async () => {
    fake.reset();
    fake.setDefault(() => toolUse({ name: 'memory', input: { command: 'view', path: '/memories' } }));
    const r = await run([
      '--data-dir',
      dataDir,
      '--context',
      'native',
      '--compact-at',
      '60000',
      '--keep-tool-results',
      '5',
      '--max-turns',
      '2',
      '--model',
      'claude-haiku-5-5',
      'look twice',
    ]);
    expect(r.stdout).toContain('[turn 2] called memory {"command":"view","path":"/memories"}');
    expect(r.stdout).toContain('[turn limit] stopped after 2 turns');
    const edits = fake.messageRequests()[0]!.body.context_management.edits;
    expect(edits[0].keep).toEqual({ type: 'tool_uses', value: 5 });
    expect(edits[1].trigger).toEqual({ type: 'input_tokens', value: 60_000 });
    expect(fake.messageRequests().map((r) => r.body.model)).toEqual(['claude-haiku-5-5', 'claude-haiku-5-5']);
  });

  it('prints [tool results cleared] when the API clears old tool results; --context off sends no edits', async () => {
    const clearDir = await mkdtemp(path.join(tmpdir(), 'mnemo-cli-clear-'));
    const core = await createCore({ dataDir: clearDir, host: testHost, env: { HOME: clearDir } });
    core.ctx.settings.set({ clearTrigger: 1_000 });
    const lines = Array.from({ length: 300 }, (_, i) => `apple ${i}: ${'crisp and sweet '.repeat(3)}`);
    await core.ctx.memory.create('/memories/fruit.md', `${lines.join('\n')}\n`, { kind: 'user' });
    await core.close();
    const search = () => toolUse({ name: 'memory_search', input: { query: 'apple', limit: 200 } });
    fake.reset();
    fake.enqueue(search(), search(), search(), text('Lots of apples.'));
    const r = await run(['--data-dir', clearDir, '--keep-tool-results', '1', 'Find apples three times']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\[tool results cleared\] \d+ tool results, about \d+ tokens \(native\)/m);

    fake.reset();
    fake.enqueue(search(), text('Apples again.'));
    const off = await run(['--data-dir', clearDir, '--context', 'off', 'Find apples once']);
    expect(off.code).toBe(0);
    expect(off.stdout).not.toContain('[tool results cleared]');
    for (const request of fake.messageRequests()) {
      expect(request.body.context_management).toBeUndefined();
      expect(request.betas.join(',')).not.toMatch(/context-management|compact/);
    }
    expect(fake.messageRequests()).toHaveLength(2);
    await rm(clearDir, { recursive: true, force: true });
  });

  it('"ask me" without a terminal refuses the write with a clear tool error', async () => {
    const askDir = await mkdtemp(path.join(tmpdir(), 'mnemo-cli-ask-'));
    // The setting is stored in the data dir by the app; set it the same way.
    const core = await createCore({ dataDir: askDir, host: testHost, env: { HOME: askDir } });
    core.ctx.settings.set({ memoryWriteMode: 'ask' });
    await core.close();
    fake.reset();
    fake.enqueue(
      toolUse({ name: 'memory', input: { command: 'create', path: '/memories/asked.md', file_text: 'x\n' } }),
      text('I could not save that.'),
    );
    const r = await run(['--data-dir', askDir, 'Remember x']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[review] create /memories/asked.md: refused');
    const result = fake.messageRequests()[1]!.body.messages.at(-1).content[0];
    expect(result).toMatchObject({ type: 'tool_result', is_error: true });
    expect(JSON.stringify(result)).toMatch(/no terminal/);
    await expect(readFile(path.join(askDir, 'memories', 'asked.md'), 'utf8')).rejects.toThrow();
    await rm(askDir, { recursive: true, force: true });
  });

  it('"ask me" on a terminal shows the change, asks, and writes it once the user answers y', async () => {
    const askDir = await mkdtemp(path.join(tmpdir(), 'mnemo-cli-tty-'));
    const core = await createCore({ dataDir: askDir, host: testHost, env: { HOME: askDir } });
    core.ctx.settings.set({ memoryWriteMode: 'ask' });
    await core.close();
    fake.reset();
    fake.enqueue(
      toolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/asked.md', file_text: 'tea\n' },
      }),
      text('Saved.'),
    );
    // script(1) runs the CLI on a pseudo-terminal, as a user's shell would.
    const quote = (a: string) => `'${a.replace(/'/g, "'\\''")}'`;
    const command = [process.execPath, cli, '--data-dir', askDir, 'Remember tea'].map(quote).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: askDir,
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: fake.url,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let answered = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!answered && stdout.includes('[y/N]')) {
        answered = true;
        child.stdin.write('y\n');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stdout).toContain('[review] The assistant wants to create /memories/asked.md');
    expect(stdout).toContain('+++ after');
    expect(code).toBe(0);
    expect(stdout).toContain('Final answer:');
    expect(await readFile(path.join(askDir, 'memories', 'asked.md'), 'utf8')).toBe('tea\n');
    const result = fake.messageRequests()[1]!.body.messages.at(-1).content[0];
    expect(result).toMatchObject({ type: 'tool_result' });
    expect(result.is_error).not.toBe(true);
    await rm(askDir, { recursive: true, force: true });
  });

  it('without an API key: one clear line on stderr, exit code 3, no stack', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'mnemo-cli-nokey-'));
    const r = await run(['--data-dir', empty, 'hello'], { ANTHROPIC_API_KEY: '' });
    await rm(empty, { recursive: true, force: true });
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/ANTHROPIC_API_KEY/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('respects MNEMO_DATA_DIR and refuses bad flags with the usage (exit 2)', async () => {
    const bad = await run(['--max-turns', 'lots', 'hi']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--max-turns needs a whole number/);
    fake.reset();
    fake.enqueue(text('From the env dir.'));
    const other = await mkdtemp(path.join(tmpdir(), 'mnemo-cli-env-'));
    const r = await run(['hi'], { MNEMO_DATA_DIR: other });
    expect(r.code).toBe(0);
    const { readdir } = await import('node:fs/promises');
    // Conversation files only (beside them, the summary cache).
    const names = await readdir(path.join(other, 'conversations'));
    expect(names.filter((n) => n.endsWith('.jsonl'))).toHaveLength(1);
    await rm(other, { recursive: true, force: true });
  });
});
