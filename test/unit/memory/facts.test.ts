import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { FactError, removeFact, splitFacts, type Fact } from '../../../memory/facts.js';

const doc = [
  '---',
  'title: notes',
  '---',
  '# Preferences',
  '',
  '- likes tea',
  '  and biscuits',
  '- coffee',
  '  - espresso only',
  '  - no sugar',
  '- [ ] call mum',
  '',
  '1. first',
  '2) second',
  '',
  'A paragraph',
  'over two lines.',
  '',
  '## Empty',
  '',
  'Setext',
  '======',
  '',
  '```js',
  'code()',
  '```',
  '',
  '> quoted',
  '> words',
  '',
  '---',
  '',
  '* star item',
  '',
].join('\n');

const byText = (facts: Fact[], text: string): Fact => {
  const f = facts.find((x) => x.text === text);
  if (!f) throw new Error(`no fact ${text}`);
  return f;
};

describe('splitFacts', () => {
  const facts = splitFacts(doc);

  test('lists items, nested items, paragraphs, blocks and headings in order with line numbers', () => {
    expect(facts.map((f) => [f.kind, f.text, f.line, f.depth])).toEqual([
      ['heading', 'Preferences', 4, 0],
      ['item', 'likes tea and biscuits', 6, 0],
      ['item', 'coffee', 8, 0],
      ['item', 'espresso only', 9, 1],
      ['item', 'no sugar', 10, 1],
      ['item', '[ ] call mum', 11, 0],
      ['item', 'first', 13, 0],
      ['item', 'second', 14, 0],
      ['paragraph', 'A paragraph over two lines.', 16, 0],
      ['heading', 'Empty', 19, 0],
      ['heading', 'Setext', 21, 0],
      ['paragraph', 'code()', 24, 0],
      ['paragraph', 'quoted words', 28, 0],
      ['item', 'star item', 33, 0],
    ]);
  });

  test('nested items point at their parent; headings carry their level', () => {
    expect(byText(facts, 'espresso only').parentId).toBe(byText(facts, 'coffee').id);
    expect(byText(facts, 'coffee').parentId).toBeUndefined();
    expect(byText(facts, 'Empty').level).toBe(2);
    expect(byText(facts, 'Setext').level).toBe(1);
    expect(byText(facts, 'likes tea and biscuits').endLine).toBe(7);
  });

  test('ids are stable across edits elsewhere and distinct for identical facts', () => {
    const twice = splitFacts('- same\n- same\n- other\n');
    expect(new Set(twice.map((f) => f.id)).size).toBe(3);
    const edited = splitFacts(doc.replace('A paragraph', 'Another paragraph'));
    expect(byText(edited, 'coffee').id).toBe(byText(facts, 'coffee').id);
    expect(byText(edited, 'star item').id).toBe(byText(facts, 'star item').id);
  });

  test('an empty file and CRLF files work', () => {
    expect(splitFacts('')).toEqual([]);
    const crlf = splitFacts('# T\r\n\r\n- a\r\n- b\r\n');
    expect(crlf.map((f) => f.text)).toEqual(['T', 'a', 'b']);
    expect(removeFact('# T\r\n\r\n- a\r\n- b\r\n', crlf[1]?.id ?? '')).toBe('# T\r\n\r\n- b\r\n');
  });
});

describe('removeFact', () => {
  const facts = splitFacts(doc);

  test('removes an item with its continuation lines', () => {
    const out = removeFact(doc, byText(facts, 'likes tea and biscuits').id);
    expect(out).toBe(doc.replace('- likes tea\n  and biscuits\n', ''));
  });

  test('removes an item with its nested items, or one nested item alone', () => {
    expect(removeFact(doc, byText(facts, 'coffee').id)).toBe(
      doc.replace('- coffee\n  - espresso only\n  - no sugar\n', ''),
    );
    expect(removeFact(doc, byText(facts, 'no sugar').id)).toBe(doc.replace('  - no sugar\n', ''));
  });

  test('removes a paragraph and one blank separator', () => {
    const out = removeFact(doc, byText(facts, 'A paragraph over two lines.').id);
    expect(out).toBe(doc.replace('A paragraph\nover two lines.\n\n', ''));
  });

  test('a heading goes only once its section is empty', () => {
    expect(removeFact(doc, byText(facts, 'Empty').id)).toBe(doc.replace('## Empty\n\n', ''));
    const attempt = (): string => removeFact(doc, byText(facts, 'Preferences').id);
    expect(attempt).toThrow(FactError);
    expect(attempt).toThrow('The heading "Preferences" still has 9 facts under it');
  });

  test('an unknown id is not_found', () => {
    try {
      removeFact(doc, 'nope-0');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(FactError);
      expect((error as FactError).code).toBe('not_found');
    }
  });
});

// Documents built from Markdown blocks a memory file typically holds.
const word = fc.stringMatching(/^[a-z]{1,8}$/);
const words = fc.array(word, { minLength: 1, maxLength: 5 }).map((w) => w.join(' '));
const list: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.constantFrom('- ', '* ', '+ ', '1. ', '2) ', '- [ ] ', '- [x] '),
      words,
      fc.array(words, { maxLength: 2 }),
      fc.array(words, { maxLength: 2 }),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((items) =>
    items
      .map(([marker, text, continuation, nested]) =>
        [
          marker + text,
          ...continuation.map((c) => ' '.repeat(marker.length) + c),
          ...nested.map((n) => ' '.repeat(marker.length) + '- ' + n),
        ].join('\n'),
      )
      .join('\n'),
  );
const block = fc.oneof(
  list,
  fc.array(words, { minLength: 1, maxLength: 3 }).map((l) => l.join('\n')),
  fc.tuple(fc.integer({ min: 1, max: 3 }), words).map(([n, t]) => `${'#'.repeat(n)} ${t}`),
  words.map((t) => '```\n' + t + '\n```'),
  words.map((t) => `> ${t}`),
);
const markdown = fc
  .tuple(fc.array(block, { minLength: 1, maxLength: 8 }), fc.boolean())
  .map(([blocks, trailing]) => blocks.join('\n\n') + (trailing ? '\n' : ''));

/** The exact text of a fact's own lines, to prove the others stay byte-identical. */
function rawLines(content: string, f: Fact): string {
  return content
    .split('\n')
    .slice(f.line - 1, f.endLine)
    .join('\n');
}

function descendants(facts: Fact[], id: string): Set<string> {
  const out = new Set([id]);
  for (const f of facts) if (f.parentId && out.has(f.parentId)) out.add(f.id);
  return out;
}

describe('removeFact properties', () => {
  test('removing one fact leaves every other fact byte-identical and in order', () => {
    fc.assert(
      fc.property(markdown, fc.nat(), (content, pick) => {
        const facts = splitFacts(content);
        fc.pre(facts.length > 0);
        const target = facts[pick % facts.length];
        if (!target) return;
        let out: string;
        try {
          out = removeFact(content, target.id);
        } catch (error) {
          // Only a heading with facts under it may refuse.
          expect(error).toBeInstanceOf(FactError);
          expect(target.kind).toBe('heading');
          return;
        }
        const gone = descendants(facts, target.id);
        const expected = facts.filter((f) => !gone.has(f.id));
        const after = splitFacts(out);
        expect(after.map((f) => [f.kind, f.text, f.depth])).toEqual(
          expected.map((f) => [f.kind, f.text, f.depth]),
        );
        after.forEach((f, i) => {
          const before = expected[i];
          if (before) expect(rawLines(out, f)).toBe(rawLines(content, before));
        });
        expect(out.length).toBeLessThan(content.length);
      }),
      { numRuns: 400 },
    );
  });

  test('any text splits without throwing and every listed fact can be removed or is a guarded heading', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (content) => {
        for (const f of splitFacts(content)) {
          try {
            expect(removeFact(content, f.id).length).toBeLessThan(content.length);
          } catch (error) {
            expect((error as FactError).code).toBe('not_removable');
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
