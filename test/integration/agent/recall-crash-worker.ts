// Child of recall-crash.test.ts: keeps adding messages to conversations and saving the recall index, so
// that a SIGKILL lands in the middle of a save (between a shard's temp write and its rename, or inside the
// write). Prints "ready" once it has started saving.
import path from 'node:path';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import { INDEX_DIR } from '../../../electron/core/recall/persist.js';
import { RecallIndex } from '../../../electron/core/recall/recall-index.js';

const dir = process.argv[2]!;
const store = new ConversationStore(dir);
await store.init();
const index = new RecallIndex(store, path.join(dir, INDEX_DIR));
await index.open();
const ids = store.ids();
let n = 0;
process.stdout.write('ready\n');
for (;;) {
  const id = ids[n % ids.length]!;
  const text = `word${n} ${'filler text for a bigger shard '.repeat(20)}`;
  await store.append(id, [
    {
      t: 'msg',
      id: `w${process.pid}-${n}`,
      kind: 'user',
      role: 'user',
      content: [{ type: 'text', text }],
      text,
      at: new Date().toISOString(),
    },
  ]);
  n++;
  await index.save();
}
