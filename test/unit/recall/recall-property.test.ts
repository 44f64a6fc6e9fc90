// The recall index's invariant, as a property: after any sequence of changes (new conversations, appends,
// truncations, in-place redactions, "don't search this", deletions) and after a restart, searching any
// word finds exactly the live, searchable messages that hold it: nothing deleted, edited away or
// redacted, and nothing missed; and the index's own documents hold exactly those.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../../electron/core/conversations/records.js';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import { RecallIndex, searchable } from '../../../electron/core/recall/recall-index.js';
import { messageText } from '../../../electron/core/recall/text.js';

const WORDS = ['amber', 'basil', 'cedar', 'delta', 'ember', 'fjord'];

type Op =
  | { op: 'create'; words: string[]; memory: boolean }
  | { op: 'append'; c: number; words: string[] }
  | { op: 'truncate'; c: number; at: number }
  | { op: 'redact'; c: number; word: string }
  | { op: 'noSearch'; c: number; on: boolean }
  | { op: 'delete'; c: number }
  | { op: 'restart' };

const words = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), words, memory: fc.boolean() }),
  fc.record({ op: fc.constant('append' as const), c: fc.nat(5), words }),
  fc.record({ op: fc.constant('truncate' as const), c: fc.nat(5), at: fc.nat(4) }),
  fc.record({ op: fc.constant('redact' as const), c: fc.nat(5), word: fc.constantFrom(...WORDS) }),
  fc.record({ op: fc.constant('noSearch' as const), c: fc.nat(5), on: fc.boolean() }),
  fc.record({ op: fc.constant('delete' as const), c: fc.nat(5) }),
  fc.constant({ op: 'restart' as const }),
);

let n = 0;
const msg = (text: string): MessageRecord => ({
  t: 'msg',
  id: `m${++n}`,
  kind: n % 2 ? 'user' : 'assistant',
  role: n % 2 ? 'user' : 'assistant',
  content: [{ type: 'text', text }],
  ...(n % 2 ? { text } : {}),
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
});

describe('recall index invariant', () => {
  it('finds exactly the live searchable messages holding a word, after any changes and restarts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const dir = await mkdtemp(path.join(tmpdir(), 'mnemo-recall-prop-'));
        let store = new ConversationStore(dir);
        let index = new RecallIndex(store, path.join(dir, '.recall-index'), { batchMs: 1 });
        const ids: string[] = [];
        const pick = (c: number) => ids.filter((id) => store.has(id))[c];
        try {
          await index.open();
          for (const o of ops) {
            if (o.op === 'create')
              ids.push((await store.create({ memory: o.memory, records: [msg(o.words.join(' '))] })).meta.id);
            else if (o.op === 'restart') {
              await index.close();
              await store.close();
              store = new ConversationStore(dir);
              index = new RecallIndex(store, path.join(dir, '.recall-index'), { batchMs: 1 });
              await index.open();
            } else {
              const id = pick(o.c);
              if (!id) continue;
              const state = store.get(id);
              if (o.op === 'append') await store.append(id, [msg(o.words.join(' '))]);
              else if (o.op === 'truncate') {
                const m = state.messages[o.at];
                if (m)
                  await store.append(id, [
                    { t: 'truncate', fromMessageId: m.id, at: new Date().toISOString() },
                  ]);
              } else if (o.op === 'redact') {
                // Forget's way: the live records are changed in place, the file rewritten.
                await store.redact(
                  id,
                  (records) => {
                    let changed = false;
                    for (const r of records) {
                      if (r.t !== 'msg') continue;
                      for (const b of r.content)
                        if (b.type === 'text' && b.text.includes(o.word)) {
                          b.text = b.text.replaceAll(o.word, 'gone');
                          changed = true;
                        }
                      if (r.text?.includes(o.word)) r.text = r.text.replaceAll(o.word, 'gone');
                    }
                    return changed;
                  },
                  async () => false,
                );
              } else if (o.op === 'noSearch') {
                // A temporary conversation is never searched: there is no switch to turn.
                if (store.isTemporary(id)) continue;
                await store.rewrite(id, ([meta, ...rest]) => [
                  { ...meta!, noSearch: o.on } as typeof meta & object,
                  ...rest,
                ]);
              } else if (o.op === 'delete') await store.delete(id);
            }
          }
          const absent: string[] = [];
          for (const word of WORDS) {
            const expected = (await Promise.all(store.ids().map((id) => store.open(id))))
              .filter(searchable)
              .flatMap((s) =>
                s.messages.filter((m) => messageText(m)?.split(' ').includes(word)).map((m) => m.id),
              )
              .sort();
            const { hits } = await index.search(word, { limit: 1_000 });
            expect(hits.map((h) => h.messageId!).sort(), word).toEqual(expected);
            // The index's own documents too: hits are checked against the store, which hides stale ones.
            const held = index.holding(word).map((doc) => doc.slice(doc.indexOf('/') + 1));
            expect(held.sort(), word).toEqual(expected);
            // And the saved index holds no word that no live searchable message holds.
            if (expected.length === 0) absent.push(word);
          }
          await index.save();
          const folder = path.join(dir, '.recall-index');
          const saved = (
            await Promise.all(
              (await readdir(folder).catch(() => [])).map((f) => readFile(path.join(folder, f), 'utf8')),
            )
          ).join('\n');
          for (const word of absent) expect(saved, word).not.toContain(`"${word}"`);
        } finally {
          await index.close();
          await store.close();
          await rm(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
  });
});
