// Quoted queries through the model's real conversation_search (backend, real SDK, fake Messages API): a
// phrase made only of stop words finds the message that says it and not one with only part of it; a
// quoted word matches only as written, the same word unquoted also its inflections.
import { afterEach, describe, expect, it } from 'vitest';
import { text, toolUse } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, startHarness } from './harness.js';
import { ask } from './recall-support.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const SEARCH = 'SEARCH FOR ';

/** The model: told "SEARCH FOR <query>", it calls conversation_search with that query, then says so. */
function searchingModel(harness: Harness): void {
  harness.fake.rule((req) => {
    const body = req.body as { messages: { content: unknown }[] };
    const blocks = body.messages.flatMap((m) =>
      Array.isArray(m.content) ? (m.content as { type: string; text?: string }[]) : [],
    );
    // The memory backfill is a tool result too: only the answer to the search counts.
    if (blocks.some((b) => b.type === 'tool_result' && JSON.stringify(b).includes('past conversations')))
      return text('Searched.');
    const query = blocks.find((b) => b.type === 'text' && b.text?.startsWith(SEARCH))?.text;
    return query === undefined
      ? text('Noted.')
      : toolUse({ name: 'conversation_search', input: { query: query.slice(SEARCH.length) } });
  });
}

/** What conversation_search returned for `query`. */
async function search(harness: Harness, query: string): Promise<string> {
  const { events } = await ask(harness.core.handlers, harness.core.bus, `${SEARCH}${query}`);
  const result = events.find((e) => e.type === 'tool.result');
  expect(result).toMatchObject({ name: 'conversation_search', isError: false });
  return result && 'result' in result ? result.result : '';
}

describe('conversation_search with quotes', () => {
  it('finds a phrase of stop words only where it is said; a quoted word only as written', async () => {
    h = await startHarness();
    searchingModel(h);
    const { handlers, bus } = h.core;
    for (const said of [
      'Hamlet asked whether to be or not to be.',
      'I would like to be at home by eight.',
      'We liked that restaurant on the corner.',
      'Two restaurants were closed on Monday.',
    ])
      await ask(handlers, bus, said);

    const phrase = await search(h, '"to be or not to be"');
    expect(phrase).toContain('Hamlet asked whether to be or not to be.');
    expect(phrase).not.toContain('at home by eight');

    const exact = await search(h, '"restaurants"');
    expect(exact).toContain('Two restaurants were closed');
    expect(exact).not.toContain('restaurant on the corner');

    const loose = await search(h, 'restaurants');
    expect(loose).toContain('Two restaurants were closed');
    expect(loose).toContain('restaurant on the corner');
  });
});
