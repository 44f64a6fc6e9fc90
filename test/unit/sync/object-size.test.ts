// Object sizes read from headers only, against folders real git wrote: loose objects, packed ones, and
// packed deltas (whose size is the result's, read from the first bytes of the delta), each checked
// against `git cat-file -s`; an object the folder does not hold has no size.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ObjectSizes } from '../../../electron/core/sync/object-size.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function repo(): { dir: string; git: (...args: string[]) => string; write: (content: string) => string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'mnemo-object-size-'));
  dirs.push(dir);
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q', '--bare', '.');
  let n = 0;
  const write = (content: string): string => {
    const file = path.join(dir, `content-${++n}`);
    writeFileSync(file, content);
    const oid = git('hash-object', '-w', file);
    rmSync(file);
    return oid;
  };
  return { dir, git, write };
}

describe('object sizes from headers', () => {
  it('reads loose objects, and says null for one the folder does not hold', () => {
    const { dir, git, write } = repo();
    const oids = [write(''), write('a fact\n'), write('x'.repeat(300_000))];
    const sizes = new ObjectSizes(dir);
    for (const oid of oids) expect(sizes.size(oid)).toBe(Number(git('cat-file', '-s', oid)));
    expect(sizes.size('0'.repeat(40))).toBeNull();
  });

  it('reads packed objects and packed deltas (the result size)', () => {
    const { dir, git, write } = repo();
    const base = Array.from({ length: 4000 }, (_, i) => `line ${i} of a long memory file\n`).join('');
    const oids = [write(base), write(`${base}one more line\n`), write(`${base.repeat(3)}`), write('small\n')];
    // One tree reaching them all, so repack keeps them, and deltas between the similar ones.
    const tree = execFileSync('git', ['mktree'], {
      cwd: dir,
      input: oids.map((o, i) => `100644 blob ${o}\tf${i}\n`).join(''),
      encoding: 'utf8',
    }).trim();
    git('update-ref', 'refs/heads/main', git('commit-tree', tree, '-m', 'x'));
    git('repack', '-adq', '--depth=5', '--window=10');
    const packs = execFileSync('sh', ['-c', 'ls objects/pack/*.idx'], { cwd: dir, encoding: 'utf8' })
      .trim()
      .split('\n');
    const listing = git('verify-pack', '-v', ...packs);
    expect(listing).toMatch(/ blob +\d+ \d+ \d+ 1 [0-9a-f]{40}/); // at least one delta
    const sizes = new ObjectSizes(dir);
    for (const oid of oids) expect(sizes.size(oid)).toBe(Number(git('cat-file', '-s', oid)));
    expect(sizes.size('f'.repeat(40))).toBeNull();
  });
});
