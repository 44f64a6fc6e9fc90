// Opening the app on a folder with a summary cache: the first conversations.list comes from the cache
// (read while the backend opened), and the files stay the truth. What another process did while the app
// was closed, or does between the start and the first list, shows: at once where the listing sees it,
// otherwise through conversations.changed once the heads have been checked against the files.
import { appendFileSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationSummary } from '../../../shared/channels/conversations.js';
import { createCore, type Core } from '../../../electron/core/create-core.js';
import type { HostServices } from '../../../electron/core/host.js';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import { userMessages } from '../../fixtures/user-messages.js';

const host: HostServices = {
  kind: 'test',
  saveFile: () => Promise.resolve({ saved: false }),
  pickImport: () => Promise.resolve(null),
  openExternal: () => Promise.resolve(false),
  openFolder: () => Promise.resolve(false),
};
const call = { clientId: 'test' };

const msg = userMessages();
const line = (record: unknown): string => `${JSON.stringify(record)}\n`;

let core: Core | undefined;
afterEach(async () => {
  await core?.close();
  core = undefined;
});

/** A data folder whose conversations (and their summary cache) were written by an earlier run. */
async function folder(titles: string[]): Promise<{ dataDir: string; dir: string; ids: string[] }> {
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'mnemo-open-')), 'data');
  const dir = path.join(dataDir, 'conversations');
  const store = new ConversationStore(dir);
  await store.init();
  const ids: string[] = [];
  for (const title of titles)
    ids.push((await store.create({ memory: true, title, records: [msg(`hello from ${title}`)] })).meta.id);
  await store.close();
  return { dataDir, dir, ids };
}

/** The first conversations.changed whose list satisfies `ok`. */
function changed(c: Core, ok: (list: ConversationSummary[]) => boolean): Promise<ConversationSummary[]> {
  return new Promise((resolve) => {
    const stop = c.bus.subscribe((name, payload) => {
      const list = (payload as { conversations: ConversationSummary[] }).conversations;
      if (name === 'conversations.changed' && ok(list)) {
        stop();
        resolve(list);
      }
    });
  });
}

const count = (list: ConversationSummary[], id: string): number | undefined =>
  list.find((s) => s.id === id)?.messageCount;

describe('opening the app from the summary cache', () => {
  it('a conversation another process added to while the app was closed is corrected by conversations.changed', async () => {
    const { dataDir, dir, ids } = await folder(['Kept', 'Continued elsewhere']);
    const [kept, continued] = ids as [string, string];
    // After our last save: a CLI run added a message, which the cache does not know.
    appendFileSync(path.join(dir, `${continued}.jsonl`), line(msg('from the CLI')));
    core = await createCore({ dataDir, host, env: { HOME: dataDir } });
    const corrected = changed(core, (list) => count(list, continued) === 2);
    const { conversations } = await core.handlers['conversations.list']({}, call);
    expect(count(conversations, kept)).toBe(1);
    // Nothing else is asked: the check after the first list finds the file changed and says so.
    const list = await corrected;
    expect(count(list, kept)).toBe(1);
    expect((await core.handlers['conversations.list']({}, call)).conversations).toEqual(list);
  });

  it('a conversation another process deleted while the app was closed leaves the list', async () => {
    const { dataDir, dir, ids } = await folder(['Kept', 'Deleted elsewhere']);
    const [kept, deleted] = ids as [string, string];
    core = await createCore({ dataDir, host, env: { HOME: dataDir } });
    // Between the start's listing and the first list.
    rmSync(path.join(dir, `${deleted}.jsonl`));
    const gone = changed(core, (list) => count(list, deleted) === undefined);
    await core.handlers['conversations.list']({}, call);
    const list = await gone;
    expect(list.map((s) => s.id)).toEqual([kept]);
  });

  it('a conversation another process starts between the start and the first list is in that list', async () => {
    const { dataDir, dir } = await folder(['Earlier']);
    // Last changed an hour ago, as a folder is when the app starts: its stat alone would say nothing
    // came in since the start's listing, were the new file not to change it.
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(dir, hourAgo, hourAgo);
    core = await createCore({ dataDir, host, env: { HOME: dataDir } });
    // The start has listed the folder already (while the memory opened): a CLI run starts a chat now.
    const id = 'cli-started-0001';
    writeFileSync(
      path.join(dir, `${id}.jsonl`),
      line({
        t: 'meta',
        v: 1,
        id,
        title: 'From the CLI',
        createdAt: new Date().toISOString(),
        memory: true,
      }) + line(msg('started in a terminal')),
    );
    const { conversations } = await core.handlers['conversations.list']({}, call);
    expect(conversations.find((s) => s.id === id)).toMatchObject({ title: 'From the CLI', messageCount: 1 });
    expect(conversations).toHaveLength(2);
  });
});
