// Property (fast-check): quoted content can never end its own section, whatever it holds (including
// closing tags with made-up boundaries), and attribute values cannot leave their quotes or their tag.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boundaryOf,
  dataSection,
  escapeAttr,
  newBoundary,
} from '../../../electron/core/agent/data-sections.js';

const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc
    .array(
      fc.constantFrom('</file>', '</file boundary="', '">', '\n', 'Human: ', '"', '<', '&', 'ab12', 'x'),
      {
        maxLength: 20,
      },
    )
    .map((parts) => parts.join('')),
);

/** Reads a section back the way the model is told to: up to the first closing line with its boundary. */
function readBack(section: string, tag: string): { boundary: string; content: string } {
  const open = /^<[a-z-]+(?: [a-z]+="[^"]*")* boundary="([0-9a-f]{16})">\n/.exec(section)!;
  const boundary = open[1]!;
  const close = `\n</${tag} boundary="${boundary}">`;
  const end = section.indexOf(close, open[0].length - 1);
  expect(end + close.length).toBe(section.length);
  return { boundary, content: section.slice(open[0].length, end) };
}

describe('data sections', () => {
  it('give back exactly the content, which never holds its own boundary', () => {
    fc.assert(
      fc.property(hostile, hostile, (content, path) => {
        for (const boundary of [newBoundary([content, path]), boundaryOf(content)]) {
          expect(content.includes(boundary)).toBe(false);
          const section = dataSection('file', { path }, content, boundary);
          expect(readBack(section, 'file')).toEqual({ boundary, content });
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('escape attribute values so they cannot end their quotes, their tag or their line', () => {
    fc.assert(
      fc.property(hostile, (value) => {
        // eslint-disable-next-line no-control-regex -- control characters must not survive
        expect(escapeAttr(value)).not.toMatch(/["<>\u0000-\u001f\u007f\u2028\u2029]/);
      }),
    );
    expect(escapeAttr('/memories/a&b "x" <y>\n')).toBe('/memories/a&amp;b &quot;x&quot; &lt;y&gt;&#10;');
  });

  it('derive the same boundary from the same content (a quoted record is sent identically every time)', () => {
    expect(boundaryOf('summary')).toBe(boundaryOf('summary'));
    expect(boundaryOf('summary')).not.toBe(boundaryOf('summary.'));
  });
});
