// What the sync tests that run the CLI share: the fake Messages API and the loopback git server for the
// whole file, data folders removed after it, and a CLI run with the sync token and user in its
// environment. Each file says only what it runs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type FakeAnthropic, startFakeAnthropic } from '../../fixtures/fake-anthropic/index.js';
import {
  DEFAULT_TOKEN,
  DEFAULT_USER,
  startGitServer,
  type GitServer,
} from '../../fixtures/git-server/index.js';
import { assertCliBuilt, cliEnv, type CliResult, runCli as runCliProcess } from '../support/cli-process.js';
import { removeAll } from './support.js';

export interface CliRig {
  /** Set once the file's beforeAll ran. */
  fake: FakeAnthropic;
  server: GitServer;
  /** `node dist/electron/cli.js --data-dir DIR ...args`, with the sync token and user (and `env`). */
  runCli(dataDir: string, args: readonly string[], env?: Record<string, string>): Promise<CliResult>;
  /** A new data folder, removed after the file. */
  folder(name: string): string;
}

export function cliRig(prefix: string): CliRig {
  const dirs: string[] = [];
  const rig = {
    runCli: (dataDir, args, env = {}) =>
      runCliProcess(
        ['--data-dir', dataDir, ...args],
        cliEnv(dataDir, rig.fake.url, {
          MNEMO_SYNC_TOKEN: DEFAULT_TOKEN,
          MNEMO_SYNC_USER: DEFAULT_USER,
          ...env,
        }),
      ),
    folder: (name) => {
      const d = mkdtempSync(path.join(tmpdir(), `mnemo-${prefix}-${name}-`));
      dirs.push(d);
      return d;
    },
  } as CliRig;
  beforeAll(async () => {
    assertCliBuilt();
    rig.fake = await startFakeAnthropic();
    rig.server = await startGitServer();
  });
  afterAll(async () => {
    await rig.fake?.close();
    await rig.server?.close();
    removeAll(...dirs);
  });
  return rig;
}
