// `npm run bench [-- name ...]`: runs every benchmark module bench/<name>/index (each exports
// `run(): Promise<{ title, rows }>`), one after the other so they do not disturb each other's figures, and
// prints one table per benchmark. Not part of `npm test`. A module that fails is reported in the table and makes the
// exit code 1; the others still run.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { renderTable, type BenchTable } from './table.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export function findBenchmarks(dir = here): string[] {
  const ext = path.extname(fileURLToPath(import.meta.url));
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, `index${ext}`)))
    .map((d) => d.name)
    .sort();
}

async function main(): Promise<number> {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const available = findBenchmarks();
  const unknown = wanted.filter((w) => !available.includes(w));
  if (unknown.length > 0) {
    process.stderr.write(
      `Unknown benchmark: ${unknown.join(', ')}. Available: ${available.join(', ') || 'none'}.\n`,
    );
    return 2;
  }
  const names = wanted.length > 0 ? wanted : available;
  if (names.length === 0) {
    process.stdout.write('No benchmarks found under bench/.\n');
    return 0;
  }
  const ext = path.extname(fileURLToPath(import.meta.url));
  const tables: BenchTable[] = [];
  let failed = false;
  for (const name of names) {
    process.stderr.write(`Running bench/${name}...\n`);
    try {
      const mod = (await import(pathToFileURL(path.join(here, name, `index${ext}`)).href)) as {
        run?: () => Promise<BenchTable>;
      };
      if (typeof mod.run !== 'function') throw new Error('it does not export run()');
      tables.push(await mod.run());
    } catch (error) {
      failed = true;
      tables.push({
        title: `${name} (failed)`,
        rows: [{ error: (error as Error).message.split('\n')[0] ?? '' }],
      });
    }
  }
  process.stdout.write(`${renderTable(tables)}\n`);
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(tables, null, 2)}\n`);
  return failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
