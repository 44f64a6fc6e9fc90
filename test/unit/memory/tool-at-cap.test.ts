// Files at the size cap with the worst shapes for each command: thousands of identical lines, one long
// line, occurrences far apart. Timings are bench/memory's job; here the results must be exact and the work
// linear, counted as the string searches the handlers make.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { splitFacts } from '../../../memory/facts.js';
import { findOccurrences } from '../../../memory/tool.js';
import { agent, sandbox, type Sandbox } from './helpers.js';

const CAP = 100 * 1024;

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(async () => {
  await s.cleanup();
});
const run = (input: unknown) => s.memory.tool.execute(input, agent);

/** Calls of String.prototype[method] made while `fn` runs. */
async function counting<T>(
  method: 'indexOf' | 'trim',
  fn: () => T | Promise<T>,
): Promise<{ calls: number; value: T }> {
  const original = String.prototype[method] as (...args: unknown[]) => unknown;
  let calls = 0;
  Object.defineProperty(String.prototype, method, {
    configurable: true,
    writable: true,
    value: function (this: string, ...args: unknown[]) {
      calls++;
      return original.apply(this, args);
    },
  });
  try {
    const value = await fn();
    return { calls, value };
  } finally {
    Object.defineProperty(String.prototype, method, { configurable: true, writable: true, value: original });
  }
}

/** The reference: every (overlapping) occurrence, its line, as the tool reported them before. */
function naive(content: string, needle: string) {
  const lines: number[] = [];
  let first = -1;
  let count = 0;
  for (let i = 0; i + needle.length <= content.length; i++) {
    if (content.startsWith(needle, i)) {
      if (first === -1) first = i;
      count++;
      const line = content.slice(0, i).split('\n').length;
      if (!lines.includes(line)) lines.push(line);
    }
  }
  return {
    first,
    unique: count === 1,
    lines: count > 1 ? lines.slice(0, 20) : [],
    more: count > 1 && lines.length > 20,
  };
}

describe('str_replace on a file at the cap', () => {
  const same = 'note\n'.repeat(CAP / 5); // 20,480 identical lines, exactly the cap

  it('refuses a repeated old_str with the first 20 lines, and says there are more', async () => {
    await s.memory.write('/memories/big.md', same, null);
    const r = await run({ command: 'str_replace', path: '/memories/big.md', old_str: 'note', new_str: 'x' });
    expect(r).toEqual({
      isError: true,
      content:
        'Error: No replacement was performed. Multiple occurrences of old_str `note` in lines: ' +
        '1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and later lines. Please ensure it is unique',
    });
    const missing = await run({
      command: 'str_replace',
      path: '/memories/big.md',
      old_str: 'nope',
      new_str: 'x',
    });
    expect(missing.content).toBe(
      'Error: No replacement was performed, old_str `nope` did not appear verbatim in /memories/big.md.',
    );
  });

  it('lists occurrences far apart by their lines, and one long line once', async () => {
    const lines = 'filler line\n'.repeat(8000).split('\n');
    lines[4999] = 'the needle here';
    lines[7999] = 'and the needle again';
    await s.memory.write('/memories/far.md', lines.join('\n'), null);
    const far = await run({
      command: 'str_replace',
      path: '/memories/far.md',
      old_str: 'needle',
      new_str: 'x',
    });
    expect(far.content).toBe(
      'Error: No replacement was performed. Multiple occurrences of old_str `needle` in lines: 5000, 8000. Please ensure it is unique',
    );
    await s.memory.write('/memories/long.md', 'a'.repeat(CAP), null);
    const long = await run({
      command: 'str_replace',
      path: '/memories/long.md',
      old_str: 'aa',
      new_str: 'b',
    });
    expect(long.content).toBe(
      'Error: No replacement was performed. Multiple occurrences of old_str `aa` in lines: 1. Please ensure it is unique',
    );
  });

  it('replaces a unique line at the end and shows it with its line number', async () => {
    await s.memory.write('/memories/big.md', same.slice(0, -10) + 'last one\n', null);
    const r = await run({
      command: 'str_replace',
      path: '/memories/big.md',
      old_str: 'last one',
      new_str: 'the end',
    });
    expect(r.isError).toBe(false);
    expect(r.content.split('\n').slice(1)).toEqual([
      ' 20477\tnote',
      ' 20478\tnote',
      ' 20479\tthe end',
      ' 20480\t',
    ]);
  });

  it('shows a change on one long line within the view limit, and says how to see it', async () => {
    const line = 'w'.repeat(CAP - 100) + ' MARK ' + 'z'.repeat(50);
    await s.memory.write('/memories/line.md', `top\n${line}\nend\n`, null);
    const r = await run({
      command: 'str_replace',
      path: '/memories/line.md',
      old_str: 'MARK',
      new_str: 'DONE',
    });
    expect(r.isError).toBe(false);
    expect(r.content.length).toBeLessThan(16_000 + 300);
    expect(r.content).toMatch(
      /\n\[Snippet cut at 16000 characters\. Use view with view_range \[2, 2\] to check the change\.\]$/,
    );
    expect((await s.memory.read('/memories/line.md')).content).toBe(
      `top\n${line.replace('MARK', 'DONE')}\nend\n`,
    );
    const ins = await run({
      command: 'insert',
      path: '/memories/line.md',
      insert_line: 3,
      insert_text: 'x'.repeat(90),
    });
    expect(ins.content.length).toBeLessThan(16_000 + 300);
  });

  it('searches a constant number of times, and reads each line break at most a few times', async () => {
    const text = 'note\n'.repeat(2000);
    await s.memory.write('/memories/n.md', text, null);
    const tool = await counting('indexOf', () =>
      run({ command: 'str_replace', path: '/memories/n.md', old_str: 'note', new_str: 'x' }),
    );
    expect(tool.value.isError).toBe(true);
    expect(tool.calls).toBeLessThan(1000);
    await s.memory.write('/memories/u.md', text + 'unique\n', 'any');
    const ok = await counting('indexOf', () =>
      run({ command: 'str_replace', path: '/memories/u.md', old_str: 'unique', new_str: 'x' }),
    );
    expect(ok.value.isError).toBe(false);
    // linear: a few passes over 2,000 line breaks (the line of the change, the changed lines' numbers)
    expect(ok.calls).toBeLessThan(4 * 2000 + 1000);
    const found = await counting('indexOf', () => findOccurrences(text, 'note'));
    expect(found.value.lines).toHaveLength(20);
    // 2 searches for uniqueness, then per listed line: one search, one end of line, two line-break reads
    expect(found.calls).toBeLessThanOrEqual(2 + 4 * 21);
  });

  it('property: occurrences and their lines are what a search of every offset finds', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', '\n', 'ab', 'a\n'), { maxLength: 60 })
      .map((p) => p.join(''));
    const needle = fc.constantFrom('a', 'aa', 'ab', 'b\na', '\n', 'ba');
    fc.assert(
      fc.property(text, needle, (t, n) => {
        expect(findOccurrences(t, n)).toEqual(naive(t, n));
      }),
      { numRuns: 1000 },
    );
    const many = Array.from({ length: 30 }, (_, i) => (i % 2 ? 'x a a\n' : 'y\n')).join('');
    expect(findOccurrences(many, 'a')).toEqual(naive(many, 'a'));
    expect(findOccurrences(many, 'a').more).toBe(false);
    const more = 'a\n'.repeat(21);
    expect(findOccurrences(more, 'a')).toEqual({
      first: 0,
      unique: false,
      lines: naive(more, 'a').lines,
      more: true,
    });
  });
});

describe('every command on a file at the cap', () => {
  it('view, view_range, create, insert, rename and delete answer correctly', async () => {
    const lines = Array.from({ length: 10240 }, (_, i) => `l${String(i + 1).padStart(8, '0')}`);
    const text = lines.join('\n') + '\n'; // 10 bytes a line: the cap exactly
    expect(Buffer.byteLength(text)).toBe(CAP);
    const created = await run({ command: 'create', path: '/memories/cap.md', file_text: text });
    expect(created.isError).toBe(false);
    const whole = await run({ command: 'view', path: '/memories/cap.md' });
    expect(whole.content).toMatch(
      /\[Output cut at 16000 characters: showing lines 1-\d+ of 10241\. Use view_range/,
    );
    const tail = await run({ command: 'view', path: '/memories/cap.md', view_range: [10239, -1] });
    expect(tail.content.split('\n').slice(1)).toEqual([' 10239\tl00010239', ' 10240\tl00010240', ' 10241\t']);
    const over = await run({
      command: 'insert',
      path: '/memories/cap.md',
      insert_line: 10241,
      insert_text: 'x',
    });
    expect(over.content).toMatch(/above the 102400-byte limit per file/);
    await s.memory.write('/memories/cap.md', text.slice(10), 'any');
    const ins = await run({
      command: 'insert',
      path: '/memories/cap.md',
      insert_line: 10239,
      insert_text: 'end!',
    });
    expect(ins.isError).toBe(false);
    expect(ins.content).toContain(' 10240\tend!');
    const renamed = await run({
      command: 'rename',
      old_path: '/memories/cap.md',
      new_path: '/memories/c2.md',
    });
    expect(renamed.isError).toBe(false);
    expect((await s.memory.read('/memories/c2.md')).content).toBe(text.slice(10).replace(/\n$/, '\nend!\n'));
    expect((await run({ command: 'delete', path: '/memories/c2.md' })).isError).toBe(false);
  });
});

describe('facts of a file at the cap', () => {
  it('a run of blank lines is read once, not once per blank line', async () => {
    const text = '- first\n' + '\n'.repeat(3000) + '- last\n';
    const { calls, value } = await counting('trim', () => splitFacts(text));
    expect(value.map((f) => f.text)).toEqual(['first', 'last']);
    expect(calls).toBeLessThan(10 * 3000);
  });
});
