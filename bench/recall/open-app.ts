// Opening the app (issue 17, point 6), measured in a process of its own, as an app start is: the recall
// benchmark's own process holds the 200,000-document index it built and queried, and its collector's
// pauses there landed in the opens it measured (1.2-1.5x against 1.0-1.2x for the same folders in a
// fresh process). Run by index.ts as `node open-app.js <repeats> <empty> <saved> <none>`; prints the
// times of each folder's opens as JSON.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createCore } from '../../electron/core/create-core.js';
import { firstListLimit } from '../../shared/channels/conversations.js';
import { testHost as host } from '../../test/integration/agent/harness.js';
import { isMain } from '../is-main.js';

export interface OpenFolders {
  empty: string;
  /** The history and its saved recall index. */
  saved: string;
  /** The same history without an index file. */
  none: string;
}

export type OpenTimes = Record<keyof OpenFolders, number[]>;

/** createCore and the window's first conversations.list (what fills an 800 px sidebar), in ms. */
async function openApp(dir: string): Promise<number> {
  // A start's heap holds nothing yet: what the last open and its close left (the start's check after the
  // first list parses the whole cache) is collected before the next is timed, not inside it.
  (globalThis as { gc?: () => void }).gc?.();
  const start = process.hrtime.bigint();
  const core = await createCore({ dataDir: dir, host, env: { HOME: dir } });
  await core.handlers['conversations.list']({ limit: firstListLimit(800) }, { clientId: 'bench' });
  const took = Number(process.hrtime.bigint() - start) / 1e6;
  await core.close();
  return took;
}

async function measure(folders: OpenFolders, repeats: number): Promise<OpenTimes> {
  // The first start settles each folder (journal, settings, the summary cache): not what is measured.
  for (const dir of [folders.saved, folders.none, folders.empty]) await openApp(dir);
  const times: OpenTimes = { empty: [], saved: [], none: [] };
  // Each open is a few ms: rounds with the order turned each round (on a shared machine a round's first
  // open often waits longer for a core).
  for (let r = 0; r < repeats; r++) {
    const order = r % 2 === 0 ? (['empty', 'saved', 'none'] as const) : (['none', 'saved', 'empty'] as const);
    for (const which of order) times[which].push(await openApp(folders[which]));
  }
  return times;
}

/**
 * The opens measured in a new Node process, once the disk has written out what the benchmark wrote before
 * (the seeded history and the saved index, some 140 MB): opens measured while the kernel was still writing
 * them out took 1.2-1.9x an empty folder's, and 1.0-1.1x a minute later.
 */
export async function measureOpens(folders: OpenFolders, repeats: number): Promise<OpenTimes> {
  const run = promisify(execFile);
  await run('sync').catch(() => undefined); // none on Windows: measured as it is
  const script = fileURLToPath(import.meta.url);
  const { stdout } = await run(process.execPath, [
    '--expose-gc',
    script,
    String(repeats),
    folders.empty,
    folders.saved,
    folders.none,
  ]);
  return JSON.parse(stdout) as OpenTimes;
}

if (isMain(import.meta.url)) {
  const [repeats, empty, saved, none] = process.argv.slice(2);
  const times = await measure({ empty: empty!, saved: saved!, none: none! }, Number(repeats));
  process.stdout.write(JSON.stringify(times));
}
