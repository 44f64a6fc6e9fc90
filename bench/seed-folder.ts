// What the backend benchmarks share: a host that saves and opens nothing, rounding to a tenth, and a
// data folder seeded by plain fs writes (memory files spread over topic folders, conversations of a
// meta line each), 64 writes at a time.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { HostServices } from '../electron/core/host.js';

export const benchHost: HostServices = {
  kind: 'test',
  saveFile: async () => ({ saved: false }),
  pickImport: async () => null,
  openExternal: async () => false,
  openFolder: async () => false,
};

/** To a tenth. */
export const round = (x: number): number => Math.round(x * 10) / 10;

export interface SeedOptions {
  files: number;
  conversations: number;
  /** Topic folders the files are spread over. */
  folders: number;
  /** The content of file `i`. */
  note: (i: number) => string;
}

/** `dir/memories/topic-<i % folders>/note-<i>.md` and `dir/conversations/c<i>.jsonl`. */
export async function seedDataFolder(dir: string, options: SeedOptions): Promise<void> {
  const { files, conversations, folders, note } = options;
  const jobs: Promise<void>[] = [];
  const flush = async (): Promise<void> => void (await Promise.all(jobs.splice(0)));
  for (let f = 0; f < folders; f++)
    await fsp.mkdir(path.join(dir, 'memories', `topic-${f}`), { recursive: true });
  await fsp.mkdir(path.join(dir, 'conversations'), { recursive: true });
  for (let i = 0; i < files; i++) {
    jobs.push(fsp.writeFile(path.join(dir, 'memories', `topic-${i % folders}`, `note-${i}.md`), note(i)));
    if (jobs.length >= 64) await flush();
  }
  for (let i = 0; i < conversations; i++) {
    const id = `c${String(i).padStart(6, '0')}`;
    const meta = {
      t: 'meta',
      v: 1,
      id,
      title: `Conversation ${i}`,
      createdAt: new Date(i * 1000).toISOString(),
      memory: true,
    };
    jobs.push(fsp.writeFile(path.join(dir, 'conversations', `${id}.jsonl`), `${JSON.stringify(meta)}\n`));
    if (jobs.length >= 64) await flush();
  }
  await flush();
}
