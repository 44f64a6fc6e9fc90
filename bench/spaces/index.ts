// Spaces benchmark (issue 15, point 7): starting the backend on a data folder with 50 spaces of 1,000
// memory files and 100 conversations each, against the baseline measured in the same run: the same
// Personal space alone. Other spaces are opened lazily, so the ratio should stay near 1. Also: the first
// open of one space (its memory and conversation list), and the space list with its counts.
// Data lives on the real disk (/var/tmp), seeded by plain fs writes.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCore } from '../../electron/core/create-core.js';
import { benchHost as host, round, seedDataFolder } from '../seed-folder.js';
import { median, ms } from '../timing.js';
import { SpaceRegistry } from '../../electron/core/spaces/index.js';
import type { BenchTable } from '../table.js';

/** The seeded folder of this benchmark (bench/seed-folder.ts). */
const seedSpace = (dir: string, files: number, conversations: number): Promise<void> =>
  seedDataFolder(dir, { files, conversations, folders: 10, note: (i) => `# Note ${i}\nsome fact ${i}\n` });

export async function run(
  spaces = Number(process.env.MNEMO_BENCH_SPACES ?? 50),
  files = Number(process.env.MNEMO_BENCH_SPACE_FILES ?? 1_000),
  conversations = 100,
  repeats = 15,
): Promise<BenchTable> {
  const base = await fsp.mkdtemp('/var/tmp/mnemo-bench-spaces-');
  const progress = (what: string): boolean => process.stderr.write(`spaces bench: ${what}\n`);
  try {
    const one = path.join(base, 'one');
    const many = path.join(base, 'many');
    await seedSpace(one, files, conversations);
    await seedSpace(many, files, conversations);
    const registry = new SpaceRegistry(many);
    const ids: string[] = [];
    for (let s = 0; s < spaces; s++) {
      const space = await registry.create({ name: `Space ${s}` });
      ids.push(space.id);
      await seedSpace(path.join(many, 'spaces', space.id), files, conversations);
    }
    await registry.close();
    progress(`seeded ${spaces + 1} spaces of ${files} files and ${conversations} conversations`);
    const start = async (dir: string) => {
      const core = await createCore({ dataDir: dir, host, env: { HOME: dir } });
      await core.close();
    };
    await start(one); // the first start journals the seeded files as outside edits: not what is measured
    await start(many);
    const alone: number[] = [];
    const with50: number[] = [];
    for (let r = 0; r < repeats; r++) {
      alone.push(await ms(() => start(one)));
      with50.push(await ms(() => start(many)));
    }
    const core = await createCore({ dataDir: many, host, env: { HOME: many } });
    let open = 0;
    let counts = 0;
    let list = 0;
    try {
      const lists: number[] = [];
      for (let r = 0; r < repeats; r++) lists.push(await ms(() => core.spaces.list()));
      list = median(lists);
      open = await ms(async () => {
        const space = await core.spaces.open(ids[0]!);
        await space.handlers['conversations.list']({}, { clientId: 'bench' });
        await space.handlers['memory.list']({}, { clientId: 'bench' });
      });
      counts = await ms(() => core.spaces.listWithCounts());
    } finally {
      await core.close();
    }
    const baseline = median(alone);
    return {
      title: `Spaces: start with ${spaces} more spaces (${files} files, ${conversations} conversations each)`,
      rows: [
        { case: 'start, Personal only (baseline)', 'median ms': round(baseline), ratio: 1 },
        {
          case: `start, Personal + ${spaces} spaces`,
          'median ms': round(median(with50)),
          ratio: round(median(with50) / baseline),
        },
        { case: `space list (${spaces + 1} spaces: their space.json)`, 'median ms': round(list) },
        { case: 'first open of a space (memory + lists)', 'median ms': round(open) },
        { case: `space list with counts (${spaces + 1} spaces)`, 'median ms': round(counts) },
      ],
    };
  } finally {
    await fsp
      .rm(base, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
      .catch(() => process.stderr.write(`spaces bench: could not remove ${base}\n`));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const table = await run();
  console.log(table.title);
  console.table(table.rows);
}
