// `npm run bench` (dist/bench/run.js) over a temp copy with stand-in modules: zero modules, several
// one table per module, a failing module reported without stopping the others, a name filter, a table as
// wide as bench/memory's, `--json`; and the real dist/bench/run.js on its quickest benchmark (context).
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { BenchTable } from '../../../bench/table.js';
import { MEMORY_COLUMNS, memoryShapedTable, readGrid, shownRows } from '../../fixtures/bench-grid.js';
import { ROOT, run, tempDir } from './processes.js';

const widest = (text: string): number => Math.max(...text.split('\n').map((l) => stringWidth(l)));

// `--json` prints the tables as text, then the tables themselves as one JSON array.
function splitJson(stdout: string): { text: string; tables: unknown } {
  const at = stdout.indexOf('\n[\n');
  expect(at).toBeGreaterThan(0);
  return { text: stdout.slice(0, at), tables: JSON.parse(stdout.slice(at + 1)) };
}

function benchDir(modules: Record<string, string>): string {
  const dir = path.join(tempDir('mnemo-bench-'), 'bench');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, '..', 'package.json'), '{"type":"module"}');
  // The printer's own dependency (string-width) resolves from the repository's node_modules.
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, '..', 'node_modules'), 'dir');
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

  it("prints a table as wide as bench/memory's as a real table, every line within 200 columns", async () => {
    const memory = memoryShapedTable();
    const narrow = { title: 'Narrow', rows: [{ case: 'one', 'median ms': 1.5 }] };
    const dir = benchDir({
      memory: table(memory.title, memory.rows),
      narrow: table(narrow.title, narrow.rows),
    });
    const plain = await run(path.join(dir, 'run.js'), [], {});
    expect(plain.code).toBe(0);
    expect(widest(plain.stdout)).toBeLessThanOrEqual(200);
    expect(plain.stdout).not.toContain('…');
    const [first, second] = plain.stdout.trimEnd().split('\n\n');
    const expected = shownRows(memory, MEMORY_COLUMNS);
    const grid = readGrid(first!.split('\n'), { expected });
    expect(grid.title).toBe(memory.title);
    expect(grid.columns).toEqual(MEMORY_COLUMNS);
    expect(grid.rows).toEqual(expected);
    expect(second!.split('\n')).toEqual([
      'Narrow',
      'case | median ms',
      '-----|----------',
      'one  |       1.5',
    ]);

    const json = await run(path.join(dir, 'run.js'), ['--json'], {});
    expect(json.code).toBe(0);
    const { text, tables } = splitJson(json.stdout);
    expect(text).toBe(plain.stdout.trimEnd());
    expect(tables).toEqual([memory, narrow]); // the modules' tables as they returned them, names and all
  });

  it('runs a real benchmark: a table within 200 columns, and --json with its title and named columns', async () => {
    const result = await run(path.join(ROOT, 'dist', 'bench', 'run.js'), ['context', '--json'], {});
    expect(result.code).toBe(0);
    const { text, tables } = splitJson(result.stdout);
    expect(widest(text)).toBeLessThanOrEqual(200);
    const [context] = tables as BenchTable[];
    expect(tables).toHaveLength(1);
    expect(context!.title).toMatch(/^Context per turn/);
    expect(context!.rows.length).toBeGreaterThan(3);
    for (const row of context!.rows) expect(Object.keys(row)).toContain('turns');
    expect(
      readGrid(text.split('\n'), { expected: shownRows(context!, Object.keys(context!.rows[0]!)) }).rows,
    ).toEqual(shownRows(context!, Object.keys(context!.rows[0]!)));
  });
});
