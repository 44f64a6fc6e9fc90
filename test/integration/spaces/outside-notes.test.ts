// The notes about outside changes are confined to their space (issue 15.1): another program edits
// Personal's memory folder (plain fs writes, while the app runs and while it is closed), and through the
// real SDK and the fake Messages API a chat in Personal is told so on its next request while a chat in
// Work hears nothing of it, not even in a conversation resumed after a restart.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { text } from '../../fixtures/fake-anthropic/index.js';
import type { ChangeEvent } from '../../../memory/types.js';
import { type Harness, send, startHarness } from '../agent/harness.js';
import { follow, sendIn } from './support.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const USER = { kind: 'user' } as const;
const NOTE = 'Memory update from the app';

/** The last request's body, and its last user message as text. */
function lastRequest(harness: Harness): { body: string; last: string } {
  const body = harness.fake.lastMessageRequest().body as { messages: { content: unknown }[] };
  return { body: JSON.stringify(body), last: JSON.stringify(body.messages.at(-1)!.content) };
}

describe('notes about outside changes', () => {
  it("reach the chats of the space whose folder was edited, never another space's", async () => {
    h = await startHarness();
    await h.core.ctx.memory.create('/memories/plans.md', '- Holiday in May.\n', USER);
    const { space } = await h.core.spaces.ensure('Work');
    let work = await h.core.spaces.open(space.id);
    await work.ctx.memory.create('/memories/work.md', '- Deadline Friday.\n', USER);

    h.fake.enqueue(text('Hi from Personal.'), text('Hi from Work.'));
    const inPersonal = (await send(h, 'Hello')).res.conversationId;
    const inWork = (await sendIn(work, follow(work), 'Hello')).res.conversationId;

    // Another program edits Personal's folder while the app runs; the watcher journals it as external.
    const outside: ChangeEvent[] = [];
    const off = h.core.ctx.memory.onChange((e) => {
      if (e.actor === 'external') outside.push(e);
    });
    const folder = path.join(h.dataDir, 'memories');
    await writeFile(path.join(folder, 'plans.md'), '- EDITED-OUTSIDE: holiday moved to June.\n');
    await writeFile(path.join(folder, 'added.md'), '- ADDED-OUTSIDE by a sync tool.\n');
    await expect
      .poll(() => outside.map((e) => e.path).sort(), { timeout: 15_000 })
      .toEqual(['/memories/added.md', '/memories/plans.md']);
    off();

    h.fake.enqueue(text('Noted.'));
    await send(h, 'Anything new?', inPersonal);
    const personal = lastRequest(h);
    expect(personal.last).toContain(NOTE);
    expect(personal.last).toContain('/memories/plans.md was changed outside the app');
    expect(personal.last).toContain('EDITED-OUTSIDE');
    expect(personal.last).toMatch(/\/memories\/added\.md was \w+ outside the app/);
    expect(personal.last).toContain('ADDED-OUTSIDE');

    h.fake.enqueue(text('Nothing.'));
    await sendIn(work, follow(work), 'Anything new?', { conversationId: inWork });
    const workRequest = lastRequest(h);
    expect(workRequest.last).toBe(
      JSON.stringify([{ type: 'text', text: 'Anything new?', cache_control: { type: 'ephemeral' } }]),
    );
    for (const said of [NOTE, 'EDITED-OUTSIDE', 'ADDED-OUTSIDE', 'plans.md', 'added.md'])
      expect(workRequest.body).not.toContain(said);

    // While the app is closed: resumed conversations learn of it from their own space's journal only.
    await h.core.close();
    await writeFile(path.join(folder, 'plans.md'), '- CLOSED-EDIT: holiday cancelled.\n');
    await h.restart();
    work = await h.core.spaces.open(space.id);

    h.fake.enqueue(text('Nothing.'));
    await sendIn(work, follow(work), 'And now?', { conversationId: inWork });
    const resumedWork = lastRequest(h);
    for (const said of [NOTE, 'CLOSED-EDIT', 'plans.md']) expect(resumedWork.body).not.toContain(said);

    h.fake.enqueue(text('Cancelled.'));
    await send(h, 'And now?', inPersonal);
    const resumedPersonal = lastRequest(h);
    expect(resumedPersonal.last).toContain('/memories/plans.md was changed outside the app');
    expect(resumedPersonal.last).toContain('CLOSED-EDIT');
  });
});
