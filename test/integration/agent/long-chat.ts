// A conversation as the paging and meter tests after a restart need it: many turns, a memory write every
// few of them, and a pin far back (the page index carries it to pages read without the pin's record);
// and the file's head overwritten with garbage of the same size, its stat kept, so only a replay notices.
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { text, toolUse } from '../../fixtures/fake-anthropic/index.js';
import { type Harness, call, send } from './harness.js';

/**
 * `turns` questions after a first one, every `every`-th filing a memory; the first question pinned unless
 * `pin` is false (a test of paging alone, where a pin's record would be one more thing in the file).
 */
export async function longChat(
  h: Harness,
  turns: number,
  every: number,
  { pin = true }: { pin?: boolean } = {},
): Promise<string> {
  h.fake.enqueue(text('Hello there.'));
  const { res } = await send(h, 'Start');
  const id = res.conversationId;
  for (let i = 0; i < turns; i++) {
    if (i % every === 0) {
      h.fake.enqueue(
        toolUse({
          name: 'memory',
          input: { command: 'create', path: `/memories/p${i}.md`, file_text: `p${i}\n` },
        }),
        text(`Filed ${i}.`),
      );
    } else h.fake.enqueue(text(`Reply ${i}.`));
    await send(h, `Ask ${i}`, id);
  }
  if (!pin) return id;
  const { items } = await h.core.handlers['conversations.get']({ id }, call);
  const first = items.find((i) => i.kind === 'user')!;
  await h.core.handlers['chat.pin']({ conversationId: id, messageId: first.id, pinned: true }, call);
  return id;
}

export const conversationFile = (h: Harness, id: string): string =>
  path.join(h.dataDir, 'conversations', `${id}.jsonl`);

/**
 * Overwrites the first `fraction` of the conversation's file with '#' and puts its mtime back: same size,
 * inode and stat, so a replay reads no meta line and only an open that skips the head still works.
 * Returns the file's bytes from before and a function that puts them back, with the same stat.
 */
export function garbleHead(h: Harness, id: string, fraction: number): () => void {
  const file = conversationFile(h, id);
  const { size, mtimeMs } = statSync(file);
  const data = readFileSync(file);
  const original = Buffer.from(data);
  data.fill(0x23, 0, Math.floor(size * fraction));
  writeFileSync(file, data);
  const t = (Math.floor(mtimeMs) + 0.5) / 1000;
  utimesSync(file, t, t);
  return () => {
    writeFileSync(file, original);
    utimesSync(file, t, t);
  };
}
