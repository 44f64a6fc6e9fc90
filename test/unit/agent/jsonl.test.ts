// JSONL files: appends are whole lines; a torn last line is skipped and cut off; after a failed write
// nothing more is appended (the file stays a prefix). `write` resolves once its lines are in the file and
// leaves the sync to its window (or to flushed()/an append, which sync at once).
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonlWriter, readJsonl } from '../../../electron/core/conversations/jsonl.js';

let dir: string;
beforeEach(async () => (dir = await mkdtemp(path.join(tmpdir(), 'mnemo-jsonl-'))));
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('jsonl', () => {
  it('appends in order and reads back', async () => {
    const file = path.join(dir, 'a.jsonl');
    const w = new JsonlWriter(file);
    await Promise.all([w.append([{ n: 1 }]), w.append([{ n: 2 }, { n: 3 }])]);
    await w.close();
    expect((await readJsonl<{ n: number }>(file)).records.map((r) => r.n)).toEqual([1, 2, 3]);
  });

  it('resolves each of many concurrent appends only once its line is on disk, in order', async () => {
    const file = path.join(dir, 'many.jsonl');
    const w = new JsonlWriter(file);
    const seenOnResolve: number[] = [];
    await Promise.all(
      Array.from({ length: 200 }, (_, n) =>
        w.append([{ n }]).then(async () => {
          const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
          if (lines.some((l) => (JSON.parse(l) as { n: number }).n === n)) seenOnResolve.push(n);
        }),
      ),
    );
    await w.close();
    expect(seenOnResolve).toHaveLength(200);
    expect((await readJsonl<{ n: number }>(file)).records.map((r) => r.n)).toEqual(
      Array.from({ length: 200 }, (_, n) => n),
    );
  });

  it('skips and cuts off a torn last line', async () => {
    const file = path.join(dir, 'b.jsonl');
    await writeFile(file, '{"n":1}\n{"n":2}\n{"n":3');
    const read = await readJsonl<{ n: number }>(file);
    expect(read.records.map((r) => r.n)).toEqual([1, 2]);
    expect(read.skipped).toBe(1);
    expect(await readFile(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
    const w = new JsonlWriter(file);
    await w.append([{ n: 4 }]);
    await w.close();
    expect((await readJsonl<{ n: number }>(file)).records.map((r) => r.n)).toEqual([1, 2, 4]);
  });

  it('writes a line at once and syncs it within its window, or at once when flushed', async () => {
    const file = path.join(dir, 'window.jsonl');
    // A window no test waits for: only flushed() or an append can settle the sync.
    const w = new JsonlWriter(file, { syncWithinMs: 60_000 });
    await w.write([{ n: 1 }]);
    // Written (an app crash can no longer lose it) before any sync.
    expect((await readJsonl<{ n: number }>(file)).records.map((r) => r.n)).toEqual([1]);
    // An append syncs at once (covering the write before it), and flushed() too: neither waits the minute
    // (the test's timeout would end it first).
    await w.append([{ n: 2 }]);
    await w.write([{ n: 3 }]);
    await w.flushed();
    await w.close();
    expect((await readJsonl<{ n: number }>(file)).records.map((r) => r.n)).toEqual([1, 2, 3]);
  });

  it('shares one write among the lines added in the same tick, written after that tick', async () => {
    const file = path.join(dir, 'tick.jsonl');
    // A window no test waits for: no sync runs in between, and the file stays open, so without the wait
    // for the next tick the next lines would be written at once.
    const w = new JsonlWriter(file, { syncWithinMs: 60_000 });
    await w.write([{ n: 0 }]);
    await new Promise((resolve) => setImmediate(resolve));
    const order: string[] = [];
    const first = w.write([{ n: 1 }]).then(() => order.push('first written'));
    const second = w.write([{ n: 2 }]).then(() => order.push('second written'));
    // Nothing is written during the caller's own tick (its microtasks included): its work goes first.
    await Promise.resolve();
    await Promise.resolve();
    expect(readFileSync(file, 'utf8')).toBe('{"n":0}\n');
    await Promise.all([first, second]);
    expect(order).toEqual(['first written', 'second written']);
    await w.close();
    expect(await readFile(file, 'utf8')).toBe('{"n":0}\n{"n":1}\n{"n":2}\n');
  });

  it('refuses further appends after a failure', async () => {
    const w = new JsonlWriter(path.join(dir, 'missing-folder', 'c.jsonl'));
    await expect(w.append([{ n: 1 }])).rejects.toThrow(/could not be saved \(ENOENT\)/);
    await expect(w.append([{ n: 2 }])).rejects.toThrow(/could not be saved/);
    await expect(w.write([{ n: 3 }])).rejects.toThrow(/could not be saved/);
    await expect(w.flushed()).rejects.toThrow();
  });
});
