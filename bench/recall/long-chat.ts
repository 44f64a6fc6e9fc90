// The index following a long conversation (issue 17, point 6: adding a message costs the streaming path
// nothing measurable): one conversation of 20,000 messages, its index built, then replies appended at a
// reply's pace, each followed by the index's batch. Its figure is the event loop's longest stall
// meanwhile, against busy work in the index's own slices (SLICE_MS) for as long, measured just before.
import * as path from 'node:path';
import type { MessageRecord } from '../../electron/core/conversations/records.js';
import { ConversationStore } from '../../electron/core/conversations/store.js';
import { INDEX_DIR } from '../../electron/core/recall/persist.js';
import { RecallIndex } from '../../electron/core/recall/recall-index.js';
import { SLICE_MS } from '../../electron/core/recall/slices.js';
import type { BenchTable } from '../table.js';
import { round, seed, sentence, slicedWork, stalls } from './corpus.js';
import { ms, quantile } from '../timing.js';

/** A reply's pace: the time between two appends (a short reply streams for longer). */
const PACE_MS = 25;

export async function longChat(base: string, messages = 20_000, appends = 40): Promise<BenchTable['rows']> {
  const dir = path.join(base, 'long', 'conversations');
  await seed(dir, 1, messages);
  const store = new ConversationStore(dir);
  await store.init();
  const index = new RecallIndex(store, path.join(dir, INDEX_DIR));
  try {
    await index.open();
    const id = 'c000000';
    await store.open(id);
    const msg = (i: number): MessageRecord => ({
      t: 'msg',
      id: `long-${i}`,
      kind: i % 2 === 0 ? 'user' : 'assistant',
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: [{ type: 'text', text: sentence(i, i) }],
      at: new Date().toISOString(),
    });
    // The first batch after the build may differ (nothing of the conversation seen live yet): not measured.
    store.appendQueued(id, [msg(-1)]);
    await index.settled();
    const batches: number[] = [];
    const follow = async (): Promise<void> => {
      for (let i = 0; i < appends; i++) {
        store.appendQueued(id, [msg(i)]);
        batches.push(await ms(() => index.settled()));
        await new Promise((resolve) => setTimeout(resolve, PACE_MS));
      }
    };
    const baseline = await stalls(() => slicedWork(appends * PACE_MS * 1.2));
    const followed = await stalls(follow);
    await store.flushed(id);
    const ratio = followed.stall / Math.max(baseline.stall, 1e-6);
    return [
      {
        case: `event loop: busy work in ${SLICE_MS} ms slices, ${round((appends * PACE_MS * 1.2) / 1000)} s (baseline of the next row)`,
        'longest stall ms': round(baseline.stall),
        ratio: 1,
      },
      {
        case: `event loop: the index following ${appends} appends to a conversation of ${messages.toLocaleString('en-US')} messages`,
        'longest stall ms': round(followed.stall),
        ratio: round(ratio),
        // Nothing measurable: no stall beyond the baseline's own (1.5x: a shared machine's noise).
        'at most 1.5x': ratio <= 1.5 ? 'yes' : 'NO',
      },
      {
        case: `its index update per append there (one batch, off the path)`,
        'median ms': round(quantile(batches, 0.5)),
        'p95 ms': round(quantile(batches, 0.95)),
      },
    ];
  } finally {
    await index.close();
    await store.close();
  }
}
