// The CLI's printer (issue 11, item 9): text from the model or the memory never reaches the terminal as a
// control sequence. Hostile strings from a table, and a property: the output holds no unsafe character and
// is the input unchanged wherever the input had none.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { visible } from '../../../electron/terminal-text.js';

// eslint-disable-next-line no-control-regex -- the characters a terminal would act on
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const cases: [name: string, input: string, shown: string][] = [
  ['OSC 52 clipboard write (BEL)', '\x1b]52;c;cm0gLXJmIH4=\x07', '\\x1b]52;c;cm0gLXJmIH4=\\x07'],
  ['OSC 52 clipboard write (ST)', '\x1b]52;c;Zm9v\x1b\\', '\\x1b]52;c;Zm9v\\x1b\\'],
  ['CSI erase line and cursor up', 'ok\x1b[2K\x1b[1Ahidden', 'ok\\x1b[2K\\x1b[1Ahidden'],
  [
    'OSC 8 hyperlink',
    '\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\',
    '\\x1b]8;;https://evil.example\\x1b\\click\\x1b]8;;\\x1b\\',
  ],
  ['C1 CSI (one byte)', 'a\u009b2Kb', 'a\\x9b2Kb'],
  ['C1 OSC (one byte)', '\u009d52;c;x\u009c', '\\x9d52;c;x\\x9c'],
  ['carriage return overwrite', 'rm -rf ~\rls', 'rm -rf ~\\x0dls'],
  ['backspaces', 'yes\b\b\bno', 'yes\\x08\\x08\\x08no'],
  ['NUL and DEL', 'a\u0000b\u007fc', 'a\\x00b\\x7fc'],
  ['bell', 'ding\x07', 'ding\\x07'],
  ['bidi override', 'file\u202Egpj.exe', 'file\\u202egpj.exe'],
  ['bidi isolates and marks', '\u2066a\u2069\u200e\u200f\u061c', '\\u2066a\\u2069\\u200e\\u200f\\u061c'],
  ['newlines and tabs stay', 'line 1\n\tline 2\n', 'line 1\n\tline 2\n'],
  ['ordinary text and emoji stay', 'Café ☕ 日本語 🙂', 'Café ☕ 日本語 🙂'],
  ['an escape already visible stays', 'the bytes \\x1b[2K', 'the bytes \\x1b[2K'],
];

describe('visible()', () => {
  it.each(cases)('%s', (_name, input, shown) => {
    expect(visible(input)).toBe(shown);
    expect(visible(input)).not.toMatch(UNSAFE);
  });

  it('never lets an unsafe character through, and leaves safe text alone', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        const out = visible(s);
        expect(out).not.toMatch(UNSAFE);
        if (!UNSAFE.test(s)) expect(out).toBe(s);
      }),
    );
  });
});
