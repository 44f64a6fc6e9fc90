// What the space list shows beside each name. Counted from folder listings only (no file is opened), and
// only when asked: opening the app reads no space's folders.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { spaceDir, type SpaceCounts } from './model.js';

const CONVERSATION = /^[A-Za-z0-9_-]{1,128}\.jsonl$/;

export async function countSpace(dataDir: string, id: string): Promise<SpaceCounts> {
  const dir = spaceDir(dataDir, id);
  const [conversations, memoryFiles] = await Promise.all([
    fsp
      .readdir(path.join(dir, 'conversations'))
      .then((names) => names.filter((n) => CONVERSATION.test(n)).length)
      .catch(() => 0),
    countFiles(path.join(dir, 'memories')),
  ]);
  return { conversations, memoryFiles };
}

/** Regular files whose names the memory can show (not starting with "."), links not followed. */
async function countFiles(dir: string): Promise<number> {
  const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
  let n = 0;
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    if (e.isFile()) n++;
    else if (e.isDirectory()) n += await countFiles(path.join(dir, e.name));
  }
  return n;
}
