// .ci/node.sh, sourced by .ci/run and by developers: it installs the pinned Node from the npm registry into
// a cache folder outside the repository once, puts it first on PATH, and writes nothing to standard output.
// The script and its lockfile are the real ones, in a temp clone with an npm stand-in (ci-clone.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ciClone, PINNED_NODE, TOOLCHAIN_INSTALL, type CiClone } from './ci-clone.js';

/** Sources the script in bash, then prints the PATH and the node it chose, as a developer's shell would. */
function source(ci: CiClone) {
  const script = `. .ci/node.sh; status=$?; echo "status=$status" >&2; echo "PATH=$PATH" >&2; command -v node >&2`;
  const r = spawnSync('bash', ['-c', script], { cwd: ci.clone, env: ci.env, encoding: 'utf8' });
  const line = (prefix: string): string =>
    r.stderr
      .split('\n')
      .find((l) => l.startsWith(prefix))
      ?.slice(prefix.length) ?? '';
  return {
    stdout: r.stdout,
    stderr: r.stderr,
    status: line('status='),
    path: line('PATH='),
    ran: ci.calls(),
  };
}

describe('.ci/node.sh', () => {
  it('installs the pinned Node into its cache once and puts it first on PATH, printing nothing', () => {
    const ci = ciClone();
    const first = source(ci);
    expect(first.stdout).toBe('');
    expect(first.status).toBe('0');
    expect(first.ran).toEqual([TOOLCHAIN_INSTALL]);
    expect(first.path.split(':')[0]).toBe(ci.nodeBin);
    expect(first.stderr).toContain(`${ci.nodeBin}/node`);
    expect(first.stderr).toContain(`Installing Node.js ${PINNED_NODE}`);
    // Outside the clone: a fresh checkout or `git clean` keeps it.
    expect(ci.nodeBin.startsWith(ci.cache)).toBe(true);
    expect(readdirSync(ci.clone)).toEqual(['.ci']);

    const again = source(ci);
    expect(again.stdout).toBe('');
    expect(again.status).toBe('0');
    expect(again.ran).toEqual([TOOLCHAIN_INSTALL]); // no second install
    expect(again.stderr).not.toContain('Installing');
    expect(again.path.split(':')[0]).toBe(ci.nodeBin);
  });

  it('installs again when the lockfile pins something else than what the cache holds', () => {
    const ci = ciClone();
    source(ci);
    writeFileSync(path.join(path.dirname(path.dirname(path.dirname(ci.nodeBin))), 'package-lock.json'), '{}');
    const after = source(ci);
    expect(after.status).toBe('0');
    expect(after.ran).toEqual([TOOLCHAIN_INSTALL, TOOLCHAIN_INSTALL]);
  });

  it('fails with one line to act on, and leaves no half-installed Node behind', () => {
    const ci = ciClone({ failing: TOOLCHAIN_INSTALL });
    const r = source(ci);
    expect(r.stdout).toBe('');
    expect(r.status).toBe('1');
    expect(r.stderr).toContain(`could not install Node.js ${PINNED_NODE} from the npm registry`);
    expect(existsSync(ci.nodeBin)).toBe(false);
    expect(r.path.split(':')[0]).not.toBe(ci.nodeBin);
  });

  it('is the Node this suite runs on: 24 or later, with FTS5 in node:sqlite', async () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(body); INSERT INTO t VALUES ('memory you can see')");
    expect(db.prepare("SELECT count(*) AS n FROM t WHERE t MATCH 'see'").get()).toEqual({ n: 1 });
    db.close();
  });
});
