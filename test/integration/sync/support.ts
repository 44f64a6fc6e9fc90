// Two devices for the sync tests: each a real backend (createCore) on its own data folder, with its sync
// pointed at one repository of the loopback git server.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore, type Core } from '../../../electron/core/create-core.js';
import { PERSONAL_ID } from '../../../electron/core/spaces/index.js';
import { spaceSyncOf, type SpaceSync } from '../../../electron/core/sync/index.js';
import { afterAll, beforeAll } from 'vitest';
import {
  DEFAULT_TOKEN,
  DEFAULT_USER,
  startGitServer,
  type GitServer,
} from '../../fixtures/git-server/index.js';
import { startHarness, testHost, type Harness } from '../agent/harness.js';

export const USER = { kind: 'user' } as const;

export interface Device {
  name: string;
  dataDir: string;
  core: Core;
  sync: SpaceSync;
  close(): Promise<void>;
}

export async function device(
  name: string,
  url: string,
  options: { token?: string; spaceId?: string; dataDir?: string } = {},
): Promise<Device> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), `mnemo-sync-${name}-`));
  const core = await createCore({ dataDir, host: testHost, env: {} });
  const sync = await spaceSyncOf(core, options.spaceId ?? PERSONAL_ID);
  sync.config.setRemote({ url, username: DEFAULT_USER, device: name });
  sync.config.setToken(options.token ?? DEFAULT_TOKEN);
  return {
    name,
    dataDir,
    core,
    sync,
    async close() {
      await core.close();
    },
  };
}

export function removeAll(...dirs: string[]): void {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}

export type { GitServer };

/** The loopback git server and two harness backends sharing one fake API, for the whole file. */
export interface TwoBackends {
  server: GitServer;
  a: Harness;
  b: Harness;
}

/** Starts them before the file's tests and closes them after; the fields are set once beforeAll ran. */
export function twoBackends(): TwoBackends {
  const two = {} as TwoBackends;
  beforeAll(async () => {
    two.server = await startGitServer();
    two.a = await startHarness();
    two.b = await startHarness({ fake: two.a.fake });
  });
  afterAll(async () => {
    await two.a?.close();
    await two.b?.close();
    await two.a?.fake.close();
    await two.server?.close();
  });
  return two;
}
