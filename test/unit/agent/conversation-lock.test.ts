// Conversations shared by several stores (as by several processes: proper-lockfile's mkdir lock excludes
// a second holder in this process just as in another one). Every write happens under the conversation's
// lock after catching up: a lease excludes others for a whole run; a rewrite (redaction) replaces the
// file and others reload it; a torn tail left by a dead writer is cut before the next append.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { appendFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUSY_MESSAGE } from '../../../electron/core/conversations/lock.js';
import type { ConversationRecord, MessageRecord } from '../../../electron/core/conversations/records.js';
import { rebuild } from '../../../electron/core/conversations/state.js';
import { ConversationStore } from '../../../electron/core/conversations/store.js';
import { createRedactor } from '../../../electron/core/conversations/redact.js';
import { redactConversationFile } from '../../../electron/core/conversations/redact-files.js';

let dir: string;
const opened: ConversationStore[] = [];
beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'mnemo-convlock-'))));
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function open(): Promise<ConversationStore> {
  const store = new ConversationStore(dir);
  opened.push(store);
  await store.init();
  return store;
}

let n = 0;
const msg = (text: string, kind: MessageRecord['kind'] = 'user'): MessageRecord => ({
  t: 'msg',
  id: `m${++n}`,
  kind,
  role: kind === 'assistant' ? 'assistant' : 'user',
  content: [{ type: 'text', text }],
  text,
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
});

const texts = (store: ConversationStore, id: string): string[] =>
  store.get(id).messages.map((m) => m.text ?? '');

const fileOf = (id: string): string => path.join(dir, `${id}.jsonl`);
const fileRecords = (id: string): ConversationRecord[] =>
  readFileSync(fileOf(id), 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as ConversationRecord);

describe('conversations across stores', () => {
  it("a change catches up with another store's appends first; the file and both states agree", async () => {
    const a = await open();
    const { meta } = await a.create({ memory: true, records: [msg('one')] });
    const b = await open();
    await b.append(meta.id, [msg('two from b', 'assistant')]);
    await a.append(meta.id, [msg('three from a')]);
    expect(texts(a, meta.id)).toEqual(['one', 'two from b', 'three from a']);
    await b.rename(meta.id, 'Renamed by b');
    const lease = await a.lease(meta.id);
    expect(lease.caughtUp).toBe(1);
    expect(a.get(meta.id).title).toBe('Renamed by b');
    await lease.release();
    expect(fileRecords(meta.id).filter((r) => r.t === 'msg')).toHaveLength(3);
    expect(existsSync(`${fileOf(meta.id)}.lock`)).toBe(false);
  });

  it('a lease keeps every other writer out until released, and they change nothing meanwhile', async () => {
    const a = await open();
    const { meta } = await a.create({ memory: true, records: [msg('one')] });
    const b = await open();
    const lease = await a.lease(meta.id);
    const before = readFileSync(fileOf(meta.id));
    await expect(b.lease(meta.id)).rejects.toThrow(BUSY_MESSAGE);
    await expect(b.append(meta.id, [msg('intruder')])).rejects.toThrow(BUSY_MESSAGE);
    expect(texts(b, meta.id)).toEqual(['one']);
    // The lease holder's own writes go straight in (no lock per write).
    a.appendQueued(meta.id, [msg('answer', 'assistant')]);
    await a.flushed(meta.id);
    await lease.release();
    expect(readFileSync(fileOf(meta.id)).subarray(0, before.length).equals(before)).toBe(true);
    const again = await b.lease(meta.id);
    expect(again.caughtUp).toBe(1);
    expect(texts(b, meta.id)).toEqual(['one', 'answer']);
    await again.release();
  });

  it('a rewrite replaces the file; another store reloads it and appends to the new file', async () => {
    const a = await open();
    const { meta } = await a.create({
      memory: true,
      records: [msg('secret: hunter2'), msg('ok', 'assistant')],
    });
    const b = await open();
    await a.rewrite(meta.id, (records) =>
      records.map((r) =>
        r.t === 'msg' && r.text?.includes('hunter2')
          ? {
              ...r,
              text: '[forgotten by the user]',
              content: [{ type: 'text', text: '[forgotten by the user]' }],
            }
          : r,
      ),
    );
    expect(readFileSync(fileOf(meta.id), 'utf8')).not.toContain('hunter2');
    expect(texts(a, meta.id)).toEqual(['[forgotten by the user]', 'ok']);
    await b.append(meta.id, [msg('after the rewrite')]);
    expect(texts(b, meta.id)).toEqual(['[forgotten by the user]', 'ok', 'after the rewrite']);
    await a.append(meta.id, [msg('and a again', 'assistant')]);
    expect(fileRecords(meta.id).flatMap((r) => (r.t === 'msg' ? [r.text] : []))).toEqual([
      '[forgotten by the user]',
      'ok',
      'after the rewrite',
      'and a again',
    ]);
    expect(readFileSync(fileOf(meta.id), 'utf8')).not.toContain('hunter2');
  });

  it('a torn last line (a writer that died mid-line) is cut under the lock before the next append', async () => {
    const a = await open();
    const { meta } = await a.create({ memory: true, records: [msg('one')] });
    await a.close();
    await appendFile(fileOf(meta.id), '{"t":"msg","id":"torn","kind":"us');
    const b = await open();
    expect(texts(b, meta.id)).toEqual(['one']);
    await b.append(meta.id, [msg('two')]);
    const lines = readFileSync(fileOf(meta.id), 'utf8').trimEnd().split('\n');
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(fileRecords(meta.id).flatMap((r) => (r.t === 'msg' ? [r.text] : []))).toEqual(['one', 'two']);
  });

  it('a conversation deleted by another store is reported as such, not written again', async () => {
    const a = await open();
    const { meta } = await a.create({ memory: true, records: [msg('one')] });
    const b = await open();
    await b.delete(meta.id);
    await expect(a.append(meta.id, [msg('two')])).rejects.toThrow(/deleted in another window/);
    expect(existsSync(fileOf(meta.id))).toBe(false);
    expect(a.has(meta.id)).toBe(false);
  });

  it('a lock left by a process that died is cleared at once; one without a pid only once it is old enough', async () => {
    const a = await open();
    const { meta } = await a.create({ memory: true, records: [msg('one')] });
    const lockDir = `${fileOf(meta.id)}.lock`;
    // A process that has exited: its pid is not alive (a fresh lock: far from stale).
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    mkdirSync(lockDir);
    writeFileSync(path.join(lockDir, 'pid'), String(dead));
    const lease = await a.lease(meta.id);
    expect(readFileSync(path.join(lockDir, 'pid'), 'utf8')).toBe(String(process.pid));
    await lease.release();
    expect(existsSync(lockDir)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('.dead-'))).toEqual([]);

    // No pid: a holder between its mkdir and its pid write (microseconds), or one killed there. A waiting
    // append leaves it alone while it is young (conversation-lock-orphan.test.ts) and takes it once it is
    // older than any live creation can be.
    mkdirSync(lockDir);
    await a.append(meta.id, [msg('two')]);
    expect(texts(a, meta.id)).toEqual(['one', 'two']);
    expect(existsSync(lockDir)).toBe(false);
  });

  it("refresh shows another store's complete lines without the lock, and leaves a line in progress alone", async () => {
    const a = await open();
    const { meta } = await a.create({ memory: true, records: [msg('one')] });
    const b = await open();
    const lease = await a.lease(meta.id);
    a.appendQueued(meta.id, [msg('mid-run answer', 'assistant')]);
    await a.flushed(meta.id);
    await appendFile(fileOf(meta.id), '{"t":"msg","id":"in-progress","ki');
    const size = (await stat(fileOf(meta.id))).size;
    expect(await b.refresh(meta.id)).toBe(1);
    expect(texts(b, meta.id)).toEqual(['one', 'mid-run answer']);
    expect((await stat(fileOf(meta.id))).size).toBe(size);
    expect(await b.refresh(meta.id)).toBe(0);
    await lease.release();
  });
});

// The invariant behind all of the above, over random interleavings: whichever store acts, what it holds
// after its change is exactly what replaying the file gives, and the file replays to a valid state.
describe('conversations across stores, property', () => {
  it('random appends, renames, leases, refreshes and rewrites from three stores keep every state equal to the file', async () => {
    const op = fc.record({
      store: fc.integer({ min: 0, max: 2 }),
      kind: fc.constantFrom('append', 'rename', 'run', 'refresh', 'rewrite'),
      text: fc.string({ maxLength: 20 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const sub = await mkdtemp(path.join(dir, 'p-'));
        const stores = [0, 1, 2].map(() => new ConversationStore(sub));
        const first = stores[0]!;
        await first.init();
        const { meta } = await first.create({ memory: true, records: [msg('start')] });
        for (const s of stores.slice(1)) await s.init();
        try {
          for (const o of ops) {
            const s = stores[o.store]!;
            if (o.kind === 'append') await s.append(meta.id, [msg(o.text)]);
            else if (o.kind === 'rename') await s.rename(meta.id, o.text || 'x');
            else if (o.kind === 'refresh') await s.refresh(meta.id);
            else if (o.kind === 'rewrite')
              await s.rewrite(meta.id, (records) =>
                records.map((r) => (r.t === 'msg' ? { ...r, text: `[${r.text ?? ''}]` } : r)),
              );
            else {
              const lease = await s.lease(meta.id);
              s.appendQueued(meta.id, [msg(`${o.text} q`, 'assistant')]);
              await s.write(meta.id, [msg(`${o.text} w`)]);
              await s.flushed(meta.id);
              await lease.release();
            }
            const replayed = rebuild(
              readFileSync(path.join(sub, `${meta.id}.jsonl`), 'utf8')
                .trimEnd()
                .split('\n')
                .map((l) => JSON.parse(l) as ConversationRecord),
            );
            expect(replayed).not.toBeNull();
            const live = s.get(meta.id);
            expect(live.messages).toEqual(replayed!.messages);
            expect(live.title).toBe(replayed!.title);
          }
        } finally {
          await Promise.all(stores.map((s) => s.close()));
        }
      }),
      { numRuns: 25 },
    );
  });

  it("a forget's redaction in one store reaches another store that had the conversation loaded", async () => {
    const secret = 'The locker combination is 31-07-1999 behind the gym';
    const a = await open();
    const { meta } = await a.create({ memory: true, records: [msg(`remember: ${secret}`)] });
    const b = await open();
    expect(texts(b, meta.id)[0]).toContain(secret);
    const redactor = createRedactor({ paths: ['/memories/locker.md'], versions: [secret] });
    const changed = await a.redact(
      meta.id,
      (records) => redactor.records(records),
      async (file) => redactConversationFile(file, redactor),
    );
    expect(changed).toBe(true);
    expect(readFileSync(fileOf(meta.id), 'utf8')).not.toContain(secret);
    // b reloads the replaced file (new rev) rather than appending to, or trusting, its old copy.
    await b.refresh(meta.id);
    expect(texts(b, meta.id)[0]).not.toContain(secret);
    await b.append(meta.id, [msg('after the forget', 'assistant')]);
    expect(readFileSync(fileOf(meta.id), 'utf8')).not.toContain(secret);
    expect(fileRecords(meta.id).filter((r) => r.t === 'msg')).toHaveLength(2);
  });
});
