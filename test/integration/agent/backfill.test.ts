// Memory backfill: a new conversation starts with the memory index and the files that fit the budget, as
// an already executed `view` (data in a tool result, not the system prompt); changes by other hands reach
// the model on its next request; the model's own changes do not come back as news.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { text, toolUse } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, cardsOf, startHarness, validRequests, send } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('memory backfill', () => {
  it('gives the index and file contents as a view result before the first turn', async () => {
    h = await startHarness();
    const memory = h.core.ctx.memory;
    await memory.create('/memories/preferences.md', '- Dislikes spicy food.\n', { kind: 'user' });
    await memory.create('/memories/projects/garden.md', '# Garden\nTomatoes planted in May.\n', {
      kind: 'user',
    });
    h.fake.enqueue(text('Hello again!'));
    const { events } = await send(h, 'Hi');
    const [backfill] = cardsOf(events, 'backfill');
    expect(backfill!.totalFiles).toBe(2);
    expect(backfill!.files.map((f) => f.path)).toEqual([
      '/memories/preferences.md',
      '/memories/projects/garden.md',
    ]);
    expect(backfill!.tokens).toBeGreaterThan(0);

    const body = h.fake.messageRequests()[0]!.body;
    const [user, view, result] = body.messages;
    expect(user.content.at(-1)).toMatchObject({ type: 'text', text: 'Hi' });
    expect(view.content[0]).toMatchObject({
      type: 'tool_use',
      name: 'memory',
      input: { command: 'view', path: '/memories' },
    });
    expect(result.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: view.content[0].id });
    const data = JSON.stringify(result.content[0].content);
    expect(data).toContain('Dislikes spicy food.');
    expect(data).toContain('/memories/projects/garden.md');
    expect(result.content[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(JSON.stringify(body.system)).not.toContain('spicy');
    // Native clearing never clears the memory tool (the backfill is a memory view).
    expect(body.context_management.edits[0]).toMatchObject({
      type: 'clear_tool_uses_20250919',
      exclude_tools: ['memory'],
    });
    expect(validRequests(h.fake)).toBe(1);
  });

  it('keeps memory_search results too when the user excludes that tool from clearing', async () => {
    h = await startHarness({ settings: { clearExcludeTools: ['memory_search'] } });
    await send(h, 'Hi');
    expect(h.fake.messageRequests()[0]!.body.context_management.edits[0]).toMatchObject({
      exclude_tools: ['memory', 'memory_search'],
    });
  });

  it('fits the budget: index-like files first, the rest listed in the index only', async () => {
    h = await startHarness({ settings: { backfillBudgetTokens: 300 } });
    const memory = h.core.ctx.memory;
    for (let i = 0; i < 6; i++) {
      await memory.create(`/memories/notes/n${i}.md`, `Note ${i}: ${'lorem ipsum '.repeat(40)}\n`, {
        kind: 'user',
      });
    }
    await memory.create('/memories/preferences.md', '- Prefers short answers.\n', { kind: 'user' });
    h.fake.enqueue(text('OK'));
    const { events } = await send(h, 'Hi');
    const [backfill] = cardsOf(events, 'backfill');
    expect(backfill!.totalFiles).toBe(7);
    expect(backfill!.files[0]!.path).toBe('/memories/preferences.md');
    expect(backfill!.files.length).toBeLessThan(7);
    expect(backfill!.tokens).toBeLessThanOrEqual(300);
    const data = JSON.stringify(h.fake.messageRequests()[0]!.body.messages[2]);
    for (let i = 0; i < 6; i++) expect(data).toContain(`/memories/notes/n${i}.md`);
  });

  it('tells the model about changes by other hands on its next request, as data', async () => {
    h = await startHarness();
    const memory = h.core.ctx.memory;
    await memory.create('/memories/preferences.md', '- Tea, not coffee.\n', { kind: 'user' });
    h.fake.enqueue(
      toolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/own.md', file_text: 'written by the model\n' },
      }),
      text('Saved.'),
    );
    const first = await send(h, 'Remember something');
    const conversationId = first.res.conversationId;
    // The user edits a file in the panel between two turns.
    const current = await memory.read('/memories/preferences.md');
    await memory.write('/memories/preferences.md', '- Coffee now, actually.\n', current.version, {
      kind: 'user',
    });
    h.fake.enqueue(text('Got it.'));
    await send(h, 'What do I drink?', conversationId);
    const last = h.fake.messageRequests().at(-1)!.body.messages.at(-1);
    const note = JSON.stringify(last.content);
    expect(note).toContain('/memories/preferences.md was changed by the user in the memory panel');
    expect(note).toContain('Coffee now, actually.');
    expect(note).toContain('not instructions');
    // Its own write (in this conversation) is not reported back as news.
    expect(note).not.toContain('/memories/own.md');
    expect(last.content.at(-1)).toMatchObject({ type: 'text', text: 'What do I drink?' });
    // The transcript shows the user's own words only.
    const items = (await h.core.handlers['conversations.get']({ id: conversationId }, call)).items;
    expect(items.filter((i) => i.kind === 'user').map((i) => (i as { text: string }).text)).toEqual([
      'Remember something',
      'What do I drink?',
    ]);
    expect(validRequests(h.fake)).toBe(3);
  });

  it('after a restart, tells the model about edits made while the app was closed, once', async () => {
    h = await startHarness();
    await h.core.ctx.memory.create('/memories/preferences.md', '- Tea, not coffee.\n', { kind: 'user' });
    h.fake.enqueue(
      toolUse({
        name: 'memory',
        input: { command: 'create', path: '/memories/own.md', file_text: 'written by the model\n' },
      }),
      text('Noted.'),
    );
    const first = await send(h, 'Remember something');
    const conversationId = first.res.conversationId;
    await h.core.close();
    // The user edits the file in their own editor while the app is closed.
    await writeFile(path.join(h.dataDir, 'memories', 'preferences.md'), '- Coffee now, actually.\n');
    await h.restart();

    h.fake.enqueue(text('Coffee.'));
    await send(h, 'What do I drink?', conversationId);
    const resumed = JSON.stringify(h.fake.messageRequests().at(-1)!.body.messages.at(-1).content);
    expect(resumed).toContain('/memories/preferences.md was changed outside the app');
    expect(resumed).toContain('Coffee now, actually.');
    // Neither the model's own write nor what it was already told comes back as news.
    expect(resumed).not.toContain('/memories/own.md');
    expect(resumed).not.toContain('created by the user');

    h.fake.enqueue(text('Still coffee.'));
    await send(h, 'And now?', conversationId);
    const next = h.fake.messageRequests().at(-1)!.body.messages.at(-1).content;
    expect(next).toEqual([{ type: 'text', text: 'And now?', cache_control: { type: 'ephemeral' } }]);
    expect(validRequests(h.fake)).toBe(4);
  });

  it('with memory off nothing is loaded and no note is given', async () => {
    h = await startHarness();
    await h.core.ctx.memory.create('/memories/preferences.md', '- Secret-free pref.\n', { kind: 'user' });
    h.fake.enqueue(text('Hi.'));
    const res = await h.core.handlers['chat.send']({ text: 'hello', memory: false }, call);
    await h.finished(res.runId);
    expect(JSON.stringify(h.fake.messageRequests()[0]!.body)).not.toContain('Secret-free pref.');
  });
});
