// A forget cut short by a crash is finished at the next start: a child process running the real backend is
// killed (SIGKILL) after the forget wrote its intent, and after its memory part, before the conversations
// were redacted. The next start finishes it before anything reads a conversation: nothing of the file is
// left in the data folder, and continuing the conversation sends "[forgotten by the user]".
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGOTTEN } from '../../../electron/core/conversations/redact.js';
import { type FakeAnthropic, startFakeAnthropic, text } from '../../fixtures/fake-anthropic/index.js';
import {
  PASSAGES,
  SECRET,
  expectForgottenEverywhere,
  filesHolding,
  seedConversations,
} from './forget-support.js';
import { requestText, send, startHarness, validRequests } from './harness.js';

const root = path.resolve(import.meta.dirname, '../../..');
const worker = path.join(root, 'dist/test/integration/agent/forget-worker.js');
const TARGET = '/memories/medical/health.md';

function runWorker(dataDir: string, env: Record<string, string>): Promise<NodeJS.Signals | number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [worker, dataDir, TARGET], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, HOME: dataDir, MNEMO_DEBUG: '', ...env },
    });
    child.on('exit', (code, signal) => resolve(signal ?? code));
  });
}

let fake: FakeAnthropic;
beforeAll(async () => {
  if (!existsSync(worker))
    throw new Error('dist/ lacks the forget worker: run `npm run -s build` before the integration tests.');
  fake = await startFakeAnthropic();
});
afterAll(async () => {
  await fake.close();
});

describe('a forget cut short by a crash', () => {
  for (const point of ['forget-after-intent', 'forget-after-memory'] as const)
    it(`is finished at the next start (killed at ${point})`, async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-forget-crash-'));
      try {
        fake.reset();
        const settings = { contextStrategy: 'local' as const };
        let h = await startHarness({ fake, dataDir, settings });
        const { a } = await seedConversations(h);
        await h.close();

        expect(await runWorker(dataDir, { MNEMO_CRASH_AT: point })).toBe('SIGKILL');
        // Cut short: the intent is written and the conversations still hold the content.
        expect(readdirSync(path.join(dataDir, 'memory-journal', 'forget-pending'))).toHaveLength(1);
        const left = await filesHolding(dataDir, PASSAGES);
        expect(left.filter((f) => f.startsWith('conversations/'))).toHaveLength(2);
        if (point === 'forget-after-memory') {
          expect(
            left.filter((f) => f.startsWith('memories/') || f === 'memory-journal/journal.jsonl'),
          ).toEqual([]);
        }

        h = await startHarness({ fake, dataDir, settings });
        await expectForgottenEverywhere(dataDir);
        expect(readdirSync(path.join(dataDir, 'memory-journal', 'forget-pending'))).toEqual([]);
        fake.enqueue(text('Understood.'));
        await send(h, 'Please continue', a);
        const sent = requestText(fake.lastMessageRequest().body);
        expect(sent).toContain(FORGOTTEN);
        for (const p of [...PASSAGES, SECRET]) expect(sent).not.toContain(p);
        expect(validRequests(fake)).toBe(fake.messageRequests().length);
        await h.close();
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    });
});
