import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemory } from '../../../memory/index.js';
import { agent, sandbox, type Sandbox } from './helpers.js';

let s: Sandbox;
beforeEach(async () => {
  s = await sandbox();
});
afterEach(async () => {
  await s.cleanup();
});
const run = (input: unknown) => s.memory.tool.execute(input, agent);

describe('memory tool', () => {
  it('creates, views with line numbers, and refuses to create over an existing file', async () => {
    expect(await run({ command: 'create', path: '/memories/notes/a.md', file_text: 'one\ntwo' })).toEqual({
      content: 'File created successfully at: /memories/notes/a.md',
      isError: false,
    });
    const host = path.join(s.dataDir, 'memories', 'notes', 'a.md');
    expect(await readFile(host, 'utf8')).toBe('one\ntwo');
    expect((await stat(host)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(host))).mode & 0o777).toBe(0o700);
    const v = await run({ command: 'view', path: '/memories/notes/a.md' });
    expect(v.content).toBe(
      "Here's the content of /memories/notes/a.md with line numbers:\n     1\tone\n     2\ttwo",
    );
    const again = await run({ command: 'create', path: '/memories/notes/a.md', file_text: 'x' });
    expect(again).toEqual({ content: 'Error: File /memories/notes/a.md already exists', isError: true });
  });

  it('refuses a name that differs from a sibling only by case, and frees it once the sibling is gone', async () => {
    await run({ command: 'create', path: '/memories/Notes.md', file_text: 'a' });
    const clash = await run({ command: 'create', path: '/memories/NOTES.md', file_text: 'b' });
    expect(clash.isError).toBe(true);
    expect(clash.content).toContain(
      'differs only in letter case or Unicode form from the existing "Notes.md"',
    );
    // Renaming to a case variant of itself is not a collision with itself.
    expect(
      (await run({ command: 'rename', old_path: '/memories/Notes.md', new_path: '/memories/notes.md' }))
        .isError,
    ).toBe(false);
    expect((await run({ command: 'create', path: '/memories/NOTES.md', file_text: 'b' })).isError).toBe(true);
    await run({ command: 'delete', path: '/memories/notes.md' });
    expect((await run({ command: 'create', path: '/memories/NOTES.md', file_text: 'b' })).isError).toBe(
      false,
    );
    // Unicode compatibility forms: the "ﬁ" ligature folds to "fi" (paths are NFC already, so "é" in two
    // forms is simply the same name).
    await run({ command: 'create', path: '/memories/file.md', file_text: 'c' });
    const ligature = await run({ command: 'create', path: '/memories/\ufb01le.md', file_text: 'd' });
    expect(ligature.isError).toBe(true);
    expect(ligature.content).toContain(
      'differs only in letter case or Unicode form from the existing "file.md"',
    );
  });

  it('lists a folder two levels deep with sizes', async () => {
    await run({ command: 'create', path: '/memories/a.md', file_text: 'x'.repeat(10) });
    await run({ command: 'create', path: '/memories/f/b.md', file_text: 'y'.repeat(2048) });
    await run({ command: 'create', path: '/memories/f/g/c.md', file_text: 'z' });
    await run({ command: 'create', path: '/memories/f/g/h/d.md', file_text: 'deep' });
    const v = await run({ command: 'view', path: '/memories' });
    expect(v.content).toBe(
      [
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:",
        '2.0K\t/memories',
        '10B\t/memories/a.md',
        '2.0K\t/memories/f/',
        '2.0K\t/memories/f/b.md',
        '5B\t/memories/f/g/',
      ].join('\n'),
    );
  });

  it('str_replace needs exactly one occurrence in the whole text, multi-line included', async () => {
    await run({ command: 'create', path: '/memories/a.md', file_text: 'alpha beta\ngamma\ndelta alpha' });
    const multi = await run({
      command: 'str_replace',
      path: '/memories/a.md',
      old_str: 'alpha',
      new_str: 'X',
    });
    expect(multi.isError).toBe(true);
    expect(multi.content).toContain('Multiple occurrences of old_str `alpha` in lines: 1, 3');
    const ml = await run({
      command: 'str_replace',
      path: '/memories/a.md',
      old_str: 'beta\ngamma',
      new_str: 'B\nG',
    });
    expect(ml.isError).toBe(false);
    expect(await readFile(path.join(s.dataDir, 'memories', 'a.md'), 'utf8')).toBe('alpha B\nG\ndelta alpha');
    const omitted = await run({ command: 'str_replace', path: '/memories/a.md', old_str: 'delta ' });
    expect(omitted.isError).toBe(false);
    expect(await readFile(path.join(s.dataDir, 'memories', 'a.md'), 'utf8')).toBe('alpha B\nG\nalpha');
  });

  it('insert at 0..n and refuses outside', async () => {
    await run({ command: 'create', path: '/memories/a.md', file_text: 'a\nb' });
    expect(
      (await run({ command: 'insert', path: '/memories/a.md', insert_line: 0, insert_text: 'top\n' }))
        .isError,
    ).toBe(false);
    expect(
      (await run({ command: 'insert', path: '/memories/a.md', insert_line: 3, insert_text: 'end' })).isError,
    ).toBe(false);
    expect(await readFile(path.join(s.dataDir, 'memories', 'a.md'), 'utf8')).toBe('top\na\nb\nend');
    const bad = await run({ command: 'insert', path: '/memories/a.md', insert_line: 9, insert_text: 'x' });
    expect(bad.content).toBe(
      'Error: Invalid `insert_line` parameter: 9. It should be within the range of lines of the file: [0, 4]',
    );
  });

  it('rename never overwrites; delete removes folders; the root is protected', async () => {
    await run({ command: 'create', path: '/memories/a.md', file_text: 'a' });
    await run({ command: 'create', path: '/memories/b.md', file_text: 'b' });
    expect(
      (await run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' })).content,
    ).toBe('Error: The destination /memories/b.md already exists');
    expect(
      (await run({ command: 'rename', old_path: '/memories/a.md', new_path: '/memories/d/c.md' })).content,
    ).toBe('Successfully renamed /memories/a.md to /memories/d/c.md');
    expect(
      (await run({ command: 'rename', old_path: '/memories/d', new_path: '/memories/d/e' })).isError,
    ).toBe(true);
    expect((await run({ command: 'delete', path: '/memories/d' })).content).toBe(
      'Successfully deleted /memories/d',
    );
    expect((await run({ command: 'delete', path: '/memories' })).content).toBe(
      'Error: Cannot delete the /memories directory itself',
    );
  });
});

describe('memory tool output limits and forms', () => {
  it('caps view output and says how to page with view_range', async () => {
    await s.cleanup();
    s = await sandbox({ limits: { viewCapChars: 200 } });
    const text = Array.from({ length: 50 }, (_, i) => `line number ${i + 1}`).join('\n');
    await run({ command: 'create', path: '/memories/long.md', file_text: text });
    const v = await run({ command: 'view', path: '/memories/long.md' });
    expect(v.isError).toBe(false);
    expect(v.content.length).toBeLessThan(400);
    const m = /showing lines 1-(\d+) of 50\. Use view_range \[(\d+), -1\] to see the rest/.exec(v.content);
    expect(m).not.toBeNull();
    expect(Number(m![2])).toBe(Number(m![1]) + 1);
    const page = await run({
      command: 'view',
      path: '/memories/long.md',
      view_range: [Number(m![2]), Number(m![2]) + 1],
    });
    expect(page.content.split('\n').slice(1)).toEqual([
      `${String(Number(m![2])).padStart(6)}\tline number ${m![2]}`,
      `${String(Number(m![2]) + 1).padStart(6)}\tline number ${Number(m![2]) + 1}`,
    ]);
  });

  it('accepts the trailing "/" the folder listing prints, for folders only', async () => {
    await run({ command: 'create', path: '/memories/f/a.md', file_text: 'a' });
    const v = await run({ command: 'view', path: '/memories/f/' });
    expect(v.content.split('\n')[0]).toContain('in /memories/f,');
    expect((await run({ command: 'view', path: '/memories/f/a.md/' })).isError).toBe(true);
  });

  it('shows a planted link nowhere but lets it be deleted, leaving its target alone', async () => {
    const { symlink, readFile: rf } = await import('node:fs/promises');
    await symlink(path.join(s.outside, 'secret.txt'), path.join(s.dataDir, 'memories', 'planted.md'));
    await s.memory.close(); // planted while the app was closed: the startup scan finds it
    s.memory = await createMemory({ dataDir: s.dataDir, watch: false });
    const v = await run({ command: 'view', path: '/memories' });
    expect(v.content).not.toContain('planted');
    expect(v.content).toContain('1 link not shown');
    expect((await s.memory.list()).map((e) => e.path)).toEqual([]);
    expect(await run({ command: 'delete', path: '/memories/planted.md' })).toEqual({
      content: 'Successfully deleted /memories/planted.md',
      isError: false,
    });
    expect(await rf(path.join(s.outside, 'secret.txt'), 'utf8')).toBe('outside content\n');
  });
});
