// Issue 11, item 9: the CLI printed the model's answers and memory content with their raw terminal control
// sequences (OSC 52 writes the clipboard, CSI erases lines, e.g. above the approval prompt). The real CLI
// against the fake API, with hostile text in the answer, in a memory file and in a refused tool call; once
// piped, once on a terminal (util-linux `script` gives it a pty) where it asks before a memory write.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeAnthropic,
  startFakeAnthropic,
  text,
  toolUse,
} from '../../fixtures/fake-anthropic/index.js';

const root = path.resolve(import.meta.dirname, '../../..');
const cli = path.join(root, 'dist/electron/cli.js');
const OSC52 = '\x1b]52;c;cm0gLXJmIH4=\x07';
const CSI_HIDE = '\x1b[2K\x1b[1A\x1b[2K';
const C1_CSI = '\u009b2K';
const BIDI = '\u202e';
const HOSTILE = `before${OSC52}middle${CSI_HIDE}after${C1_CSI}${BIDI}end`;
const SHOWN = 'before\\x1b]52;c;cm0gLXJmIH4=\\x07middle\\x1b[2K\\x1b[1A\\x1b[2Kafter\\x9b2K\\u202eend';

let fake: FakeAnthropic;
let home: string;
let dataDir: string;

beforeAll(async () => {
  if (!existsSync(cli)) throw new Error('dist/electron/cli.js is missing: run `npm run build:node` first.');
  fake = await startFakeAnthropic();
  home = await mkdtemp(path.join(tmpdir(), 'mnemo-cli-esc-'));
});
afterAll(async () => {
  await fake?.close();
  await rm(home, { recursive: true, force: true });
});
beforeEach(() => {
  fake.reset();
  dataDir = path.join(home, `data-${Date.now()}`);
  mkdirSync(path.join(dataDir, 'memories'), { recursive: true, mode: 0o700 });
  writeFileSync(path.join(dataDir, 'memories', 'notes.md'), `# Notes\n${HOSTILE}\n`);
});

function run(
  command: string,
  args: string[],
  input: string,
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: fake.url,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('latin1')));
    child.stderr.on('data', (d: Buffer) => (stdout += d.toString('latin1')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the CLI did not finish:\n${stdout}`));
    }, 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    });
    child.stdin.end(input);
  });
}

/** The bytes as printed (latin1 keeps every byte one character: a raw C1 byte in UTF-8 is \xc2\x9b). */
const shownUtf8 = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');

describe('the CLI prints hostile text visibly, never as control sequences', () => {
  it('piped: the answer and a refused tool call, with no raw ESC anywhere', async () => {
    fake.enqueue(
      toolUse({
        name: 'memory',
        input: {
          command: 'str_replace',
          path: '/memories/notes.md',
          old_str: `x${OSC52}${CSI_HIDE}`,
          new_str: 'y',
        },
      }),
      text(`Here is your note: ${HOSTILE}`),
    );
    const r = await run(process.execPath, [cli, '--data-dir', dataDir, 'show me my note'], '');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\x1b');
    expect(r.stdout).not.toContain('\x07');
    expect(r.stdout).not.toContain(shownUtf8(C1_CSI));
    expect(r.stdout).not.toContain(shownUtf8(BIDI));
    expect(r.stdout).toContain(`Final answer:\nHere is your note: ${SHOWN}\n`);
    expect(r.stdout).toMatch(/memory refused: .*old_str `x\\x1b\]52;c;/);
  });

  it('on a terminal: the approval prompt shows the memory file visibly escaped', async () => {
    writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ memoryWriteMode: 'ask' }));
    fake.enqueue(
      toolUse({
        name: 'memory',
        input: {
          command: 'str_replace',
          path: '/memories/notes.md',
          old_str: '# Notes',
          new_str: '# My notes',
        },
      }),
      text('Left it as it was.'),
    );
    const command = [process.execPath, cli, '--data-dir', dataDir, 'rename the heading']
      .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    const r = await run('script', ['-qec', command, '/dev/null'], 'n\n');
    expect(r.stdout).toContain('[review] The assistant wants to str_replace /memories/notes.md');
    expect(r.stdout).toContain(`--- before\n# Notes\n${SHOWN}`.replace(/\n/g, '\r\n'));
    expect(r.stdout).not.toContain('\x1b]52');
    expect(r.stdout).not.toContain('\x1b[1A');
    expect(r.stdout).not.toContain(shownUtf8(C1_CSI));
    expect(r.stdout).not.toContain(shownUtf8(BIDI));
    expect(r.stdout).toContain('Final answer:');
    expect(r.code).toBe(0);
  });
});
