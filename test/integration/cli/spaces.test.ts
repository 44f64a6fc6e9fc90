// The CLI's spaces, as a user runs them: separate `node dist/electron/cli.js` processes (built before
// vitest, like cli.test.ts) against the fake API. A chat in a named space creates it on first use and
// stays in it; --spaces lists counts; --rename-space and --delete-space change the list; --continue
// continues the chosen space's latest conversation.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeAnthropic,
  startFakeAnthropic,
  text,
  toolUse,
} from '../../fixtures/fake-anthropic/index.js';
import { CONFIRMATIONS } from '../../../shared/confirmations.js';

const root = path.resolve(import.meta.dirname, '../../..');
const cli = path.join(root, 'dist/electron/cli.js');
let fake: FakeAnthropic;
let dataDir: string;

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error('dist/electron/cli.js is missing: run `npm run build:node` first.');
  fake = await startFakeAnthropic();
  dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-cli-spaces-'));
});
afterAll(async () => {
  await fake?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function run(
  args: string[],
  options: { tty?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = {
      PATH: process.env.PATH,
      HOME: dataDir,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
    };
    // A terminal for the question: util-linux `script` gives the CLI a pseudo-terminal and types `tty`.
    const child =
      options.tty === undefined
        ? spawn(process.execPath, [cli, '--data-dir', dataDir, ...args], {
            cwd: root,
            env,
            stdio: ['ignore', 'pipe', 'pipe'],
          })
        : spawn(
            'script',
            [
              '-qec',
              [process.execPath, cli, '--data-dir', dataDir, ...args].map(quote).join(' '),
              '/dev/null',
            ],
            {
              cwd: root,
              env,
              stdio: ['pipe', 'pipe', 'pipe'],
            },
          );
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (options.tty !== undefined && stdout.includes('[y/N]')) child.stdin!.end(options.tty);
    });
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const spacesDir = () => path.join(dataDir, 'spaces');
const onlySpace = () => readdirSync(spacesDir()).filter((n) => !n.startsWith('.'));

describe('the CLI in spaces', () => {
  it('--space NAME creates the space on first use and chats in it', async () => {
    fake.reset();
    fake.enqueue(
      toolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/client.md', file_text: 'Acme: NDA\n' },
      }),
      text('Noted for Acme.'),
    );
    const r = await run(['--space', 'Acme', 'Remember the NDA']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Created space Acme\n/);
    expect(r.stdout).toContain('Final answer:\nNoted for Acme.');
    const [id] = onlySpace();
    expect(await readFile(path.join(spacesDir(), id!, 'memories', 'client.md'), 'utf8')).toBe('Acme: NDA\n');
    expect(existsSync(path.join(dataDir, 'memories', 'client.md'))).toBe(false);
  });

  it('the second run in the space (any case) does not create it again and sees its memory only', async () => {
    fake.reset();
    fake.enqueue(text('Hello Personal.'));
    expect((await run(['Hello'])).code).toBe(0);
    expect(JSON.stringify(fake.messageRequests()[0]!.body)).not.toContain('Acme: NDA');
    fake.reset();
    fake.enqueue(text('Yes, the NDA.'));
    const r = await run(['--space', 'acme', 'What do you know?']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('Created space');
    expect(r.stdout).toMatch(/^\[memory backfill\] 1 of 1 files.*\/memories\/client\.md$/m);
    expect(onlySpace()).toHaveLength(1);
  });

  it('--continue continues the latest conversation of the chosen space', async () => {
    fake.reset();
    fake.enqueue(text('Continued.'));
    const r = await run(['--space', 'Acme', '--continue', 'And then?']);
    expect(r.code).toBe(0);
    const messages = fake.messageRequests()[0]!.body.messages as { role: string }[];
    expect(JSON.stringify(messages)).toContain('What do you know?');
    expect(JSON.stringify(messages)).not.toContain('Hello Personal');
    const [id] = onlySpace();
    // Conversation files only (beside them, the summary cache).
    const names = readdirSync(path.join(spacesDir(), id!, 'conversations'));
    expect(names.filter((n) => n.endsWith('.jsonl'))).toHaveLength(2);
  });

  it('--spaces lists every space with its counts', async () => {
    const r = await run(['--spaces']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Personal  1 conversation, 0 memory files\nAcme  2 conversations, 1 memory file\n');
  });

  it('--rename-space renames; a taken or unknown name is bad usage (exit 2)', async () => {
    expect(await run(['--rename-space', 'acme', 'Acme Corp'])).toMatchObject({
      code: 0,
      stdout: 'Renamed space Acme to Acme Corp\n',
    });
    expect(await run(['--rename-space', 'acme corp', 'PERSONAL'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/There is a space named Personal already/),
    });
    expect(await run(['--rename-space', 'Nope', 'X'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/There is no space named Nope/),
    });
    expect(await run(['--rename-space', 'Acme Corp'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--rename-space OLD NEW/),
    });
  });

  it('--delete-space asks; without a terminal it needs --yes (exit 2); Personal cannot go', async () => {
    // The words are the confirmations table's (shared/confirmations.ts), as every face's are.
    const words = CONFIRMATIONS['spaces.delete'].terminal({
      name: 'Acme Corp',
      counts: '2 conversations, 1 memory file',
    });
    const noTty = await run(['--delete-space', 'Acme Corp']);
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toMatch(/needs a confirmation: run it on a terminal, or add --yes/);
    expect(noTty.stderr).toContain(words.noTerminal);
    expect(onlySpace()).toHaveLength(1);
    const declined = await run(['--delete-space', 'Acme Corp'], { tty: 'n\n' });
    expect(declined.stdout).toMatch(/Delete the space Acme Corp \(2 conversations, 1 memory file\)\?/);
    expect(declined.stdout).toContain(`${words.question} [y/N] `);
    expect(declined.stdout).toContain(words.declined);
    expect(declined.stdout).toContain('Nothing was deleted.');
    expect(onlySpace()).toHaveLength(1);
    expect(await run(['--delete-space', 'personal', '--yes'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/Personal cannot be deleted/),
    });
    const yes = await run(['--delete-space', 'acme corp', '--yes']);
    expect(yes).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Deleted space Acme Corp/) });
    expect(onlySpace()).toHaveLength(0);
    expect((await run(['--spaces'])).stdout).toBe('Personal  1 conversation, 0 memory files\n');
  });

  it('refuses space flags that do not go together (exit 2), and the help names them', async () => {
    expect((await run(['--spaces', '--space', 'X'])).code).toBe(2);
    expect((await run(['--spaces', 'hello'])).code).toBe(2);
    expect((await run(['--yes', 'hello'])).code).toBe(2);
    expect((await run(['--space', ' ', 'hello'])).code).toBe(2);
    const bad = await run(['--space', 'a\u202eb', 'hello']);
    expect(bad).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--space: A space name cannot hold/),
    });
    expect(bad.stderr).not.toContain('\u202e'); // printed visibly escaped, never raw
    const help = await run(['--help']);
    expect(help.stdout).toMatch(
      /--space NAME[\s\S]*--spaces[\s\S]*--rename-space OLD NEW[\s\S]*--delete-space NAME/,
    );
  });
});
