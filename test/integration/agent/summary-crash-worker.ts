// Child of summary-crash.test.ts: keeps changing conversations (appends, renames, a new one now and then)
// and saving the summary cache, so that a SIGKILL lands anywhere: inside a save (between the temp write
// and the rename, or inside the write), between an append and the next save, or inside an append.
// Prints "ready" once it has started.
import { ConversationStore } from '../../../electron/core/conversations/store.js';

const dir = process.argv[2]!;
const store = new ConversationStore(dir);
await store.init();
const ids = store.ids();
let n = 0;
process.stdout.write('ready\n');
for (;;) {
  const id = ids[n % ids.length]!;
  const at = new Date().toISOString();
  const text = `word${n} ${'filler for a longer line '.repeat(n % 7)}`;
  if (n % 11 === 5) await store.rename(id, `Renamed ${n}`);
  else if (n % 17 === 3) ids.push((await store.create({ memory: true, title: `New ${n}` })).meta.id);
  // The streaming path's write: written at once, synced a little later, the cache saved later still.
  else
    store.appendQueued(id, [
      {
        t: 'msg',
        id: `w${process.pid}-${n}`,
        kind: 'user',
        role: 'user',
        content: [{ type: 'text', text }],
        text,
        at,
      },
    ]);
  n++;
  if (n % 3 === 0) await store.saveSummaries();
}
