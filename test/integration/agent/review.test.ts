// Memory write modes: "ask me" pauses at each write for chat.review (approve, edit, reject) and the model
// is told the outcome; "read-only" refuses every write; reads are never held up.
import { afterEach, describe, expect, it } from 'vitest';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { RunEvent } from '../../../shared/channels/chat.js';
import { text, toolUse } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, startHarness, validRequests, of } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const create = (file: string, content: string) =>
  toolUse({ name: 'memory', input: { command: 'create', path: `/memories/${file}`, file_text: content } });

async function startWrite(harness: Harness, file: string, content: string) {
  harness.fake.enqueue(create(file, content), text('Done.'));
  const res = await harness.core.handlers['chat.send']({ text: `save ${file}`, memory: true }, call);
  const request = (await harness.waitFor(
    (e) => e.runId === res.runId && e.type === 'review.request',
  )) as Extract<RunEvent, { type: 'review.request' }>;
  return { res, request };
}

const memoryFile = (harness: Harness, file: string) => path.join(harness.dataDir, 'memories', file);

describe('ask me', () => {
  it('approve: the write happens and the model gets the tool result', async () => {
    h = await startHarness({ settings: { memoryWriteMode: 'ask' } });
    const { res, request } = await startWrite(h, 'a.md', 'Alpha\n');
    expect(request).toMatchObject({
      command: 'create',
      path: '/memories/a.md',
      before: null,
      after: 'Alpha\n',
    });
    // Nothing is written before the decision.
    await expect(stat(memoryFile(h, 'a.md'))).rejects.toThrow();
    await h.core.handlers['chat.review']({ reviewId: request.reviewId, decision: 'approve' }, call);
    const events = await h.finished(res.runId);
    expect(of(events, 'tool.result')[0]).toMatchObject({ isError: false });
    expect(await readFile(memoryFile(h, 'a.md'), 'utf8')).toBe('Alpha\n');
    expect(of(events, 'review.resolved')[0]).toMatchObject({
      reviewId: request.reviewId,
      outcome: 'approved',
    });
    expect(validRequests(h.fake)).toBe(2);
  });

  it('edit: the edited text is saved and the model is told', async () => {
    h = await startHarness({ settings: { memoryWriteMode: 'ask' } });
    const { res, request } = await startWrite(h, 'b.md', 'Beta\n');
    await h.core.handlers['chat.review'](
      { reviewId: request.reviewId, decision: 'edit', content: 'Beta, edited by me\n' },
      call,
    );
    const events = await h.finished(res.runId);
    expect(of(events, 'tool.result')[0]!.result).toMatch(/user edited/);
    expect(of(events, 'review.resolved')[0]).toMatchObject({ outcome: 'edited' });
    expect(await readFile(memoryFile(h, 'b.md'), 'utf8')).toBe('Beta, edited by me\n');
    const sent = JSON.stringify(h.fake.messageRequests()[1]!.body.messages.at(-1));
    expect(sent).toContain('Beta, edited by me');
  });

  it('reject: nothing is written and the model gets an is_error result with the reason', async () => {
    h = await startHarness({ settings: { memoryWriteMode: 'ask' } });
    const { res, request } = await startWrite(h, 'c.md', 'Gamma\n');
    await h.core.handlers['chat.review'](
      { reviewId: request.reviewId, decision: 'reject', reason: 'not worth keeping' },
      call,
    );
    const events = await h.finished(res.runId);
    const result = of(events, 'tool.result')[0]!;
    expect(result.isError).toBe(true);
    expect(result.result).toMatch(/rejected.*not worth keeping/);
    expect(of(events, 'review.resolved')[0]).toMatchObject({ outcome: 'rejected' });
    await expect(stat(memoryFile(h, 'c.md'))).rejects.toThrow();
    const last = h.fake.messageRequests()[1]!.body.messages.at(-1).content[0];
    expect(last).toMatchObject({ type: 'tool_result', is_error: true });
  });

  it('a write that would add a key is never shown for review: the tool refuses it without the key', async () => {
    h = await startHarness({ settings: { memoryWriteMode: 'ask' } });
    const key = 'glpat-' + 'Zq8vR2mX7kLp4Tn9Wb3Y';
    h.fake.enqueue(create('e.md', `CI token: ${key}\n`), text('I did not save it.'));
    const res = await h.core.handlers['chat.send']({ text: 'save my token', memory: true }, call);
    const events = await h.finished(res.runId);
    expect(of(events, 'review.request')).toHaveLength(0);
    const result = of(events, 'tool.result')[0]!;
    expect(result.isError).toBe(true);
    expect(result.result).not.toContain(key.slice(6));
    expect(result.result).toMatch(/GitLab/i);
    await expect(stat(memoryFile(h, 'e.md'))).rejects.toThrow();
  });

  it('reads are not held for review', async () => {
    h = await startHarness({ settings: { memoryWriteMode: 'ask' } });
    h.fake.enqueue(
      toolUse({ name: 'memory', input: { command: 'view', path: '/memories' } }),
      text('Nothing yet.'),
    );
    const res = await h.core.handlers['chat.send']({ text: 'what do you know?', memory: true }, call);
    const events = await h.finished(res.runId);
    expect(of(events, 'review.request')).toHaveLength(0);
    expect(of(events, 'tool.result')[0]).toMatchObject({ isError: false });
  });

  it('an unknown review id is refused', async () => {
    h = await startHarness();
    await expect(
      h.core.handlers['chat.review']({ reviewId: 'nope', decision: 'approve' }, call),
    ).rejects.toThrow(/no longer waiting/);
  });
});

describe('read-only', () => {
  it('refuses every write with a clear tool error and writes nothing', async () => {
    h = await startHarness({ settings: { memoryWriteMode: 'read-only' } });
    h.fake.enqueue(create('d.md', 'Delta\n'), text('I could not save it.'));
    const res = await h.core.handlers['chat.send']({ text: 'save d', memory: true }, call);
    const events = await h.finished(res.runId);
    const result = of(events, 'tool.result')[0]!;
    expect(result.isError).toBe(true);
    expect(result.result).toMatch(/read-only/);
    expect(of(events, 'review.request')).toHaveLength(0);
    await expect(stat(memoryFile(h, 'd.md'))).rejects.toThrow();
  });
});
