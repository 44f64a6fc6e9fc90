// `npm run bench` (dist/bench/run.js) over a temp copy with stand-in modules: zero modules, several
// one table per module, a failing module reported without stopping the others, a name filter.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, run, tempDir } from './processes.js';

function benchDir(modules: Record<string, string>): string {
  const dir = path.join(tempDir('mnemo-bench-'), 'bench');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, '..', 'package.json'), '{"type":"module"}');
  for (const file of ['run.js', 'table.js'])
    copyFileSync(path.join(ROOT, 'dist', 'bench', file), path.join(dir, file));
  for (const [name, source] of Object.entries(modules)) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, 'index.js'), source);
  }
  return dir;
}

const table = (title: string, rows: object[]): string =>
  `export async function run() { return ${JSON.stringify({ title, rows })}; }`;

describe('npm run bench', () => {
  it('says so when there is no benchmark', async () => {
    const result = await run(path.join(benchDir({}), 'run.js'), [], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('No benchmarks found under bench/.\n');
  });

  it('runs every module and prints one table each; a failure is a table and exit code 1', async () => {
    const dir = benchDir({
      alpha: table('Alpha store', [{ op: 'write', 'ops/s': 1500, ratio: '0.9x' }]),
      beta: table('Beta search', [{ 'median ms': 12.25 }]),
      broken: 'export async function run() { throw new Error("disk full"); }',
    });
    const result = await run(path.join(dir, 'run.js'), [], {});
    expect(result.code).toBe(1);
    expect(result.stdout.trimEnd().split('\n')).toEqual([
      'Alpha store',
      'op    | ops/s | ratio',
      '------|-------|------',
      'write | 1,500 |  0.9x',
      '',
      'Beta search',
      'median ms',
      '---------',
      '    12.25',
      '',
      'broken (failed)',
      'error',
      '---------',
      'disk full',
    ]);
  });

  it('runs only the named modules and refuses unknown names', async () => {
    const dir = benchDir({ alpha: table('Alpha', [{ n: 1 }]), beta: table('Beta', [{ n: 2 }]) });
    const only = await run(path.join(dir, 'run.js'), ['beta'], {});
    expect(only.code).toBe(0);
    expect(only.stdout).toContain('Beta');
    expect(only.stdout).not.toContain('Alpha');
    const unknown = await run(path.join(dir, 'run.js'), ['gamma'], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown benchmark: gamma. Available: alpha, beta.');
  });
});
