// Search benchmark (issue 3, points 5 and 8): full-text search over 10,000 memory files (~20 MB) through
// the memory's search index, beside a baseline measured in the same run: a naive search that re-reads
// every file per query (what a grep-per-query would do). Target: median under 100 ms at 10,000 files.
// Data lives on the real disk (/var/tmp, not tmpfs), seeded by a raw generator (plain fs writes); the
// memory's quota is raised to hold it.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMemory } from '../../memory/index.js';
import { createMemorySearch, fold } from '../../memory/search/index.js';
import type { BenchTable } from '../table.js';
import { ms, quantile } from '../timing.js';

const TOPICS = 20;
const WORDS = (
  'tea coffee garden lyon paris bicycle piano recipe allergy meeting project deadline birthday ' +
  'holiday train museum novel budget invoice doctor dentist hiking running yoga chess violin ' +
  'printer laptop backup password manager family friend colleague neighbour weekend morning evening'
).split(' ');

/** About 2 KB of Markdown per file, with words varied by index so queries have realistic selectivity. */
function body(i: number): string {
  const lines = [`# Notes ${i}`, ''];
  let l = 0;
  while (lines.join('\n').length < 2000) {
    const a = WORDS[(i * 7 + l) % WORDS.length];
    const b = WORDS[(i * 13 + l * 3) % WORDS.length];
    lines.push(`- ${a} and ${b}: remembered detail ${l} of record-${i}`);
    l++;
  }
  return lines.join('\n') + '\n';
}

async function seed(root: string, n: number): Promise<number> {
  for (let t = 0; t < TOPICS; t++)
    await fsp.mkdir(path.join(root, `topic-${t}`), { recursive: true, mode: 0o700 });
  let bytes = 0;
  const jobs: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const text = body(i);
    bytes += Buffer.byteLength(text);
    jobs.push(fsp.writeFile(path.join(root, `topic-${i % TOPICS}`, `note-${i}.md`), text, { mode: 0o600 }));
    if (jobs.length >= 64) await Promise.all(jobs.splice(0));
  }
  await Promise.all(jobs);
  return bytes;
}

/** The baseline: every query re-reads and scans every file. */
async function naiveSearch(root: string, query: string, limit: number): Promise<number> {
  const needle = fold(query);
  let hits = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const item of await fsp.readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, item.name);
      if (item.isDirectory()) await walk(p);
      else if (hits < limit) {
        const text = fold(await fsp.readFile(p, 'utf8'));
        for (let at = text.indexOf(needle); at !== -1 && hits < limit; at = text.indexOf(needle, at + 1))
          hits++;
      }
    }
  };
  await walk(root);
  return hits;
}

const round = (x: number): number => Math.round(x * 10) / 10;

export async function run(n = 10_000, repeats = 30): Promise<BenchTable> {
  const base = await fsp.mkdtemp('/var/tmp/mnemo-bench-search-');
  try {
    const root = path.join(base, 'memories');
    await fsp.mkdir(root, { recursive: true, mode: 0o700 });
    const progress = (what: string): boolean => process.stderr.write(`memory-search bench: ${what}\n`);
    const bytes = await seed(root, n);
    progress(`seeded ${n} files`);
    const memory = await createMemory({
      dataDir: base,
      watch: false,
      limits: { quotaBytes: 256 * 1024 * 1024 },
    });
    const { search, detach } = createMemorySearch(memory);
    const rows: BenchTable['rows'] = [];
    try {
      progress('memory opened');
      const build = await ms(() => search.warm());
      progress('index built');
      rows.push({ case: `index build (${n} files, ${round(bytes / 1e6)} MB)`, 'median ms': round(build) });
      const queries: [string, string][] = [
        ['rare word (1 file)', `Notes ${Math.floor(n / 2)}`],
        ['common word, limit 50', 'Coffee'],
        ['phrase', 'piano and chess'],
        ['no match', 'zebra crossing'],
      ];
      for (const [label, query] of queries) {
        const times: number[] = [];
        const cpu: number[] = [];
        for (let r = 0; r < repeats; r++) times.push(await ms(() => search.search(query, 50), cpu));
        const naive: number[] = [];
        for (let r = 0; r < 3; r++) naive.push(await ms(() => naiveSearch(root, query, 50)));
        const median = quantile(times, 0.5);
        rows.push({
          case: label,
          'median ms': round(median),
          'p95 ms': round(quantile(times, 0.95)),
          'median CPU ms': round(quantile(cpu, 0.5)),
          'naive re-read ms': round(quantile(naive, 0.5)),
          speedup: `${round(quantile(naive, 0.5) / Math.max(median, 0.01))}x`,
          'under 100 ms': median < 100 ? 'yes' : 'NO',
        });
      }
      // A change then a query: the event re-reads one file, not the folder.
      const live: number[] = [];
      for (let r = 0; r < repeats; r++) {
        const p = `/memories/topic-0/live-${r}.md`;
        await memory.create(p, `fresh marker-${r}\n`);
        live.push(await ms(() => search.search(`marker-${r}`, 10)));
      }
      rows.push({
        case: 'query right after a write',
        'median ms': round(quantile(live, 0.5)),
        'p95 ms': round(quantile(live, 0.95)),
      });
    } finally {
      detach();
      await memory.close();
    }
    return { title: `Memory search over ${n} files (real disk, ${repeats} runs per query)`, rows };
  } finally {
    // The memory's lock folder can still be settling right after close: retry, and never fail the table.
    await fsp
      .rm(base, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
      .catch(() => process.stderr.write(`memory-search bench: could not remove ${base}\n`));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const n = Number(process.argv[2] ?? 10_000);
  const table = await run(n);
  console.log(table.title);
  console.table(table.rows);
}
