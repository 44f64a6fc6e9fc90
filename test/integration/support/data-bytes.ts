// Where a text still is in a data folder, byte for byte: every file as it is on disk, and every git object
// decompressed (loose or packed, reachable or not, through git's own cat-file). A permanent forget is
// checked against this, and so is the remote's reachable history.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Files (relative) and git objects ("<gitdir> object") of `dir` that hold `text`. */
export function placesHolding(dir: string, text: string): string[] {
  const needle = Buffer.from(text, 'utf8');
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        walk(p);
        if (existsSync(path.join(p, 'HEAD')) && existsSync(path.join(p, 'objects'))) {
          if (gitObjects(p).includes(needle)) out.push(`${path.relative(dir, p)} (a git object)`);
        }
      } else if (e.isFile() && readFileSync(p).includes(needle)) {
        out.push(path.relative(dir, p));
      }
    }
  };
  walk(dir);
  return out;
}

/** Every object of a git folder, decompressed, one after the other. */
export function gitObjects(gitdir: string): Buffer {
  return execFileSync('git', ['--git-dir', gitdir, 'cat-file', '--batch-all-objects', '--batch'], {
    maxBuffer: 1 << 30,
  });
}

/** Every object reachable from a repository's refs, decompressed (what a clone of it would get). */
export function reachableObjects(gitdir: string): Buffer {
  const list = execFileSync('git', ['--git-dir', gitdir, 'rev-list', '--objects', '--all'], {
    encoding: 'utf8',
  });
  const oids = list
    .split('\n')
    .map((l) => l.split(' ')[0])
    .filter((x): x is string => !!x);
  if (oids.length === 0) return Buffer.alloc(0);
  return execFileSync('git', ['--git-dir', gitdir, 'cat-file', '--batch'], {
    input: `${oids.join('\n')}\n`,
    maxBuffer: 1 << 30,
  });
}
