// Conversations on disk: create, list, rename, delete, search, export; a torn last line is ignored;
// a restart resumes with exactly the history the API expects; pin, regenerate and edit-and-resend.
import { afterEach, describe, expect, it } from 'vitest';
import { appendFile, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ConversationSummary } from '../../../shared/channels/conversations.js';
import { text, toolUse } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, newConversation, startHarness, validRequests } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function send(harness: Harness, message: string, conversationId?: string) {
  const res = await harness.core.handlers['chat.send'](
    { text: message, memory: true, ...(conversationId ? { conversationId } : {}) },
    call,
  );
  await harness.finished(res.runId);
  return res;
}

const texts = async (harness: Harness, id: string) =>
  (await harness.core.handlers['conversations.get']({ id }, call)).items
    .filter((i) => i.kind === 'user' || i.kind === 'assistant')
    .map((i) => `${i.kind}: ${(i as { text: string }).text}`);

describe('conversations', () => {
  it('create, list, rename, search by title and content, export as Markdown, delete', async () => {
    h = await startHarness();
    const changes: ConversationSummary[][] = [];
    h.core.bus.subscribe((name, payload) => {
      if (name === 'conversations.changed')
        changes.push((payload as { conversations: ConversationSummary[] }).conversations);
    });
    const created = { conversation: await newConversation(h.core.ctx, { title: 'Trip planning' }) };
    expect(created.conversation).toMatchObject({ title: 'Trip planning', memory: true, messageCount: 0 });
    h.fake.enqueue(text('Lisbon is lovely in May.'));
    await send(h, 'Where should I go in spring?', created.conversation.id);
    h.fake.enqueue(text('Pasta with basil.'));
    const other = await send(h, 'What is for dinner?');

    const list = (await h.core.handlers['conversations.list']({}, call)).conversations;
    expect(list.map((c) => c.id)).toEqual([other.conversationId, created.conversation.id]);
    expect(list[1]!.messageCount).toBe(2);
    // A window's first list: what fills its sidebar, and whether more follow.
    expect(await h.core.handlers['conversations.list']({ limit: 1 }, call)).toEqual({
      conversations: list.slice(0, 1),
      more: true,
    });
    expect(await h.core.handlers['conversations.list']({ limit: 2 }, call)).toEqual({
      conversations: list,
      more: false,
    });
    expect(changes.length).toBeGreaterThan(0);

    const renamed = await h.core.handlers['conversations.rename'](
      { id: other.conversationId, title: 'Dinner ideas' },
      call,
    );
    expect(renamed.conversation.title).toBe('Dinner ideas');

    const byTitle = (await h.core.handlers['conversations.search']({ query: 'dinner IDEAS' }, call)).results;
    expect(byTitle.map((r) => r.id)).toEqual([other.conversationId]);
    const byContent = (await h.core.handlers['conversations.search']({ query: 'lisbon' }, call)).results;
    expect(byContent).toHaveLength(1);
    expect(byContent[0]).toMatchObject({ id: created.conversation.id, title: 'Trip planning' });
    expect(byContent[0]!.snippet).toContain('Lisbon is lovely');
    expect(byContent[0]!.messageId).toBeDefined();

    const exported = await h.core.handlers['conversations.export']({ id: created.conversation.id }, call);
    expect(exported.fileName).toBe('trip-planning.md');
    expect(exported.markdown).toMatch(/^# Trip planning/);
    expect(exported.markdown).toContain('## You\n\nWhere should I go in spring?');
    expect(exported.markdown).toContain('## Mnemo\n\nLisbon is lovely in May.');

    await h.core.handlers['conversations.delete']({ id: other.conversationId }, call);
    expect((await h.core.handlers['conversations.list']({}, call)).conversations.map((c) => c.id)).toEqual([
      created.conversation.id,
    ]);
    // Beside the conversation files: the summary cache (a dot file), which no longer names the deleted one.
    const names = await readdir(path.join(h.dataDir, 'conversations'));
    expect(names.filter((n) => !n.startsWith('.'))).toEqual([`${created.conversation.id}.jsonl`]);
    const cache = await readFile(path.join(h.dataDir, 'conversations', '.summaries.json'), 'utf8');
    expect(cache).toContain(created.conversation.id);
    expect(cache).not.toContain(other.conversationId);
    await expect(h.core.handlers['conversations.get']({ id: other.conversationId }, call)).rejects.toThrow(
      /does not exist/,
    );
    await expect(h.core.handlers['conversations.get']({ id: '../../etc/passwd' }, call)).rejects.toThrow(
      /does not exist/,
    );
  });

  it("asks for the model's context window once a window shows the list, not when the meter asks", async () => {
    h = await startHarness();
    const harness = h;
    const models = () =>
      harness.fake.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/models/'));
    const created = await newConversation(h.core.ctx, { title: 'Metered' });
    expect(models()).toHaveLength(0);
    await h.core.handlers['conversations.list']({ limit: 20 }, call);
    await expect.poll(() => models().length).toBe(1);
    await h.core.handlers['context.get']({ conversationId: created.id }, call);
    expect(models()).toHaveLength(1);
  });

  it('ignores a torn last line and resumes after a restart with exactly the same history', async () => {
    h = await startHarness();
    h.fake.enqueue(
      toolUse({ name: 'memory', input: { command: 'create', path: '/memories/x.md', file_text: 'x\n' } }),
      text('Saved x.'),
    );
    const res = await send(h, 'save x');
    h.fake.enqueue(text('Second.'));
    await send(h, 'again', res.conversationId);
    const before = h.fake.messageRequests().at(-1)!.body;
    await h.restart();
    // A crash mid-append leaves half a line behind.
    const file = path.join(h.dataDir, 'conversations', `${res.conversationId}.jsonl`);
    await appendFile(file, '{"t":"msg","id":"torn","kind":"user","role":"user","content":[{"type":"te');
    await h.restart();
    expect(await texts(h, res.conversationId)).toEqual([
      'user: save x',
      'assistant: Saved x.',
      'user: again',
      'assistant: Second.',
    ]);
    h.fake.enqueue(text('Third.'));
    await send(h, 'third', res.conversationId);
    const after = h.fake.messageRequests().at(-1)!.body;
    const strip = (v: unknown) =>
      JSON.parse(JSON.stringify(v), (k, x) => (k === 'cache_control' ? undefined : x));
    expect(strip(after.messages.slice(0, before.messages.length))).toEqual(strip(before.messages));
    expect(after.messages.length).toBe(before.messages.length + 2);
    // The torn tail was cut off, so the file is whole lines again.
    const raw = await readFile(file, 'utf8');
    expect(raw.endsWith('\n')).toBe(true);
    for (const line of raw.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    expect(validRequests(h.fake)).toBe(4);
  });

  it('pin, regenerate (no duplicated user turn) and edit-and-resend', async () => {
    h = await startHarness();
    h.fake.enqueue(text('Answer A.'));
    const res = await send(h, 'Question one');
    const first = (await h.core.handlers['conversations.get']({ id: res.conversationId }, call)).items;
    const user = first.find((i) => i.kind === 'user')!;
    await h.core.handlers['chat.pin'](
      { conversationId: res.conversationId, messageId: user.id, pinned: true },
      call,
    );
    expect(
      (await h.core.handlers['conversations.get']({ id: res.conversationId }, call)).items[0],
    ).toMatchObject({
      pinned: true,
    });

    h.fake.enqueue(text('Answer B.'));
    const regen = await h.core.handlers['chat.regenerate']({ conversationId: res.conversationId }, call);
    await h.finished(regen.runId);
    expect(await texts(h, res.conversationId)).toEqual(['user: Question one', 'assistant: Answer B.']);
    expect(JSON.stringify(h.fake.messageRequests().at(-1)!.body.messages)).not.toContain('Answer A.');

    h.fake.enqueue(text('Answer C.'));
    const edit = await h.core.handlers['chat.editResend'](
      { conversationId: res.conversationId, messageId: user.id, text: 'Question one, better' },
      call,
    );
    await h.finished(edit.runId);
    expect(await texts(h, res.conversationId)).toEqual([
      'user: Question one, better',
      'assistant: Answer C.',
    ]);
    const sent = JSON.stringify(h.fake.messageRequests().at(-1)!.body.messages);
    expect(sent).not.toContain('Answer B.');
    expect(sent).not.toContain('"Question one"');
    expect(validRequests(h.fake)).toBe(3);
  });

  it('refuses a second send while a reply is being written', async () => {
    h = await startHarness();
    const { gate } = await import('../../fixtures/fake-anthropic/index.js');
    const g = gate({ afterEvents: 4, reply: text('slow answer here') });
    h.fake.enqueue(g);
    const res = await h.core.handlers['chat.send']({ text: 'first', memory: true }, call);
    await g.reached;
    await expect(
      h.core.handlers['chat.send'](
        { text: 'second', memory: true, conversationId: res.conversationId },
        call,
      ),
    ).rejects.toThrow(/still being written/);
    g.release();
    await h.finished(res.runId);
    expect(await texts(h, res.conversationId)).toEqual(['user: first', 'assistant: slow answer here']);
  });
});
