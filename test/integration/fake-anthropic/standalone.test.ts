// The standalone fake (a separate process, as CLI tests use it): prints its URL, follows a JSON script with
// rules, and exposes its request log and queue through the /_fake/ control routes.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../../../dist/test/fixtures/fake-anthropic/main.js', import.meta.url));
let child: ChildProcess;
let url: string;

const script = {
  rules: [
    { when: { lastMessageHasToolResult: true }, reply: { text: 'Saved your preference.' } },
    {
      when: { lastUserTextIncludes: 'Remember' },
      reply: {
        toolUse: {
          name: 'memory',
          input: { command: 'create', path: '/memories/preferences.md', file_text: 'No spicy food.' },
        },
      },
    },
  ],
  default: { text: 'Default answer.' },
};

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fake-anthropic-'));
  const file = join(dir, 'script.json');
  writeFileSync(file, JSON.stringify(script));
  child = spawn(process.execPath, [main, '--port', '0', '--script', file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  url = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fake exited with ${code}`)));
  });
});
afterAll(() => {
  child?.kill('SIGTERM');
});

describe('standalone fake Anthropic API', () => {
  it('prints its base URL as one line', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('follows the script rules, then the control routes script and report', async () => {
    const client = new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 0 });
    const base = {
      model: 'claude-sonnet-5-5',
      max_tokens: 200,
      tools: [{ type: 'memory_20250818' as const, name: 'memory' as const }],
    };
    const first = await client.beta.messages
      .stream({ ...base, messages: [{ role: 'user', content: 'Remember this: no spicy food' }] })
      .finalMessage();
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content[0] as { id: string; input: unknown };
    expect(call.input).toEqual({
      command: 'create',
      path: '/memories/preferences.md',
      file_text: 'No spicy food.',
    });
    const second = await client.beta.messages.create({
      ...base,
      messages: [
        { role: 'user', content: 'Remember this: no spicy food' },
        { role: 'assistant', content: first.content as Anthropic.Beta.BetaContentBlockParam[] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'File created' }] },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'Saved your preference.' }]);

    const enqueue = await fetch(`${url}/_fake/enqueue`, {
      method: 'POST',
      body: JSON.stringify([{ error: 529 }, { text: 'after retry' }]),
    });
    expect(enqueue.status).toBe(200);
    const retried = await new Anthropic({ apiKey: 'k', baseURL: url, maxRetries: 1 }).messages.create({
      ...base,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(retried.content).toEqual([{ type: 'text', text: 'after retry' }]);

    const log = (await (await fetch(`${url}/_fake/requests`)).json()) as {
      requests: Array<{ path: string; status: number }>;
    };
    expect(log.requests.map((r) => r.status)).toEqual([200, 200, 529, 200]);
    const bad = await fetch(`${url}/_fake/enqueue`, {
      method: 'POST',
      body: JSON.stringify([{ nonsense: 1 }]),
    });
    expect(bad.status).toBe(400);
  });
});
