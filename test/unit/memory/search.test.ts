import { link, mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { BetaToolUnion } from '@anthropic-ai/sdk/resources/beta/messages/messages.js';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { buildGrams, mayContain, queryGrams } from '../../../memory/search/grams.js';
import { createMemory, type Memory } from '../../../memory/index.js';
import {
  createMemorySearchTool,
  fold,
  MemorySearch,
  SNIPPET_CHARS,
  type SearchOptions,
} from '../../../memory/search/index.js';

let dir: string;
let root: string;
let opened: Memory[] = [];

/** An index over a memory opened on the test's data folder now (search reads through its API only). */
async function searchOver(
  options: Omit<SearchOptions, 'source'> = {},
  memoryOptions: { watch?: boolean } = {},
): Promise<MemorySearch> {
  const memory = await createMemory({ dataDir: dir, watch: false, watchDebounceMs: 10, ...memoryOptions });
  opened.push(memory);
  return new MemorySearch({ ...options, source: memory });
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mnemo-search-'));
  root = path.join(dir, 'memories');
  await mkdir(path.join(root, 'people'), { recursive: true });
  await writeFile(
    path.join(root, 'preferences.md'),
    '# Preferences\n\n- Likes green TEA\n- tea, tea and more tea\n',
  );
  await writeFile(path.join(root, 'people', 'anna.md'), 'Anna is allergic to peanuts.\r\nShe likes Tea.\r\n');
  await writeFile(path.join(root, 'notes.md'), 'nothing here\n');
});
afterEach(async () => {
  for (const m of opened) await m.close();
  opened = [];
  await rm(dir, { recursive: true, force: true });
});

describe('MemorySearch', () => {
  test('finds matching lines case-insensitively with line numbers, snippets and ranges, in path order', async () => {
    const search = await searchOver();
    const result = await search.search('tea', 50);
    expect(result.hits).toEqual([
      { path: '/memories/people/anna.md', line: 2, snippet: 'She likes Tea.', ranges: [[10, 13]] },
      { path: '/memories/preferences.md', line: 3, snippet: '- Likes green TEA', ranges: [[14, 17]] },
      {
        path: '/memories/preferences.md',
        line: 4,
        snippet: '- tea, tea and more tea',
        ranges: [
          [2, 5],
          [7, 10],
          [20, 23],
        ],
      },
    ]);
    expect(result.truncated).toBe(false);
    expect(result.total).toBe(3);
    expect(result.filesSearched).toBe(3);
  });

  test('a phrase matches literally, regex characters included', async () => {
    await writeFile(path.join(root, 'regex.md'), 'price is $5.00 (approx.)\nprice is 5500\n');
    const search = await searchOver();
    const result = await search.search('$5.00 (APPROX', 10);
    expect(result.hits.map((h) => [h.path, h.line, h.ranges])).toEqual([
      ['/memories/regex.md', 1, [[9, 22]]],
    ]);
    expect((await search.search('no such words', 10)).hits).toEqual([]);
  });

  test('limit caps the hits and reports truncation with the total', async () => {
    const many = Array.from({ length: 30 }, (_, i) => `line ${i} mentions cats`).join('\n');
    await writeFile(path.join(root, 'cats.md'), many);
    const search = await searchOver();
    const result = await search.search('cats', 5);
    expect(result.hits.map((h) => h.line)).toEqual([1, 2, 3, 4, 5]);
    expect(result.truncated).toBe(true);
    expect(result.total).toBe(30);
    const capped = await (await searchOver({ countCap: 10 })).search('cats', 5);
    expect(capped.countCapped).toBe(true);
    expect(capped.total).toBe(10);
  });

  test('the total counts matching lines across files past the limit', async () => {
    await writeFile(path.join(root, 'a-cats.md'), 'cats\nno\ncats and cats\n');
    await writeFile(path.join(root, 'b-cats.md'), 'x\ncats\n');
    await writeFile(path.join(root, 'c-cats.md'), 'CATS\ncats\ncats\n');
    const result = await (await searchOver()).search('cats', 3);
    expect(result.hits.map((h) => `${h.path}:${h.line}`)).toEqual([
      '/memories/a-cats.md:1',
      '/memories/a-cats.md:3',
      '/memories/b-cats.md:2',
    ]);
    expect(result.total).toBe(6);
    expect(result.truncated).toBe(true);
  });

  test('the trigram filter never hides a file that contains the query', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.nat(), fc.nat(), (text, a, b) => {
        const folded = fold(text);
        const start = a % (folded.length + 1);
        const query = folded.slice(start, start + (b % 12));
        expect(mayContain(buildGrams(folded), queryGrams(query))).toBe(true);
      }),
      { numRuns: 500 },
    );
    expect(mayContain(buildGrams('the quick brown fox'), queryGrams('zebra'))).toBe(false);
  });

  test('a long line becomes a window around the first match with shifted ranges', async () => {
    const line = 'x'.repeat(1000) + 'NEEDLE' + 'y'.repeat(1000);
    await writeFile(path.join(root, 'long.md'), line);
    const [hit] = (await (await searchOver()).search('needle', 1)).hits;
    expect(hit?.snippet.length).toBeLessThanOrEqual(SNIPPET_CHARS + 2);
    const [start, end] = hit?.ranges[0] ?? [0, 0];
    expect(hit?.snippet.slice(start, end)).toBe('NEEDLE');
    expect(hit?.snippet.startsWith('…')).toBe(true);
    expect(hit?.snippet.endsWith('…')).toBe(true);
  });

  test('ranges stay right when lower-casing would change the length', async () => {
    expect(fold('İstanbul').length).toBe('İstanbul'.length);
    await writeFile(path.join(root, 'trip.md'), 'İİ visit İstanbul in May\n');
    const [hit] = (await (await searchOver()).search('MAY', 5)).hits;
    const [s, e] = hit?.ranges[0] ?? [0, 0];
    expect(hit?.snippet.slice(s, e)).toBe('May');
  });

  test('links, hard links, hidden files, binaries and oversized files are not indexed', async () => {
    const outside = path.join(dir, 'outside-secret.md');
    await writeFile(outside, 'classified tea recipe\n');
    await symlink(outside, path.join(root, 'link.md'));
    await symlink(dir, path.join(root, 'linked-folder'));
    await link(outside, path.join(root, 'hard.md'));
    await writeFile(path.join(root, '.tmp-write-123'), 'classified tea\n');
    await writeFile(path.join(root, 'binary.md'), Buffer.from([0x63, 0x6c, 0x61, 0xff, 0xfe, 0x00]));
    await writeFile(path.join(root, 'big.md'), 'classified\n'.repeat(200));
    const search = await searchOver({ maxFileBytes: 1000 });
    const result = await search.search('classified', 50);
    expect(result.hits).toEqual([]);
    expect(result.filesSearched).toBe(3);
  });

  test('an invalidated path is re-read before the next query; a removed folder leaves the index', async () => {
    const search = await searchOver({ rescanIntervalMs: 3_600_000 });
    expect((await search.search('peanuts', 10)).hits).toHaveLength(1);
    await writeFile(path.join(root, 'people', 'anna.md'), 'Anna now eats peanuts.\nAnd peanuts again.\n');
    // Without the event the stale copy answers (proves the index is not a re-read per query)...
    expect((await search.search('peanuts', 10)).hits.map((h) => h.snippet)).toEqual([
      'Anna is allergic to peanuts.',
    ]);
    // ...and with it the new content does.
    search.invalidate('/memories/people/anna.md');
    expect((await search.search('peanuts', 10)).hits.map((h) => h.line)).toEqual([1, 2]);
    await rm(path.join(root, 'people'), { recursive: true });
    search.invalidate('/memories/people');
    expect((await search.search('peanuts', 10)).hits).toEqual([]);
    await opened[0]!.write('/memories/new/deep/x.md', 'peanuts\n', null);
    search.invalidate('/memories/new');
    expect((await search.search('peanuts', 10)).hits.map((h) => h.path)).toEqual(['/memories/new/deep/x.md']);
  });

  test('close stops a build in progress before it reads the files', async () => {
    const search = await searchOver();
    const building = search.warm();
    search.close();
    await building;
    expect(search.fileCount).toBeLessThan(3);
  });

  test('the rescan notices files changed behind its back', async () => {
    // Another program edits the folder; the memory's watcher notices, and the rescan reads what it lists.
    const search = await searchOver({ rescanIntervalMs: 0 }, { watch: true });
    expect((await search.search('zebra', 10)).hits).toEqual([]);
    await writeFile(path.join(root, 'zoo.md'), 'a zebra\n');
    await unlink(path.join(root, 'notes.md'));
    await expect
      .poll(async () => {
        const result = await search.search('zebra', 10);
        return [result.hits.map((h) => h.path), result.filesSearched];
      })
      .toEqual([['/memories/zoo.md'], 3]);
  });
});

describe('memory_search tool', () => {
  test('returns matching lines as /memories/path:line: text', async () => {
    const tool = createMemorySearchTool(await searchOver());
    const result = await tool.execute({ query: 'TEA' });
    expect(result).toEqual({
      isError: false,
      content: [
        '/memories/people/anna.md:2: She likes Tea.',
        '/memories/preferences.md:3: - Likes green TEA',
        '/memories/preferences.md:4: - tea, tea and more tea',
      ].join('\n'),
    });
  });

  test('says when results were cut and how to narrow them', async () => {
    const tool = createMemorySearchTool(await searchOver());
    const result = await tool.execute({ query: 'tea', limit: 2 });
    expect(result.content.split('\n')).toEqual([
      '/memories/people/anna.md:2: She likes Tea.',
      '/memories/preferences.md:3: - Likes green TEA',
      '(2 of 3 matching lines shown. Use a more specific query, or a higher limit (up to 200).)',
    ]);
    const tiny = createMemorySearchTool(await searchOver(), { maxChars: 60 });
    const cut = await tiny.execute({ query: 'tea', limit: 10 });
    expect(cut.content.split('\n')).toEqual([
      '/memories/people/anna.md:2: She likes Tea.',
      '(1 of 3 matching lines shown. Use a more specific query, or view the files listed above.)',
    ]);
  });

  test('no match is a plain answer, not an error', async () => {
    const tool = createMemorySearchTool(await searchOver());
    expect(await tool.execute({ query: 'giraffe' })).toEqual({
      isError: false,
      content: 'No lines in /memories contain "giraffe" (3 files searched).',
    });
  });

  test.each([
    [{}, 'query'],
    [{ query: '' }, 'query must not be empty'],
    [{ query: '   ' }, 'query must not be empty'],
    [{ query: 'x', limit: 0 }, 'limit'],
    [{ query: 'x', limit: 2.5 }, 'limit must be a whole number'],
    [{ query: 'x', limit: 1000 }, 'limit'],
    [{ query: 'x', path: '/etc' }, 'path'],
    ['tea', 'Expected {"query"'],
    [{ query: 'x'.repeat(501) }, 'longer than 500'],
  ])('malformed input %j is an is_error result mentioning %s', async (input, fragment) => {
    const tool = createMemorySearchTool(await searchOver());
    const result = await tool.execute(input);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('Invalid memory_search input');
    expect(result.content).toContain(fragment);
    expect(result.content).not.toContain(dir);
  });

  test('the definition is a JSON schema the API accepts', async () => {
    const tool = createMemorySearchTool(await searchOver());
    expect(tool.definition.name).toBe('memory_search');
    expect(tool.definition.input_schema.required).toEqual(['query']);
    expect(JSON.parse(JSON.stringify(tool.definition))).toEqual(tool.definition);
    // Compiles only if the definition fits the SDK's tool type as is (no cast at the call site).
    const asSdkTool: BetaToolUnion = tool.definition;
    expect(asSdkTool).toBe(tool.definition);
  });
});

describe('names written in NFD on disk', () => {
  test('hits carry the NFC path the memory lists, and a change reaches the index by that path', async () => {
    await writeFile(path.join(root, 'cafe\u0301.md'), 'espresso\n');
    const search = await searchOver();
    expect((await search.search('espresso', 10)).hits.map((h) => h.path)).toEqual(['/memories/café.md']);
    await writeFile(path.join(root, 'cafe\u0301.md'), 'ristretto\n');
    search.invalidate('/memories/café.md');
    expect((await search.search('ristretto', 10)).hits.map((h) => h.path)).toEqual(['/memories/café.md']);
    expect((await search.search('espresso', 10)).hits).toEqual([]);
  });

  test('of two names equal in NFC, the one in NFC is indexed and the other is not merged into it', async () => {
    await writeFile(path.join(root, 'café.md'), 'composed\n');
    await writeFile(path.join(root, 'cafe\u0301.md'), 'decomposed\n');
    const search = await searchOver();
    expect((await search.search('composed', 10)).hits.map((h) => h.snippet)).toEqual(['composed']);
  });
});
