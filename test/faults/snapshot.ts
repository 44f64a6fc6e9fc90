// What a restart found (the worker's state line): every memory file with its journal's newest entry, and
// every conversation as the list and a full read show it, and page by page as a window reads it.
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { getAgent } from '../../electron/core/agent/index.js';
import type { BackendClient } from './backend-client.js';
import type { ConversationSnapshot, StateLine } from './protocol.js';
import { hashOf } from './worker-ops.js';

/** Names starting with '.' anywhere under the memory folder. */
function hiddenNames(dir: string, rel = ''): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    const name = rel ? `${rel}/${e.name}` : e.name;
    if (e.name.startsWith('.')) out.push(name);
    else if (e.isDirectory()) out.push(...hiddenNames(path.join(dir, e.name), name));
  }
  return out;
}

async function pagesOf(client: BackendClient, id: string, limit: number): Promise<unknown[]> {
  const first = await client.call('conversations.get', { id, limit });
  const items: unknown[] = [...first.items];
  for (let older = first.older; older;) {
    const page = await client.call('conversations.page', { id, before: older, limit });
    items.unshift(...page.items);
    older = page.older;
  }
  return items;
}

/**
 * What the restart holds, once its start has checked the conversations' heads against their files. Until
 * then the list is the summary cache's, which a kill between an append and the cache's next save leaves
 * behind the file (a window shows it, and is sent the checked list once the check is done): taken as what
 * the restart found, it made the checker hold the next restart to a title the file no longer had. That
 * first list (`firstList`, the worker's first call) is reported beside it, to be compared on its own.
 */
export async function snapshot(
  client: BackendClient,
  dataDir: string,
  firstList: StateLine['firstList'],
): Promise<StateLine> {
  await getAgent(client.core.ctx).store.init();
  const memory = client.core.ctx.memory;
  const files: StateLine['files'] = [];
  const journalMismatch: StateLine['journalMismatch'] = [];
  for (const entry of await memory.list()) {
    if (entry.kind !== 'file') continue;
    const { content, version } = await memory.read(entry.path);
    files.push({ path: entry.path, hash: hashOf(content) });
    const newest = (await memory.history(entry.path))[0];
    if (newest?.afterHash !== version)
      journalMismatch.push({ path: entry.path, detail: `journal says ${newest?.afterHash ?? 'nothing'}` });
  }
  const conversations: ConversationSnapshot[] = [];
  const pagedMismatch: NonNullable<StateLine['pagedMismatch']> = [];
  for (const c of (await client.call('conversations.list', {})).conversations) {
    const { items } = await client.call('conversations.get', { id: c.id });
    // What the restart found, as a window reads it a page at a time (three items each), from the end.
    const paged = await pagesOf(client, c.id, 3);
    if (JSON.stringify(paged) !== JSON.stringify(items))
      pagedMismatch.push({ id: c.id, detail: `${paged.length} items in pages, ${items.length} in full` });
    conversations.push({
      id: c.id,
      title: c.title,
      userTexts: items.flatMap((i) => (i.kind === 'user' ? [i.text] : [])),
      assistantTexts: items.flatMap((i) => (i.kind === 'assistant' ? [i.text] : [])),
    });
  }
  return {
    t: 'state',
    files,
    journalMismatch,
    temps: hiddenNames(path.join(dataDir, 'memories')),
    conversations,
    firstList,
    pagedMismatch,
  };
}
