// The CLI after a crash mid tool call (issue 11, item 2): the conversation file ends at a reply's tool_use
// (the app was killed after the memory journaled the write, before the result reached the file), and
// `mnemo chat --continue` in a separate process answers instead of failing with the API's 400 for ever.
// Runs dist/electron/cli.js (built by `npm test` before vitest), like cli.test.ts.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeAnthropic,
  startFakeAnthropic,
  text,
  toolUse,
  validateRequest,
} from '../../fixtures/fake-anthropic/index.js';
import { send, startHarness } from '../agent/harness.js';
import { assertCliBuilt, cliEnv, type CliResult, runCli } from '../support/cli-process.js';

let fake: FakeAnthropic;
let dataDir: string;

beforeAll(async () => {
  assertCliBuilt();
  fake = await startFakeAnthropic();
  dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-cli-crash-'));
});

afterAll(async () => {
  await fake?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function run(args: string[]): Promise<CliResult> {
  return runCli(args, cliEnv(dataDir, fake.url));
}

describe('the CLI continuing a conversation cut off after a tool_use', () => {
  it('answers, and tells the model the memory write was applied', async () => {
    const h = await startHarness({ fake, dataDir });
    fake.enqueue(
      toolUse({
        id: 'toolu_cli_crash',
        name: 'memory',
        input: { command: 'create', path: '/memories/plans.md', file_text: 'Lisbon in May.\n' },
      }),
      text('Saved.'),
    );
    const { res } = await send(h, 'Remember: Lisbon in May.');
    await h.close();
    const file = path.join(dataDir, 'conversations', `${res.conversationId}.jsonl`);
    const lines = (await readFile(file, 'utf8')).split('\n');
    const at = lines.findIndex((l) => l.includes('"toolu_cli_crash"') && l.includes('"assistant"'));
    expect(at).toBeGreaterThan(0);
    await writeFile(file, `${lines.slice(0, at + 1).join('\n')}\n`);

    fake.reset();
    fake.enqueue(text('Yes, Lisbon in May is saved.'));
    const r = await run(['--data-dir', dataDir, '--continue', 'Did you save it?']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Final answer:\nYes, Lisbon in May is saved\.\n$/);
    const request = fake.messageRequests()[0]!;
    expect(validateRequest(request.body, request.headers)).toBeNull();
    const answer = request.body.messages
      .flatMap((m: { content: { type: string; tool_use_id?: string }[] }) => m.content)
      .find(
        (b: { type: string; tool_use_id?: string }) =>
          b.type === 'tool_result' && b.tool_use_id === 'toolu_cli_crash',
      );
    expect(answer).toMatchObject({
      is_error: true,
      content:
        'The app stopped before this result was recorded. The memory change was applied: /memories/plans.md was created. Do not make it again.',
    });
  });
});
