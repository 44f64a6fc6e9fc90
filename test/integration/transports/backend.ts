// The backend the transport tests run against: the real core (createCore over a temp data dir, the real
// createHandlers), with at most a few handlers replaced by ones that fail on purpose (to check what an
// error looks like once it has crossed a transport).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCore, type Core } from '../../../electron/core/create-core.js';
import type { HostServices } from '../../../electron/core/host.js';
import type { Handlers } from '../../../shared/contract.js';
import { ContractError } from '../../../shared/errors.js';

export const testHost: HostServices = {
  kind: 'test',
  saveFile: async () => ({ saved: false }),
  pickImport: async () => null,
  openExternal: async () => false,
  openFolder: async () => false,
};

export interface TestBackend {
  core: Core;
  handlers: Handlers;
  dataDir: string;
  close(): Promise<void>;
}

/** Messages the failing handlers throw: a raw error and a ContractError, both naming a host path. */
export const RAW_FAILURE = "EACCES: permission denied, open '/home/alice/.config/Mnemo/secret.json'";
export const CONTRACT_FAILURE =
  'Nothing at /home/alice/.config/Mnemo/conversations/x.json for /memories/a.md';

export async function startBackend(): Promise<TestBackend> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-transports-'));
  const core = await createCore({ dataDir, host: testHost, env: { HOME: dataDir } });
  const handlers: Handlers = {
    ...core.handlers,
    // app.openExternal and app.openDataFolder are host services; failing them here loses nothing tested.
    'app.openExternal': () => {
      const error = new Error(RAW_FAILURE);
      return Promise.reject(error);
    },
    'app.openDataFolder': () => Promise.reject(new ContractError('not_found', CONTRACT_FAILURE)),
  };
  return {
    core,
    handlers,
    dataDir,
    async close() {
      await core.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits for a condition by polling it (no fixed sleeps); the test timeout bounds it. */
export async function until(condition: () => boolean, what = 'condition'): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > 20_000) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
