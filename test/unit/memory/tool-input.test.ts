// The tool's well-formed inputs are recognised without the zod schema (tool.ts wellFormed), for speed; the
// schema stays the one judge: whatever the shortcut accepts, the schema accepts too and returns the same
// data, and what it does not accept goes to the schema (which words the refusal).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolInputSchema, wellFormed } from '../../../memory/tool.js';

const value = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('/memories/a.md', '', 'view', 'x'),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(2 ** 53, -(2 ** 53), 1.5, -0, NaN, Infinity, 1e21),
  fc.constantFrom(null, undefined, true, {}, []),
  fc.tuple(fc.integer({ min: -2, max: 9 }), fc.integer({ min: -2, max: 9 })),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 2 }), fc.constant(1.5)), { maxLength: 3 }),
);
const field = fc.constantFrom(
  'command',
  'path',
  'file_text',
  'old_str',
  'new_str',
  'insert_line',
  'insert_text',
  'old_path',
  'new_path',
  'view_range',
  'extra',
);
const commandName = fc.constantFrom('view', 'create', 'str_replace', 'insert', 'delete', 'rename', 'View', 7);
const input = fc.oneof(
  fc
    .tuple(commandName, fc.dictionary(field, value, { maxKeys: 6 }))
    .map(([command, rest]) => ({ ...rest, command })),
  fc.dictionary(field, value, { maxKeys: 4 }),
  value,
);

/** The schema's data with absent and undefined fields alike (the handlers read `?? default`). */
const defined = (o: object): object => JSON.parse(JSON.stringify(o)) as object;

describe('tool input: the shortcut agrees with the schema', () => {
  it('accepts only what the schema accepts, with the same data', () => {
    fc.assert(
      fc.property(input, (raw) => {
        const fast = wellFormed(raw);
        const slow = toolInputSchema.safeParse(raw);
        if (fast === undefined) return;
        expect(slow.success).toBe(true);
        expect(defined(fast)).toEqual(defined(slow.data!));
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    [{ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' }],
    [{ command: 'delete', path: '/memories/a.md' }],
    [{ command: 'create', path: '/memories/a.md', file_text: 'x' }],
    [{ command: 'str_replace', path: '/memories/a.md', old_str: 'a', new_str: 'b' }],
    [{ command: 'str_replace', path: '/memories/a.md', old_str: 'a' }],
    [{ command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'x' }],
    [{ command: 'view', path: '/memories' }],
    [{ command: 'view', path: '/memories/a.md', view_range: [1, -1] }],
  ])('takes the shortcut for the well-formed %j', (raw) => {
    expect(wellFormed(raw)).toEqual(toolInputSchema.parse(raw));
  });

  it.each([
    [{ command: 'insert', path: '/memories/a.md', insert_line: 1.5, insert_text: 'x' }],
    [{ command: 'insert', path: '/memories/a.md', insert_line: 2 ** 53, insert_text: 'x' }],
    [{ command: 'view', path: '/memories/a.md', view_range: [1, 2, 3] }],
    [{ command: 'rename', old_path: '/memories/a.md' }],
    [Object.assign(['x'], { command: 'delete', path: '/memories/a.md' })],
    [{ command: 'str_replace', path: '/memories/a.md', old_str: 'a', new_str: 3 }],
  ])('leaves %j to the schema', (raw) => {
    expect(wellFormed(raw)).toBeUndefined();
  });
});
