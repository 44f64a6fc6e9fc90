// Shared helpers for the memory tests: a fresh data folder per test and a sibling folder whose content
// must never change (every hostile-input case snapshots it before and after).
import { mkdtemp, readdir, readFile, rm, lstat, mkdir, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { createMemory } from '../../../memory/index.js';
import type { Actor, Memory, MemoryOptions } from '../../../memory/index.js';

export const agent: Actor = { kind: 'agent', conversationId: 'c1', toolUseId: 'toolu_1', messageId: 'msg_1' };
export const user: Actor = { kind: 'user' };

export interface Sandbox {
  base: string;
  dataDir: string;
  outside: string;
  memory: Memory;
  cleanup(): Promise<void>;
}

export async function sandbox(options: Partial<MemoryOptions> = {}): Promise<Sandbox> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'mnemo-mem-'));
  const dataDir = path.join(base, 'data');
  const outside = path.join(base, 'outside');
  await mkdir(outside, { recursive: true });
  await writeFile(path.join(outside, 'secret.txt'), 'outside content\n');
  await mkdir(path.join(base, 'data', 'memoriesX'), { recursive: true });
  await writeFile(path.join(base, 'data', 'memoriesX', 'sibling.md'), 'sibling\n');
  const memory = await createMemory({ dataDir, watch: false, ...options });
  return {
    base,
    dataDir,
    outside,
    memory,
    async cleanup() {
      await memory.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** Everything under `dir` except the memory root and journal: path -> content (or link target / kind). */
export async function snapshotOutside(base: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const p = path.join(dir, name);
      const rel = path.relative(base, p);
      if (rel === path.join('data', 'memories') || rel === path.join('data', 'memory-journal')) continue;
      const st = await lstat(p);
      if (st.isDirectory()) {
        out[rel] = 'dir';
        await walk(p);
      } else if (st.isSymbolicLink()) out[rel] = 'link';
      else out[rel] = await readFile(p, 'utf8');
    }
  };
  await walk(base);
  return out;
}
