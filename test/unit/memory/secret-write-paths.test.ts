// Every way text gets into a memory file is held to the same secret check: the tool's create, str_replace
// and insert, the panel's saves and creates, forgetting a fact, and import. A key is refused however it is
// disguised or assembled; a note that only talks about keys is stored; an old key another program left in
// a file blocks nothing the user or the model does to the rest of it.
import { readFile, writeFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ImportSessions } from '../../../memory/archive/index.js';
import { removeFact, splitFacts } from '../../../memory/facts.js';
import { MemoryError } from '../../../memory/index.js';
import { normalizeForScan } from '../../../memory/secrets.js';
import { agent, sandbox, type Sandbox } from './helpers.js';
import { fake, fullWidth, mustAccept, mustRefuse, splitBy } from './secret-values.js';

let s: Sandbox | undefined;
afterEach(async () => {
  await s?.cleanup();
  s = undefined;
});
const run = (input: unknown) => s!.memory.tool.execute(input, agent);
const host = (rel: string) => path.join(s!.dataDir, 'memories', rel);
const exists = (rel: string) =>
  readFile(host(rel), 'utf8').then(
    (t) => t,
    () => null,
  );

/** The refusal names the detector and line, says what to do, and quotes no stretch of the value. */
function expectRefusal(message: string, detector: string, line: number, value: string): void {
  expect(message).toContain(`looks like ${detector} (line ${line})`);
  expect(message).toContain('Nothing was saved');
  expect(message).toContain('note where it is kept instead');
  for (const v of [value, normalizeForScan(value)])
    for (let i = 0; i + 8 <= v.length; i += 4) {
      const piece = v.slice(i, i + 8);
      // stretches of the random part (it holds digits), not the words around the credential
      if (/[0-9]/.test(piece)) expect(message).not.toContain(piece);
    }
}

describe('the secret check on every write path', () => {
  it.each(mustRefuse)('the tool refuses to create a file holding %s', async (_label, value, detector) => {
    s = await sandbox();
    const r = await run({ command: 'create', path: '/memories/keys.md', file_text: `# Keys\n${value}\n` });
    expect(r.isError).toBe(true);
    expectRefusal(r.content, detector, 2, value);
    expect(await exists('keys.md')).toBeNull();
  });

  it('the tool stores notes that only talk about secrets, as written', async () => {
    s = await sandbox();
    const text = mustAccept.map((t) => `- ${t}`).join('\n') + '\n';
    const r = await run({ command: 'create', path: '/memories/notes.md', file_text: text });
    expect(r).toEqual({ content: 'File created successfully at: /memories/notes.md', isError: false });
    expect(await exists('notes.md')).toBe(text);
    // and line by line through the other write paths
    for (const [i, t] of mustAccept.entries()) {
      const ins = await run({
        command: 'insert',
        path: '/memories/notes.md',
        insert_line: 0,
        insert_text: t,
      });
      expect([t, ins.isError]).toEqual([t, false]);
      await s.memory.write(`/memories/panel-${i}.md`, `${t}\n`, null);
    }
  });

  it('a key assembled by a create and a later str_replace is refused, and the file stays as it was', async () => {
    s = await sandbox();
    const key = 'ghp_' + fake(36, 21);
    const start = `# Repo\ntoken ${key.slice(0, 14)}\nend\n`;
    expect((await run({ command: 'create', path: '/memories/a.md', file_text: start })).isError).toBe(false);
    const r = await run({
      command: 'str_replace',
      path: '/memories/a.md',
      old_str: key.slice(8, 14),
      new_str: key.slice(8),
    });
    expect(r.isError).toBe(true);
    expectRefusal(r.content, 'a GitHub token', 2, key);
    expect(await exists('a.md')).toBe(start);
    // deleting what separates two halves assembles a key too
    const apart = `# Repo\ntoken ${key.slice(0, 20)} (see below) ${key.slice(20)}\n`;
    await s.memory.write('/memories/b.md', apart, null);
    const joined = await run({ command: 'str_replace', path: '/memories/b.md', old_str: ' (see below) ' });
    expect(joined.isError).toBe(true);
    expect(joined.content).toContain('looks like a GitHub token (line 2)');
  });

  it('insert refuses a disguised key, on the line it would have', async () => {
    s = await sandbox();
    await s.memory.write('/memories/a.md', 'one\ntwo\nthree\n', null);
    for (const disguised of [splitBy('npm_' + fake(36, 22), '\u200b'), fullWidth('npm_' + fake(36, 23))]) {
      const r = await run({
        command: 'insert',
        path: '/memories/a.md',
        insert_line: 2,
        insert_text: disguised,
      });
      expect(r.isError).toBe(true);
      expectRefusal(r.content, 'an npm token', 3, disguised);
    }
    expect(await exists('a.md')).toBe('one\ntwo\nthree\n');
  });

  it("the panel's save and create refuse a key added anywhere, with the secret code", async () => {
    s = await sandbox();
    const { version } = await s.memory.write('/memories/a.md', 'one\ntwo\n', null);
    const key = fullWidth('sk_test_' + fake(24, 24));
    for (const attempt of [
      () => s!.memory.write('/memories/a.md', `one\ntwo\nstripe ${key}\n`, version),
      () =>
        s!.memory.write('/memories/a.md', `one ${splitBy('glpat-' + fake(20, 25), '\u00ad')}\ntwo\n`, 'any'),
      () => s!.memory.create('/memories/b.md', `x\ny\npostgres://app:${fake(12, 26)}@db/app\n`),
    ]) {
      const err = await attempt().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(MemoryError);
      expect((err as MemoryError).code).toBe('secret');
      expect((err as MemoryError).message).toMatch(
        /looks like a (Stripe secret key|GitLab token|password inside a URL)/,
      );
    }
    expect(await exists('a.md')).toBe('one\ntwo\n');
    expect(await exists('b.md')).toBeNull();
  });

  it('an old key another program left in a file blocks no edit of the rest of it, nor forgetting it', async () => {
    s = await sandbox();
    const key = 'AKIA' + 'IOSFODNN7EXAMPLE';
    await mkdir(host(''), { recursive: true });
    const planted = `# Notes\n\n- likes tea\n- aws ${key}\n- lives in Lyon\n`;
    await writeFile(host('old.md'), planted);
    // the model edits another line, inserts a line
    const sr = await run({
      command: 'str_replace',
      path: '/memories/old.md',
      old_str: 'tea',
      new_str: 'coffee',
    });
    expect(sr.isError).toBe(false);
    const ins = await run({
      command: 'insert',
      path: '/memories/old.md',
      insert_line: 1,
      insert_text: 'intro',
    });
    expect(ins.isError).toBe(false);
    // the user edits another line in the panel
    let file = await s.memory.read('/memories/old.md');
    await s.memory.write('/memories/old.md', file.content.replace('Lyon', 'Paris'), file.version);
    // the user forgets a fact, then the key's own fact (what memory.forgetFact does)
    for (const text of ['likes coffee', `aws ${key}`]) {
      file = await s.memory.read('/memories/old.md');
      const fact = splitFacts(file.content).find((f) => f.text === text)!;
      await s.memory.write('/memories/old.md', removeFact(file.content, fact.id), file.version);
    }
    expect(await exists('old.md')).toBe('# Notes\nintro\n\n- lives in Paris\n');
  });

  it('a name that holds a key is refused on create, save and rename, without quoting it', async () => {
    s = await sandbox();
    const key = 'glpat-' + fake(20, 30);
    const named = `/memories/tokens/${key}.md`;
    const created = await run({ command: 'create', path: named, file_text: 'x' });
    expect(created.isError).toBe(true);
    expect(created.content).toContain('the name of the new file looks like a GitLab token');
    expect(created.content).not.toContain(key.slice(6, 14));
    await s.memory.write('/memories/a.md', 'a\n', null);
    const renamed = await run({ command: 'rename', old_path: '/memories/a.md', new_path: named });
    expect(renamed.content).toContain('the name of the new file looks like a GitLab token');
    const saved = await s.memory.write(`/memories/${fullWidth(key)}.md`, 'x', null).then(
      () => null,
      (e: unknown) => e as MemoryError,
    );
    expect(saved?.code).toBe('secret');
    expect((await s.memory.list()).map((e) => e.path)).toEqual(['/memories/a.md']);
  });

  it('import refuses files holding disguised keys and brings in the rest', async () => {
    s = await sandbox();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'mnemo-import-'));
    try {
      await writeFile(path.join(dir, 'ok.md'), `${mustAccept.join('\n')}\n`);
      await writeFile(path.join(dir, 'wide.md'), `deploy\n${fullWidth('glpat-' + fake(20, 27))}\n`);
      await writeFile(
        path.join(dir, 'zw.md'),
        `a\nb\nhf_${splitBy(fake(34, 28, 'abcdefghijklmnop'), '\u200c')}\n`,
      );
      await writeFile(path.join(dir, 'bearer.md'), `curl -H "Authorization: Bearer ${fake(40, 29)}"\n`);
      await writeFile(path.join(dir, `npm_${fake(36, 31)}.md`), 'harmless\n');
      const preview = await new ImportSessions(s.memory).preview({ kind: 'folder', path: dir });
      expect(preview.added).toEqual(['/memories/ok.md']);
      const reasons = Object.fromEntries(preview.refused.map((r) => [r.path, r.reason]));
      expect(reasons['wide.md']).toContain('looks like a GitLab token (line 2)');
      expect(reasons['zw.md']).toContain('looks like a Hugging Face token (line 3)');
      expect(reasons['bearer.md']).toContain('looks like a bearer token (line 1)');
      expect(reasons[`npm_${fake(36, 31)}.md`]).toContain('the name of the new file looks like an npm token');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
