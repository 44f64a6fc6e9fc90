// Quoted words in a recall query are exact: a phrase made only of stop words ("to be or not to be") is
// found (by its stop pairs, in the index's second field, also after a restart) and only where it is said
// word for word; a quoted single word does not match its inflections, while the same word unquoted does;
// case and accents aside either way. Parsing and matching as pure functions, then through a real index
// over a real conversation store.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecallIndex } from '../../../electron/core/recall/recall-index.js';
import { SCAN_MESSAGES } from '../../../electron/core/recall/search.js';
import { parseQuery, phraseRanges, stopPairs } from '../../../electron/core/recall/text.js';
import { recallFixture, user } from './recall-fixture.js';

describe('parsing and matching quoted words', () => {
  it('a phrase of stop words keeps every word and gives its stop pairs; no term', () => {
    expect(parseQuery('"To be, or not to be"')).toEqual({
      terms: [],
      loose: [],
      phrases: [['to', 'be', 'or', 'not', 'to', 'be']],
      pairs: ['to+be', 'be+or', 'or+not', 'not+to'],
    });
    expect(stopPairs(['saw', 'the', 'Door', 'of', 'THE', 'house'])).toEqual(['of+the']);
  });

  it('a quoted word is a phrase of one, exact; unquoted it is a loose (stemmed) term', () => {
    expect(parseQuery('"Restaurants"')).toMatchObject({
      terms: ['restaur'],
      loose: [],
      phrases: [['restaurants']],
    });
    expect(parseQuery('restaurants')).toMatchObject({ terms: ['restaur'], loose: ['restaur'], phrases: [] });
    expect(parseQuery('“the” dinner "to be')).toMatchObject({
      terms: ['dinner'],
      loose: ['dinner'],
      phrases: [['the']],
      pairs: [],
    });
  });

  it('a phrase matches consecutive words as written, case, accents and punctuation aside', () => {
    const text = 'Well: TO BE, or not to be. The restaurant…';
    const at = (words: string): [number, number] => [text.indexOf(words), text.indexOf(words) + words.length];
    expect(phraseRanges(text, [['to', 'be', 'or', 'not', 'to', 'be']])).toEqual([at('TO BE, or not to be')]);
    expect(phraseRanges(text, [['to', 'be']])).toEqual([at('TO BE'), at('to be')]);
    expect(phraseRanges(text, [['restaurants']])).toBeNull();
    expect(phraseRanges(text, [['restaurant']])).toEqual([at('restaurant')]);
    expect(phraseRanges('Un café crème', [['cafe', 'creme']])).toEqual([[3, 13]]);
    expect(phraseRanges(text, [['be', 'to']])).toBeNull();
  });
});

const { start, restart, indexDir } = recallFixture('mnemo-recall-quotes-');

const found = async (index: RecallIndex, q: string) =>
  (await index.search(q)).hits.map((h) => h.snippet).sort();

describe('quoted words through the recall index', () => {
  it('finds a phrase made only of stop words where it is said, also after a restart', async () => {
    let s = await start();
    await s.store.create({ memory: true, records: [user('To be, or not to be: that was the question')] });
    await s.store.create({ memory: true, records: [user('it has to be done or not at all')] });
    await s.store.create({ memory: true, records: [user('I want to be there')] });
    expect(await found(s.index, '"to be or not to be"')).toEqual([
      'To be, or not to be: that was the question',
    ]);
    expect(await found(s.index, '"to be"')).toHaveLength(3);
    expect(await found(s.index, '"be or not"')).toEqual(['To be, or not to be: that was the question']);
    // Unquoted, stop words find nothing (they would match everything).
    expect(await found(s.index, 'to be or not to be')).toEqual([]);
    const [hit] = (await s.index.search('"TO BE OR NOT"')).hits;
    expect(hit!.ranges.map(([a, b]) => hit!.snippet.slice(a, b))).toEqual(['To be, or not']);

    await s.index.save();
    const files = await readdir(indexDir());
    const saved = await Promise.all(files.map((f) => readFile(path.join(indexDir(), f), 'utf8')));
    expect(saved.join('\n')).toContain('"or+not"');
    s = await restart(s);
    expect(await found(s.index, '"to be or not to be"')).toEqual([
      'To be, or not to be: that was the question',
    ]);
  });

  it('a quoted word is exact; unquoted it matches its inflections', async () => {
    const { store, index } = await start();
    await store.create({ memory: true, records: [user('We liked that restaurant')] });
    await store.create({ memory: true, records: [user('Two RESTAURANTS were closed')] });
    expect(await found(index, 'restaurants')).toHaveLength(2);
    expect(await found(index, '"restaurants"')).toEqual(['Two RESTAURANTS were closed']);
    expect(await found(index, '"Restaurant"')).toEqual(['We liked that restaurant']);
    const [hit] = (await index.search('"restaurants" closed')).hits;
    expect(hit!.ranges.map(([a, b]) => hit!.snippet.slice(a, b))).toEqual(['RESTAURANTS', 'closed']);
  });

  it('a quoted form is found however many messages hold only the other forms of its stem', async () => {
    const { store, index } = await start();
    // The oldest message: the other forms outrank it (newer, equal scores) well past the first candidates.
    await store.create({ memory: true, records: [user('Two RESTAURANTS were closed')] });
    await store.create({
      memory: true,
      records: Array.from({ length: 80 }, (_, i) => user(`restaurant number ${i}`)),
    });
    expect(await found(index, '"restaurants"')).toEqual(['Two RESTAURANTS were closed']);
    expect((await index.search('restaurants', { limit: 100 })).hits).toHaveLength(81);
  });

  it('a lone quoted stop word is looked for in the newest messages', async () => {
    const { store, index } = await start();
    await store.create({ memory: true, records: [user('an apple'), user('the pear'), user('a plum')] });
    expect(await found(index, '"THE"')).toEqual(['the pear']);
    expect(await found(index, '"with"')).toEqual([]);
    expect(SCAN_MESSAGES).toBeGreaterThan(0);
  });
});
