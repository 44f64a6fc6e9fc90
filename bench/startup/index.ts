// Startup: how long a person waits for each face before it does what they asked, against `node -e 0`
// measured in the same run (the floor no Node program starts below). `cli --help` to its exit should be
// within 2x of it; a chat on an empty data folder should have its first request at the (fake) API within
// 5x; browser mode's ready line is printed for the record. Every sample is a fresh process with a data
// folder of its own; the cases take turns within each round, so a machine that slows down mid-run slows
// them all, and each row is the mean of the middle half of its samples (one sample that waited for a
// shared core does not move it).
import { projectRoot } from '../../electron/core/app-version.js';
import { startFakeAnthropic } from '../../test/fixtures/fake-anthropic/index.js';
import { isMain } from '../is-main.js';
import { midMean } from '../timing.js';
import { chatFirstRequest, cliHelp, nodeAlone, webReady } from './probes.js';

export interface BenchTable {
  title: string;
  rows: Record<string, string | number>[];
}

const ROUNDS = 12;
const round = (n: number): number => Math.round(n * 10) / 10;

export async function run(rounds = ROUNDS): Promise<BenchTable> {
  const root = projectRoot();
  const fake = await startFakeAnthropic();
  const samples = { node: [] as number[], help: [] as number[], chat: [] as number[], web: [] as number[] };
  try {
    // One start of each first, unmeasured: the first read of each file from disk is not a start's cost.
    await nodeAlone(root);
    await cliHelp(root);
    await chatFirstRequest(root, fake);
    await webReady(root, fake);
    for (let r = 0; r < rounds; r++) {
      samples.node.push(await nodeAlone(root));
      samples.help.push(await cliHelp(root));
      samples.chat.push(await chatFirstRequest(root, fake));
      samples.web.push(await webReady(root, fake));
    }
  } finally {
    await fake.close();
  }
  const floor = midMean(samples.node);
  const row = (name: string, values: number[], limit: number | undefined): BenchTable['rows'][number] => {
    const ms = midMean(values);
    const ratio = ms / Math.max(floor, 1);
    return {
      case: name,
      value: `${round(ms)} ms`,
      baseline: `${round(floor)} ms (node -e 0)`,
      ratio: round(ratio),
      limit: limit === undefined ? '-' : `< ${limit}x node -e 0`,
      ok: limit === undefined ? '-' : ratio < limit ? 'yes' : 'NO',
    };
  };
  return {
    title: `Startup (fresh processes, middle half of ${rounds} rounds, fake API on 127.0.0.1)`,
    rows: [
      row('cli --help, to its exit', samples.help, 2),
      row('chat on an empty data folder, to its first POST /v1/messages', samples.chat, 5),
      row('browser mode, to its ready line', samples.web, undefined),
    ],
  };
}

// `node dist/bench/startup/index.js` prints the table on its own.
if (isMain(import.meta.url)) {
  run()
    .then((table) => {
      console.log(table.title);
      console.table(table.rows);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
