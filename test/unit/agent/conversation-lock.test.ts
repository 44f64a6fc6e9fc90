// Conversations shared by several stores (as by several processes: proper-lockfile's mkdir lock excludes
// a second holder in this process just as in another one). Every write happens under the conversation's
// lock after catching up: a lease excludes others for a whole run; a rewrite (redaction) replaces the
// file and others reload it; a torn tail left by a dead writer is cut before the next append.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { appendFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUSY_MESSAGE } from '../../../electron/core/conversations/lock.js';
import type { ConversationRecord, MessageRecord } from '../../../electron/core/conversations/records.js';
import { ConversationStore } from '../../../electron/core/conversations/store.js';

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
    const { meta } = await a.create({ memory: false, records: [msg('one')] });
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
    const { meta } = await a.create({ memory: false, records: [msg('one')] });
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
      memory: false,
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
    const { meta } = await a.create({ memory: false, records: [msg('one')] });
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
    const { meta } = await a.create({ memory: false, records: [msg('one')] });
    const b = await open();
    await b.delete(meta.id);
    await expect(a.append(meta.id, [msg('two')])).rejects.toThrow(/deleted in another window/);
    expect(existsSync(fileOf(meta.id))).toBe(false);
    expect(a.has(meta.id)).toBe(false);
  });

  it('a lock left by a process that died is cleared at once; one whose holder is unknown is not', async () => {
    const a = await open();
    const { meta } = await a.create({ memory: false, records: [msg('one')] });
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

    // No pid yet (a holder between its mkdir and its pid write): left alone, so busy.
    mkdirSync(lockDir);
    await expect(a.append(meta.id, [msg('two')])).rejects.toThrow(BUSY_MESSAGE);
    expect(existsSync(lockDir)).toBe(true);
  });

  it("refresh shows another store's complete lines without the lock, and leaves a line in progress alone", async () => {
    const a = await open();
    const { meta } = await a.create({ memory: false, records: [msg('one')] });
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
