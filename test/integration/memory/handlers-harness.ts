// A real backend (createCore on a temp data dir) behind the real in-memory transport, with a test host
// that saves exports to a temp folder and hands out a chosen import source.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createCore, type Core } from '../../../electron/core/create-core.js';
import type { HostServices, ImportSource } from '../../../electron/core/host.js';
import { RpcServer } from '../../../electron/core/rpc/server.js';
import { createMemoryPair, type MemoryClient } from '../../../electron/core/transports/memory-pair.js';
import type { EventPayload } from '../../../shared/contract.js';

export type Changed = EventPayload<'memory.changed'>;

export interface MemoryHarness {
  core: Core;
  api: MemoryClient;
  dataDir: string;
  /** Host path of the memory root. */
  root: string;
  outDir: string;
  saved: { name: string; file: string }[];
  /** What the next memory.importPreview picks. */
  nextImport: ImportSource | null;
  confirmAnswer: boolean | undefined;
  confirms: string[];
  changes: Changed[];
  waitForChange(pred: (e: Changed) => boolean): Promise<Changed>;
  close(): Promise<void>;
}

export async function startMemoryHarness(): Promise<MemoryHarness> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'mnemo-mem-handlers-'));
  const outDir = path.join(dataDir, 'exports');
  await mkdir(outDir);
  const changes: Changed[] = [];
  const waiters: { pred: (e: Changed) => boolean; resolve: (e: Changed) => void }[] = [];
  const h = {} as MemoryHarness;
  const host: HostServices = {
    kind: 'test',
    async saveFile(request) {
      const file = path.join(outDir, request.defaultName);
      await writeFile(file, request.data);
      h.saved.push({ name: request.defaultName, file });
      return { saved: true, fileName: request.defaultName };
    },
    pickImport: async () => h.nextImport,
    confirm: async (request) => {
      h.confirms.push(request.message);
      return h.confirmAnswer ?? true;
    },
    openExternal: async () => false,
    openFolder: async () => false,
  };
  const core = await createCore({ dataDir, host, env: { HOME: dataDir } });
  const server = new RpcServer({ handlers: core.handlers, bus: core.bus, log: core.log });
  const api = createMemoryPair(server);
  api.on('memory.changed', (e) => {
    changes.push(e);
    for (const w of [...waiters]) {
      if (w.pred(e)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(e);
      }
    }
  });
  await api['app.ready']({});
  Object.assign(h, {
    core,
    api,
    dataDir,
    root: core.ctx.memory.root,
    outDir,
    saved: [],
    nextImport: null,
    confirmAnswer: undefined,
    confirms: [],
    changes,
    waitForChange(pred: (e: Changed) => boolean): Promise<Changed> {
      const found = changes.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise<Changed>((resolve) => waiters.push({ pred, resolve }));
    },
    async close() {
      api.close();
      server.close();
      await core.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  });
  return h;
}

/** The ContractError data a rejected call carries. */
export async function failure(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; details?: unknown }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code: string; message: string; details?: unknown };
    return { code: e.code, message: e.message, details: e.details };
  }
  throw new Error('expected the call to fail');
}
