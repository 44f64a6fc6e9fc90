// .ci/run (issue 2, point 6): on a machine without Chromium it installs it with apt-get, then `npm ci`
// and `npm test`, stopping at the first failure. apt-get and npm are stand-ins on PATH that record their
// arguments (the real ones would install packages); the script is the real one (a copy in a temp clone
// folder), run by bash.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './processes.js';

function runCi(options: { chromium: 'present' | 'missing'; failing?: string }) {
  const dir = tempDir('mnemo-ci-');
  const log = path.join(dir, 'calls.log');
  for (const tool of ['apt-get', 'npm']) {
    const file = path.join(dir, tool);
    const fail = options.failing?.startsWith(`${tool} `)
      ? `[ "$*" = "${options.failing.slice(tool.length + 1)}" ] && exit 9\n`
      : '';
    writeFileSync(file, `#!/bin/sh\necho "${tool} $*" >> "${log}"\n${fail}exit 0\n`);
    chmodSync(file, 0o755);
  }
  const chromium = path.join(dir, 'chromium');
  if (options.chromium === 'present') {
    writeFileSync(chromium, '#!/bin/sh\n');
    chmodSync(chromium, 0o755);
  }
  // A copy in a folder of its own: the script cds to its parent, so even a real npm could not touch ours.
  mkdirSync(path.join(dir, 'clone', '.ci'), { recursive: true });
  const script = path.join(dir, 'clone', '.ci', 'run');
  copyFileSync(path.join(ROOT, '.ci', 'run'), script);
  const result = spawnSync('bash', [script], {
    env: { PATH: `${dir}:/usr/bin:/bin`, MNEMO_CI_CHROMIUM: chromium, HOME: dir },
    encoding: 'utf8',
  });
  let calls: string[] = [];
  try {
    calls = readFileSync(log, 'utf8').trim().split('\n');
  } catch {
    // Nothing was called.
  }
  return { code: result.status, calls, stdout: result.stdout };
}

describe('.ci/run', () => {
  it('installs Chromium when it is missing, then npm ci and npm test', () => {
    const r = runCi({ chromium: 'missing' });
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([
      'apt-get update',
      'apt-get install -y chromium',
      'npm ci --no-audit --no-fund',
      'npm test',
    ]);
  });

  it('leaves apt-get alone when Chromium is there', () => {
    const r = runCi({ chromium: 'present' });
    expect(r.code).toBe(0);
    expect(r.calls).toEqual(['npm ci --no-audit --no-fund', 'npm test']);
  });

  it('fails with the failing step: no tests after a failed install, and the tests decide the exit code', () => {
    const install = runCi({ chromium: 'present', failing: 'npm ci --no-audit --no-fund' });
    expect(install.code).toBe(9);
    expect(install.calls).toEqual(['npm ci --no-audit --no-fund']);
    const tests = runCi({ chromium: 'present', failing: 'npm test' });
    expect(tests.code).toBe(9);
  });

  it('runs the very command the README shows', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(/^npm test\b/m);
    expect(readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m);
  });
});
