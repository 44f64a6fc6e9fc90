// The recall index takes a batch of appends one by one (reconcile.ts): these check that it does so only
// when nothing else changed. After an edit in place, a forget's redaction, a cut (edit-and-resend, retry)
// or another process's writes, each followed by an append, the index's own documents (not a search's
// hits, which are checked against the live store and would hide a stale document) must hold exactly what
// the conversation holds now, and so must its files and the index loaded from them after a restart.
import { appendFile, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../../electron/core/conversations/records.js';
import { createRedactor } from '../../../electron/core/conversations/redact.js';
import { redactConversationFile } from '../../../electron/core/conversations/redact-files.js';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import { INDEX_DIR } from '../../../electron/core/recall/persist.js';
import { messageDoc, titleDoc } from '../../../electron/core/recall/reconcile.js';
import { RecallIndex, searchable } from '../../../electron/core/recall/recall-index.js';
import { messageText, term, tokenize } from '../../../electron/core/recall/text.js';
import { userMessages } from '../../fixtures/user-messages.js';

const WORDS = [
  'amber',
  'basil',
  'cedar',
  'delta',
  'ember',
  'fjord',
  'gravel',
  'harbor',
  'indigo',
  'juniper',
  'kestrel',
  'lantern',
];

let dir: string;
let store: ConversationStore;
let index: RecallIndex;
const folder = () => path.join(dir, 'conversations');

async function start(sliceMs?: number): Promise<void> {
  store = new ConversationStore(folder());
  // Batches only when asked (settled): a change and the append after it are followed together.
  index = new RecallIndex(store, path.join(folder(), INDEX_DIR), { batchMs: 60_000, sliceMs });
  await index.open();
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mnemo-recall-follow-'));
  await start();
});
afterEach(async () => {
  await index.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const msg = userMessages(undefined, { alternate: true });

/** A conversation the index has followed live: its documents taken, then one append taken by itself. */
async function followed(...texts: string[]): Promise<string> {
  const id = (await store.create({ memory: true, title: 'Trip notes', records: texts.map((t) => msg(t)) }))
    .meta.id;
  await index.settled();
  await store.append(id, [msg('kestrel')]);
  await index.settled();
  return id;
}

/** The documents that should hold each word: every live searchable message (and title) holding it. */
async function expected(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const word of WORDS) out[word] = [];
  for (const id of store.ids()) {
    const state = await store.open(id);
    if (!searchable(state)) continue;
    const docs: [string, string | null][] = [[titleDoc(id), state.title || null]];
    for (const m of state.messages) docs.push([messageDoc(id, m.id), messageText(m)]);
    for (const [doc, text] of docs) {
      const terms = new Set(tokenize(text ?? '').map(term));
      for (const word of WORDS) if (terms.has(term(word))) out[word]!.push(doc);
    }
  }
  for (const word of WORDS) out[word]!.sort();
  return out;
}

/** What the index itself holds, word by word, and how many documents. */
function indexed(): Record<string, string[]> {
  return Object.fromEntries(WORDS.map((word) => [word, index.holding(word)]));
}

async function documents(): Promise<number> {
  let count = 0;
  for (const id of store.ids()) {
    const state = await store.open(id);
    if (searchable(state))
      count += (state.title ? 1 : 0) + state.messages.filter((m) => messageText(m) !== null).length;
  }
  return count;
}

async function savedText(): Promise<string> {
  const dirPath = path.join(folder(), INDEX_DIR);
  const names = await readdir(dirPath);
  return (await Promise.all(names.map((f) => readFile(path.join(dirPath, f), 'utf8')))).join('\n');
}

/**
 * The index holds exactly what the conversations hold, none of `gone` (in memory and in its files),
 * and so does the index loaded from those files after a restart, then after one more append there.
 */
async function consistent(id: string, gone: readonly string[]): Promise<void> {
  await index.settled();
  const want = await expected();
  for (const word of gone) expect(want[word], `${word} is still in the conversation`).toEqual([]);
  expect(indexed()).toEqual(want);
  expect(index.size).toBe(await documents());
  await index.save();
  const saved = await savedText();
  for (const word of gone) expect(saved, word).not.toContain(`"${term(word)}"`);
  await index.close();
  await store.close();
  await start();
  expect(indexed()).toEqual(want);
  expect(index.size).toBe(await documents());
  await store.append(id, [msg('lantern')]);
  await index.settled();
  expect(indexed()).toEqual(await expected());
  expect(index.size).toBe(await documents());
}

describe('recall index following appends', () => {
  it('an earlier message edited in place (its file rewritten), then an append', async () => {
    const id = await followed('amber notes', 'basil reply', 'cedar question', 'delta answer');
    const second = store.get(id).messages[1]!.id;
    await store.rewrite(id, (records) =>
      records.map((r) =>
        r.t === 'msg' && r.id === second ? { ...r, content: [{ type: 'text', text: 'ember reply' }] } : r,
      ),
    );
    await store.append(id, [msg('fjord follow-up')]);
    await consistent(id, ['basil']);
    expect(index.holding('ember')).toEqual([messageDoc(id, second)]);
  });

  it('a "Forget permanently" redaction of an earlier message while a run holds it, then its append', async () => {
    const secret = 'gravel harbor indigo is the code to the garden gate';
    const id = await followed('amber notes', `I saved this: ${secret}`, 'cedar question', 'delta answer');
    // A run holds the conversation (its lease): nothing reloads the file it writes to, so the records
    // changed in place are the only trace of the forget.
    const lease = await store.lease(id);
    // The forget's own redactor over the live records and the file (agent.redactForgotten's way).
    const redactor = createRedactor({ paths: ['garden.md'], versions: [secret] });
    const changed = await store.redact(
      id,
      (records) => redactor.records(records),
      async (file) => redactConversationFile(file, redactor),
    );
    expect(changed).toBe(true);
    store.appendQueued(id, [msg('ember after the forget')]);
    await index.settled();
    expect(indexed()).toEqual(await expected());
    await store.flushed(id);
    await lease.release();
    await consistent(id, ['gravel', 'harbor', 'indigo']);
    expect(index.holding('amber')).toHaveLength(1);
  });

  it('a cut for edit-and-resend, and one for retry, each followed by appends', async () => {
    const id = await followed('amber notes', 'basil reply', 'cedar question', 'delta answer');
    const [, , third, fourth] = store.get(id).messages;
    // Edit-and-resend: from the third message on, replaced by a new question and answer.
    await store.append(id, [
      { t: 'truncate', fromMessageId: third!.id, at: new Date().toISOString() },
      msg('ember question', 'user'),
      msg('fjord answer', 'assistant'),
    ]);
    await index.settled();
    expect(indexed()).toEqual(await expected());
    // Retry: the last answer cut and answered again, as many messages as before.
    const last = store.get(id).messages.at(-1)!;
    await store.append(id, [
      { t: 'truncate', fromMessageId: last.id, at: new Date().toISOString() },
      msg('gravel answer', 'assistant'),
    ]);
    expect(store.get(id).messages.map((m) => m.id)).not.toContain(fourth!.id);
    await consistent(id, ['cedar', 'delta', 'fjord', 'kestrel']);
  });

  it('another process appends to the file, and rewrites an earlier message', async () => {
    const id = await followed('amber notes', 'basil reply', 'cedar question', 'delta answer');
    // Its appends are lines at the end of the file; this store catches up (a window opening it does).
    const line = (m: MessageRecord) => `${JSON.stringify(m)}\n`;
    await appendFile(path.join(folder(), `${id}.jsonl`), line(msg('ember from the terminal')));
    expect(await store.refresh(id)).toBe(1);
    await index.settled();
    expect(indexed()).toEqual(await expected());
    expect(index.holding('ember')).toHaveLength(1);
    // Its rewrite (under the lock) replaces the file; then it appends again.
    const other = new ConversationStore(folder());
    try {
      const first = (await other.open(id)).messages[0]!.id;
      await other.rewrite(id, (records) =>
        records.map((r) =>
          r.t === 'msg' && r.id === first
            ? { ...r, text: 'fjord', content: [{ type: 'text', text: 'fjord' }] }
            : r,
        ),
      );
      await other.append(id, [msg('gravel from the terminal')]);
    } finally {
      await other.close();
    }
    expect(await store.refresh(id)).toBeGreaterThan(0);
    await consistent(id, ['amber']);
    expect(index.holding('gravel')).toHaveLength(1);
  });

  it('a whole diff that yields between messages takes what the state held when it began', async () => {
    await index.close();
    await store.close();
    await start(0); // a turn after every message
    const id = await followed(...WORDS.slice(0, 6).map((w) => `${w} notes`));
    const first = store.get(id).messages[0]!.id;
    await store.rewrite(id, (records) =>
      records.map((r) => (r.t === 'msg' && r.id === first ? { ...r, text: 'x', content: [] } : r)),
    );
    const lease = await store.lease(id);
    let done = false;
    const diff = index.settled().then(() => (done = true));
    // Midway through it, a reply streams in and is appended (the live state has it at once).
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    store.appendQueued(id, [msg('gravel reply')]);
    await diff;
    await store.flushed(id);
    await lease.release();
    await index.settled();
    expect(indexed()).toEqual(await expected());
    expect(index.holding('gravel')).toHaveLength(1);
    await consistent(id, ['amber']);
  });
});
