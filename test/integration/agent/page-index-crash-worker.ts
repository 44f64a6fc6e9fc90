// Child of page-index-crash.test.ts: keeps adding turns to long conversations and saving, so that each
// save writes their page sidecars (tens of kilobytes each), and a SIGKILL lands inside one: between the
// temp write and the rename, inside the write, or between an append and the next save. Prints "ready"
// once it has started.
import { ConversationStore } from '../../../electron/core/conversations/store.js';

const dir = process.argv[2]!;
const store = new ConversationStore(dir);
await store.init();
const ids = store.ids();
// Read (replayed) now, so every save vouches for them and writes their sidecars.
for (const id of ids) await store.open(id);
let n = 0;
process.stdout.write('ready\n');
for (;;) {
  const id = ids[n % ids.length]!;
  const at = new Date().toISOString();
  const text = `turn${n} ${'filler for a longer line '.repeat(n % 5)}`;
  const user = n % 2 === 0;
  // Written (synced a little later); the sidecar is written at the next save.
  await store.write(id, [
    {
      t: 'msg',
      id: `w${process.pid}-${n}`,
      kind: user ? 'user' : 'assistant',
      role: user ? 'user' : 'assistant',
      content: [{ type: 'text', text }],
      ...(user ? { text } : {}),
      at,
    },
  ]);
  n++;
  // A pause after each save: the summary cache is then current while the sidecars are still being
  // written, so a kill there leaves some of them behind a cache that vouches for the files.
  if (n % 4 === 0) {
    await store.saveSummaries();
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}
