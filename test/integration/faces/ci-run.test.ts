// .ci/run: it puts the pinned Node first (.ci/node.sh) and prints its version, installs Chromium with
// apt-get on a machine without it, then runs `npm ci` and `npm test`, stopping at the first failure. The
// script is the real one, in a temp clone with stand-ins for the tools (ci-clone.ts), run by bash.
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ciClone, PINNED_NODE, TOOLCHAIN_INSTALL } from './ci-clone.js';
import { ROOT } from './processes.js';

function runCi(options: { chromium: 'present' | 'missing'; failing?: string }) {
  const ci = ciClone({ failing: options.failing });
  const chromium = path.join(ci.dir, 'chromium');
  if (options.chromium === 'present') {
    writeFileSync(chromium, '#!/bin/sh\n');
    chmodSync(chromium, 0o755);
  }
  const result = spawnSync('bash', [path.join(ci.clone, '.ci', 'run')], {
    env: { ...ci.env, MNEMO_CI_CHROMIUM: chromium },
    encoding: 'utf8',
  });
  return { code: result.status, calls: ci.calls(), stdout: result.stdout };
}

describe('.ci/run', () => {
  it('installs Chromium when it is missing, then npm ci and npm test', () => {
    const r = runCi({ chromium: 'missing' });
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([
      TOOLCHAIN_INSTALL,
      'node --version',
      'apt-get update',
      'apt-get install -y chromium',
      'npm ci --no-audit --no-fund',
      'npm test',
    ]);
  });

  it('leaves apt-get alone when Chromium is there', () => {
    const r = runCi({ chromium: 'present' });
    expect(r.code).toBe(0);
    expect(r.calls).toEqual([TOOLCHAIN_INSTALL, 'node --version', 'npm ci --no-audit --no-fund', 'npm test']);
    expect(r.stdout.split('\n')[0]).toBe(`v${PINNED_NODE}`);
  });

  it('fails with the failing step: no tests after a failed install, and the tests decide the exit code', () => {
    const install = runCi({ chromium: 'present', failing: 'npm ci --no-audit --no-fund' });
    expect(install.code).toBe(9);
    expect(install.calls).toEqual([TOOLCHAIN_INSTALL, 'node --version', 'npm ci --no-audit --no-fund']);
    const tests = runCi({ chromium: 'present', failing: 'npm test' });
    expect(tests.code).toBe(9);
    const toolchain = runCi({ chromium: 'missing', failing: TOOLCHAIN_INSTALL });
    expect(toolchain.code).not.toBe(0);
    expect(toolchain.calls).toEqual([TOOLCHAIN_INSTALL]);
  });

  it('runs the very command the README shows', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toMatch(/^npm test\b/m);
    expect(readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m);
  });
});
